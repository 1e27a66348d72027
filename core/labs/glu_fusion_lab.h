#pragma once
// Lab: the gated fusion of section 218.6.2 of 000_031aadcae6604a46.txt (core/cells/glu_fusion.h),
// x_{t+1} = (W_a u) * sigmoid(W_b u), u = [e ; h], with the h columns of W_a and W_b scaled by alpha:
// the feedback channel opened continuously from the standard decoder (alpha = 0) to the chapter's
// cell (alpha = 1). The chapter prints
//   mean gate value 0.495, fraction of gates above 0.5: 0.493
//   with the h columns zeroed, sensitivity to h_t: 0.0e+00
// The lab keeps the cell's draws between calls and draws again only when a width, the batch or the
// seed changes: a change of alpha, layers or bins costs one elementwise pass over batch x d_model.
#include "core/cells/glu_fusion.h"
#include "core/lab/lab.h"

#include <memory>
#include <string>
#include <vector>

namespace fb {

struct GluFusionLabResult {
    GluFusionParams params;
    GluFusionResult fusion;          // everything at params.alpha, the curve over alpha, the overhead
    double sensitivityZeroed = 0.0;  // the sensitivity with the h columns zeroed (alpha = 0): exactly 0
    int gateCount = 0;               // batch x d_model
    std::vector<std::string> printed;  // the cell's four lines, as the chapter prints them (at alpha)
};

class GluFusionLab {
public:
    using Result = GluFusionLabResult;
    // The sensitivity curve's points over alpha in [0, 1].
    static constexpr int kCurvePoints = 101;
    // d_model, d_emb, batch, seed, alpha, layers, bins
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);
    static GluFusionParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
    // How many times the lab drew W_a, W_b, e, h and h' (tests: alpha alone never draws again).
    int draws() const { return draws_; }

private:
    std::unique_ptr<GluFusion> fusion_;
    int draws_ = 0;
};

void writeJson(JsonWriter &json, const GluFusionLabResult &r);

} // namespace fb
