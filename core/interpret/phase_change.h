#pragma once
// The phase change of an induction run (Olsson et al. 2022): the point of the held-out curve where
// the repeat loss falls fastest. Its slope at point k is the central difference
// (r[k+1] - r[k-1]) / (step[k+1] - step[k-1]) (one-sided at the ends) over the finite points;
// the point of the most negative slope is the phase change, the earliest on ties. Fewer than 2
// finite points, or a curve that never falls: none.
#include <vector>

namespace fb {

class PhaseChange {
public:
    // steps ascending, repeatLoss of the same length (NaN where unknown). Returns the step, or -1.
    static int step(const std::vector<int> &steps, const std::vector<double> &repeatLoss);
};

} // namespace fb
