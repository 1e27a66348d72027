#include "core/labs/rope_invariance_lab.h"

#include "core/labs/common_params.h"

#include <cmath>

namespace fb {

const LabSpec &RopeInvarianceLab::spec()
{
    static const LabSpec spec { "rope-invariance", "RoPE invariance", {
        params::ropeWidth(4096),
        params::ropeBase(),
        integerParam("offset", "key offset", "tokens", -params::kMaxDistance, params::kMaxDistance, 8,
                     "Key position minus query position, held fixed as the pair slides."),
        integerParam("positions", "query positions", "tokens", 1, params::kMaxDistance, 256,
                     "Query positions m = 0..positions-1 swept with the key at m + offset.", true),
        params::seed(0, "Seed of the content pair q, k ~ N(0, I), drawn as torch.manual_seed(seed); torch.randn(d) twice (0 is the chapter's)."),
    }, "218.4.4, Figure 218.1 (left)",
        "A fixed pair slid along the sequence: RoPE's logit does not move, the additive sinusoidal one wanders.",
        "218.4.4 Rotary position embeddings, Figure 218.1 (left)" };
    return spec;
}

std::string RopeInvarianceLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkBudget("rope-invariance at d x positions", cost(values), "lower d or positions");
}

RopeInvarianceParams RopeInvarianceLab::params(const ParamValues &v)
{
    RopeInvarianceParams p;
    p.d = int(v.integer("d"));
    p.base = v.number("base");
    p.offset = int(v.integer("offset"));
    p.positions = int(v.integer("positions"));
    p.seed = std::uint64_t(v.integer("seed"));
    return p;
}

RopeInvarianceLabResult RopeInvarianceLab::compute(const ParamValues &values, const RunControl &)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    r.figures = ropeInvariance(r.params);
    const double ref = std::fabs(r.figures.referenceLogit);
    r.relativeDeviation = ref > 0.0 ? r.figures.maxDeviation / ref : 0.0;
    return r;
}

void writeJson(JsonWriter &json, const RopeInvarianceLabResult &r)
{
    const RopeInvarianceResult &f = r.figures;
    json.beginObject()
        .field("reference_logit", f.referenceLogit)
        .field("max_deviation", f.maxDeviation)
        .field("max_deviation_float32", f.maxDeviationFloat32)
        .field("relative_deviation", r.relativeDeviation)
        .field("sinusoidal_min", f.sinusoidalMin)
        .field("sinusoidal_max", f.sinusoidalMax)
        .field("sinusoidal_spread", f.sinusoidalSpread())
        .field("rope_logits", f.ropeLogits)
        .field("sinusoidal_logits", f.sinusoidalLogits)
        .endObject();
}


Cost RopeInvarianceLab::cost(const ParamValues &v)
{
    // Two logits (RoPE and sinusoidal, double and float) of width d at every position.
    const double d = double(v.integer("d")), positions = double(v.integer("positions"));
    return { 8.0 * 6.0 * positions + 8.0 * 4.0 * d, 4.0 * 8.0 * d * positions };
}

} // namespace fb
