#pragma once
// The smoothing the chapter applies to its training curves (Figure 218.2, right):
// numpy.convolve(curve, ones(w) / w, mode="valid").
#include <vector>

namespace fb {

// The "valid" moving average of values over window w: n - w + 1 means (none when n < w), the i-th
// the mean of values[i .. i + w - 1]. A window holding a non-finite value gives NaN there.
// w < 1 is treated as 1. O(n) whatever the window.
std::vector<double> movingAverage(const std::vector<double> &values, int window);

} // namespace fb
