#include "core/run/budget.h"

#include "core/lab/param_spec.h"

#include <cmath>

namespace fb {

namespace {
// value rounded up to `decimals` decimals (a hair of tolerance for the binary representation).
double ceilTo(double value, double scale)
{
    return std::ceil(value * scale - 1e-9) / scale;
}
} // namespace

std::string gibText(double bytes)
{
    return formatNumber(ceilTo(bytes / (1024.0 * 1024.0 * 1024.0), 10.0));
}

std::string flopsText(double flops)
{
    if (!std::isfinite(flops)) return formatNumber(flops);
    if (flops < 1e3) return formatNumber(std::ceil(flops));
    int exponent = int(std::floor(std::log10(flops)));
    double mantissa = ceilTo(flops / std::pow(10.0, exponent), 10.0);
    if (mantissa >= 10.0) {
        mantissa /= 10.0;
        ++exponent;
    }
    return formatNumber(mantissa) + "e" + std::to_string(exponent);
}

std::string checkBudget(const std::string &what, const Cost &cost, const std::string &hint, double maxBytes,
                        double maxFlops)
{
    const std::string tail = hint.empty() ? std::string() : "; " + hint;
    if (!(cost.bytes <= maxBytes))
        return what + " needs " + gibText(cost.bytes) + " GiB of memory, at most " + gibText(maxBytes) + " GiB" + tail;
    if (!(cost.flops <= maxFlops))
        return what + " needs " + flopsText(cost.flops) + " floating-point operations, at most " + flopsText(maxFlops)
               + tail;
    return {};
}

} // namespace fb
