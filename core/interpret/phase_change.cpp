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
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t lo = k > 0 ? k - 1 : k, hi = k + 1 < n ? k + 1 : k;
        if (lo == hi || x[hi] == x[lo]) continue;
        const double slope = (y[hi] - y[lo]) / double(x[hi] - x[lo]);
        if (slope < steepest) {
            steepest = slope;
            best = x[k];
        }
    }
    return best;
}

} // namespace fb
