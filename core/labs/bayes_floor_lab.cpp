#include "core/labs/bayes_floor_lab.h"

#include "core/labs/common_params.h"

namespace fb {

const LabSpec &BayesFloorLab::spec()
{
    static const LabSpec spec { "bayes-floor", "Token-only Bayes floor", {
        integerParam("buckets", "buckets V_b", "", 2, 1024, 4, "Buckets of the toy phase accumulator's emitted token."),
        integerParam("samples", "Monte Carlo samples", "", 1, 1e7, 400000, "Draws of u ~ U(0,1) for the estimate.", true),
        params::seed(0, "Seed of the Monte Carlo draws."),
    }, "218.6.5", "The floor a token-only loop cannot pass: 1/2 nat, and its Monte Carlo estimate.",
        "218.6.5 The token-only Bayes floor" };
    return spec;
}

std::string BayesFloorLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkBudget("bayes-floor at these samples", cost(values), "lower samples");
}

BayesFloorLabResult BayesFloorLab::compute(const ParamValues &v, const RunControl &)
{
    refuseUnless(check(v));
    Result r;
    r.params.buckets = int(v.integer("buckets"));
    r.params.samples = v.integer("samples");
    r.params.seed = std::uint64_t(v.integer("seed"));
    r.floor = bayesFloor(r.params);
    return r;
}

void writeJson(JsonWriter &json, const BayesFloorLabResult &r)
{
    json.beginObject().field("analytic", r.floor.analytic).field("monte_carlo", r.floor.monteCarlo).endObject();
}


Cost BayesFloorLab::cost(const ParamValues &v)
{
    // One draw, its bucket and an entropy term per sample; nothing kept.
    return { 8.0 * double(v.integer("buckets")), 20.0 * double(v.integer("samples")) };
}

} // namespace fb
