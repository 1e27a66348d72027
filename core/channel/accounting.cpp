#include "core/channel/accounting.h"

namespace fb {

double passMultiplier(int k)
{
    // C_k = (k - 1) F without gradients + 3 F for the final pass with backward: (k + 2) F, over 3 F.
    return (double(k) + 2.0) / 3.0;
}

AccountingResult accounting(const AccountingParams &p)
{
    AccountingResult r;
    const double L = p.layers;
    // Two GLU matrices, 2 (d x 2d) = 4 d^2, against 12 d^2 per layer.
    r.paramOverhead = 4.0 / (12.0 * L);
    // Fusion 2 x 4 d^2 = 8 d^2 FLOPs against 2 x 12 d^2 L for a decode step.
    r.decodeOverhead = 1.0 / (3.0 * L);
    r.phaseMultiplier = (1.0 - p.rho) * passMultiplier(p.passes) + p.rho * passMultiplier(p.deepPasses);
    r.runMultiplier = (1.0 - p.phi) + p.phi * r.phaseMultiplier;
    r.totalMultiplier = r.runMultiplier * (1.0 + r.paramOverhead);
    // Compute 6 N D x total against the baseline's 6 N (ratio x D).
    r.saving = 1.0 - r.totalMultiplier / p.dataRatio;
    return r;
}

} // namespace fb
