#include "core/labs/printed.h"

#include <charconv>

namespace fb {

namespace {

std::string format(double v, std::chars_format how, int decimals)
{
    char buf[64];
    // std::to_chars ignores the locale and rounds like Python's format (correctly, half to even on
    // the exact binary value).
    const auto r = std::to_chars(buf, buf + sizeof buf, v, how, decimals);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string("nan");
}

} // namespace

std::string printedFixed(double v, int decimals)
{
    return format(v, std::chars_format::fixed, decimals);
}

std::string printedScientific(double v, int decimals)
{
    return format(v, std::chars_format::scientific, decimals);
}

} // namespace fb
