#include "core/interpret/phase_change.h"

#include <algorithm>
#include <cmath>

namespace fb {

int PhaseChange::step(const std::vector<int> &steps, const std::vector<double> &repeatLoss)
{
    // the finite points only (a diverged or missing evaluation is NaN)
    std::vector<int> x;
    std::vector<double> y;
    x.reserve(steps.size());  // one allocation each, whatever the curve's length
    y.reserve(steps.size());
    for (std::size_t k = 0; k < std::min(steps.size(), repeatLoss.size()); ++k)
        if (std::isfinite(repeatLoss[k])) {
            x.push_back(steps[k]);
            y.push_back(repeatLoss[k]);
        }
    const std::size_t n = x.size();
    int best = -1;
    double steepest = 0.0;  // only a falling curve has a phase change; the earliest point on ties
    if (n == 2 && x[1] > x[0] && y[1] < y[0]) return x[1];
    for (std::size_t k = 1; k + 1 < n; ++k) {
        if (x[k + 1] <= x[k - 1]) continue;
        const double slope = (y[k + 1] - y[k - 1]) / double(x[k + 1] - x[k - 1]);
        if (slope < steepest) {
            steepest = slope;
            best = x[k];
        }
    }
    return best;
}

} // namespace fb
