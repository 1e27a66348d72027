#pragma once
// The phase change of an induction run (Olsson et al. 2022): the point of the held-out curve where
// the repeat loss falls fastest. Its slope at an inner point k is the central difference
// (r[k+1] - r[k-1]) / (step[k+1] - step[k-1]) over the finite points; the inner point of the most
// negative slope is the phase change, the earliest on ties. The first point (usually step 0, the
// initialisation) and the last are never it: a fall in the first interval shows at the second
// point. Two finite points: the second, if the loss fell. The resolution is the curve's spacing
// (eval_every). Fewer finite points, or a curve that never falls: none.
#include <vector>

namespace fb {

class PhaseChange {
public:
    // steps ascending, repeatLoss of the same length (NaN where unknown). Returns the step, or -1.
    static int step(const std::vector<int> &steps, const std::vector<double> &repeatLoss);
};

} // namespace fb
