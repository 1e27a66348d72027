#pragma once
// Lab: RoPE's offset invariance (Figure 218.1, left, of 000_031aadcae6604a46.txt). One fixed content
// pair (q, k) slides along the sequence at a fixed offset: the RoPE logit stays on its value at
// position 0, the additive-sinusoidal logit wanders.
#include "core/run/budget.h"
#include "core/lab/lab.h"
#include "core/rope/rope_invariance.h"

namespace fb {

struct RopeInvarianceLabResult {
    RopeInvarianceParams params;
    RopeInvarianceResult figures;     // both logit curves, the reference, deviations, the drift
    double relativeDeviation = 0.0;   // maxDeviation / |referenceLogit|
};

class RopeInvarianceLab {
public:
    using Result = RopeInvarianceLabResult;
    // d, base, offset, positions, seed
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // also the budget of core/run/budget.h
    static Cost cost(const ParamValues &values);           // of checked values
    static RopeInvarianceParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const RopeInvarianceLabResult &r);

} // namespace fb
