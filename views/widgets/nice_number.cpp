#include "views/widgets/nice_number.h"

#include <cmath>

namespace fb {

double niceNumber(double x, bool ceiling)
{
    const double z = std::pow(10.0, double(int(std::floor(std::log10(x)))));
    double q = x / z;
    if (ceiling) q = q <= 1.0 ? 1.0 : q <= 2.0 ? 2.0 : q <= 5.0 ? 5.0 : 10.0;
    else q = q < 1.5 ? 1.0 : q < 3.0 ? 2.0 : q < 7.0 ? 5.0 : 10.0;
    return q * z;
}

} // namespace fb
