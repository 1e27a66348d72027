#include "core/numeric/log_ladder.h"

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

bool isPowerOfTwo(double v)
{
    if (v < 1.0 || v != std::floor(v)) return false;
    const auto n = static_cast<unsigned long long>(v);
    return (n & (n - 1)) == 0;
}

// m * 10^k computed so that 0.002 is the double the literal 0.002 gives (one correctly rounded
// division or multiplication of exact integers).
double decadeValue(int m, int k)
{
    return k >= 0 ? double(m) * std::pow(10.0, k) : double(m) / std::pow(10.0, -k);
}

} // namespace

std::vector<double> logLadder(const ParamSpec &s)
{
    std::vector<double> ladder;
    if (!s.logScale || !(s.max > 0.0)) return ladder;
    const bool integer = s.kind == ParamKind::Integer;
    const double m = integer ? double(std::max<long long>(s.multipleOf, 1)) : 1.0;
    const auto add = [&](double v) {
        if (integer) v = std::round(v / m) * m;
        if (v >= s.min && v <= s.max) ladder.push_back(v);
    };
    add(s.min);
    add(s.max);
    add(s.def);
    if (integer && isPowerOfTwo(s.def)) {
        for (double v = 1.0; v <= s.max; v *= 2.0) add(v);
    } else {
        // The lowest decade: the spec's minimum, or for a range from 0 six decades below the top.
        const double lo = s.min > 0.0 ? s.min : std::max(s.max * 1e-6, 1e-3);
        const int k0 = int(std::floor(std::log10(lo)));
        const int k1 = int(std::ceil(std::log10(s.max)));
        for (int k = k0; k <= k1; ++k)
            for (int mant : { 1, 2, 5 }) {
                const double v = decadeValue(mant, k);
                if (v >= lo) add(v);
            }
    }
    std::sort(ladder.begin(), ladder.end());
    ladder.erase(std::unique(ladder.begin(), ladder.end()), ladder.end());
    return ladder;
}

std::size_t nearestRung(const std::vector<double> &ladder, double value)
{
    if (value <= ladder.front()) return 0;
    if (value >= ladder.back()) return ladder.size() - 1;
    const auto above = std::lower_bound(ladder.begin(), ladder.end(), value);
    const std::size_t hi = std::size_t(above - ladder.begin());
    if (*above == value) return hi;
    const std::size_t lo = hi - 1;
    if (ladder[lo] <= 0.0) return hi;  // 0 at the bottom: nothing is near it in log space
    return std::log(value / ladder[lo]) <= std::log(ladder[hi] / value) ? lo : hi;
}

double stepAlongLadder(const std::vector<double> &ladder, double value, int steps)
{
    if (ladder.empty()) return value;
    const auto n = static_cast<long long>(ladder.size());
    long long i;
    if (steps > 0) {
        // The first rung above value is one step.
        i = static_cast<long long>(std::upper_bound(ladder.begin(), ladder.end(), value) - ladder.begin()) + steps - 1;
    } else if (steps < 0) {
        // The last rung below value is one step.
        i = static_cast<long long>(std::lower_bound(ladder.begin(), ladder.end(), value) - ladder.begin()) + steps;
    } else {
        return ladder[nearestRung(ladder, value)];
    }
    return ladder[std::size_t(std::clamp<long long>(i, 0, n - 1))];
}

} // namespace fb
