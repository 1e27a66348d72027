#include "views/training/moving_average.h"

#include <cmath>
#include <limits>

namespace fb {

std::vector<double> movingAverage(const std::vector<double> &values, int window)
{
    const std::size_t w = window < 1 ? 1 : std::size_t(window);
    std::vector<double> out;
    if (values.size() < w) return out;
    out.reserve(values.size() - w + 1);
    // A running sum of the finite values in the window and a count of the others.
    double sum = 0.0;
    std::size_t bad = 0;
    auto add = [&](double v) {
        if (std::isfinite(v)) sum += v;
        else ++bad;
    };
    auto remove = [&](double v) {
        if (std::isfinite(v)) sum -= v;
        else --bad;
    };
    for (std::size_t i = 0; i < w; ++i) add(values[i]);
    for (std::size_t i = 0;; ++i) {
        out.push_back(bad ? std::numeric_limits<double>::quiet_NaN() : sum / double(w));
        if (i + w >= values.size()) break;
        add(values[i + w]);
        remove(values[i]);
        // Start the sum afresh now and then so rounding cannot creep in over long curves.
        if ((i + 1) % 1024 == 0) {
            sum = 0.0;
            bad = 0;
            for (std::size_t j = i + 1; j < i + 1 + w; ++j) add(values[j]);
        }
    }
    return out;
}

} // namespace fb
