#pragma once
// Command-line lab: the token-only Bayes floor of the toy phase accumulator (218.6.5 of
// 000_031aadcae6604a46.txt), analytic 1/2 nat and the chapter's Monte Carlo estimate.
#include "core/channel/bayes_floor.h"
#include "core/run/budget.h"
#include "core/lab/lab.h"

namespace fb {

struct BayesFloorLabResult {
    BayesFloorParams params;
    BayesFloorResult floor;
};

class BayesFloorLab {
public:
    using Result = BayesFloorLabResult;
    // buckets, samples, seed
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // also the budget of core/run/budget.h
    static Cost cost(const ParamValues &values);           // of checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const BayesFloorLabResult &r);

} // namespace fb
