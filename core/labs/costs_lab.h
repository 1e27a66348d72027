#pragma once
// Lab: the encyclopedia page's cost formulas (004_21534ea083b6ce9c.txt): the KV cache of MHA, GQA and
// MQA, 12·L·d² parameters, C ≈ 6ND, attention against dense compute per token and the decode
// bandwidth ceiling. Parameters, presets and figures: core/labs/costs_spec.h; formulas: core/costs/costs.h.
#include "core/labs/costs_spec.h"
#include "core/lab/lab.h"

#include <array>
#include <vector>

namespace fb {

struct CostsLabResult {
    CostsLabParams params;
    CostsLabFigures figures;
    double attentionOverDense = 0;          // attention / dense FLOPs at the chosen context
    std::vector<double> contexts;           // 121 log-spaced context lengths, holding n and 6d
    std::array<std::vector<double>, 3> kvBytes;  // KV cache at each context: MHA, GQA, MQA
    std::vector<double> attentionFlops;     // 4 n d per token per layer at each context
    double denseFlops = 0;                  // 24 d^2 per token per layer (flat)
};

class CostsLab {
public:
    using Result = CostsLabResult;
    static const LabSpec &spec();  // costsLabSpec()
    static std::string check(const ParamValues &values);  // kv_heads divides query_heads too
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const CostsLabResult &r);

} // namespace fb
