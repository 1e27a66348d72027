#pragma once
// Figure 218.1, left: the RoPE logit for one fixed content pair (q, k) as both slide along the
// sequence at a fixed offset, against the additive-sinusoidal logit (q + PE(m)) . (k + PE(m + offset)).
#include "core/rope/context_extension.h"

#include <cstdint>
#include <vector>

namespace fb {

struct RopeInvarianceParams {
    int d = 64;              // head width, even
    double base = 10000.0;   // RoPE and sinusoidal base b
    int offset = 8;          // key position minus query position
    int positions = 256;     // query positions m = 0..positions-1
    std::uint64_t seed = 0;  // q, k ~ N(0, I) as torch.manual_seed(seed); torch.randn(d) twice (seed 0: the chapter's)
    ContextExtension extension;  // rescaled RoPE frequencies (sinusoidal keeps plain ones)
};

struct RopeInvarianceResult {
    std::vector<double> ropeLogits;        // [positions]
    std::vector<double> sinusoidalLogits;  // [positions]
    double referenceLogit = 0.0;           // RoPE logit at (0, offset)
    double maxDeviation = 0.0;             // max |ropeLogits[m] - referenceLogit|, in double
    double maxDeviationFloat32 = 0.0;      // the same after rounding to float32, as the chapter's cell measures it
    double sinusoidalMin = 0.0, sinusoidalMax = 0.0;
    double sinusoidalSpread() const { return sinusoidalMax - sinusoidalMin; }
};

// q then k drawn from Rng(seed); for m = 0..positions-1 the RoPE logit (R_m q).(R_{m+offset} k) on the
// (possibly rescaled) frequencies and the additive logit with the plain base. Rotations use cos/sin of
// exact angles, so maxDeviation stays near 1e-15 |referenceLogit| out to 65,536 positions.
RopeInvarianceResult ropeInvariance(const RopeInvarianceParams &p);

} // namespace fb
