#include "core/labs/decay_bound_lab.h"

#include "core/labs/common_params.h"
#include "core/attention/positional.h"

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

std::vector<double> wavelengthsOf(const Eigen::VectorXd &invFreq)
{
    const Eigen::VectorXd lambda = wavelengths(invFreq);
    return std::vector<double>(lambda.data(), lambda.data() + lambda.size());
}

std::string methodTitle(ScalingMethod m)
{
    switch (m) {
    case ScalingMethod::PI: return "PI";
    case ScalingMethod::NTK: return "NTK-aware";
    case ScalingMethod::YaRN: return "YaRN";
    case ScalingMethod::None: break;
    }
    return "none";
}

} // namespace

const LabSpec &DecayBoundLab::spec()
{
    static const LabSpec spec { "decay-bound", "RoPE decay bound", {
        params::ropeWidth(1024),
        params::ropeBase(),
        integerParam("max_distance", "max distance", "tokens", 1, params::kMaxDistance, 512,
                     "The bound is computed at every relative distance 1..max_distance.", true),
        params::scalingChoice("scaling", "frequency scaling",
                              "Context extension applied to the frequencies: none, position interpolation, NTK-aware or YaRN."),
        params::extensionFactor(),
        params::trainedLength(),
    }, "218.4.4, Figure 218.1 (right)",
        "How far RoPE's Abel-summation bound falls with distance, and how context extension moves it.",
        "218.4.4 Rotary position embeddings, Figure 218.1 (right)",
        /*trains*/ false, /*sweep*/ "base=100:1e6:log" };
    return spec;
}

std::string DecayBoundLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkBudget("decay-bound at d x max_distance", cost(values), "lower d or max_distance");
}

DecayBoundParams DecayBoundLab::params(const ParamValues &v)
{
    DecayBoundParams p;
    p.d = int(v.integer("d"));
    p.base = v.number("base");
    p.maxDistance = int(v.integer("max_distance"));
    p.extension.method = params::scalingOf(v.text("scaling"));
    p.extension.factor = v.number("factor");
    p.extension.trainedLength = v.number("trained_length");
    return p;
}

DecayBoundLabResult DecayBoundLab::compute(const ParamValues &values, const RunControl &stop)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    const DecayBoundParams &p = r.params;
    r.extended = p.extension.method != ScalingMethod::None;

    // The plain curve, at least to 512 for the chapter's marks (cut back to max_distance after).
    DecayBoundParams plain = p;
    plain.extension = ContextExtension {};
    plain.maxDistance = std::max(p.maxDistance, 512);
    DecayBoundResult curve = decayBound(plain);
    r.at1 = curve.bound[0];
    r.at64 = curve.bound[63];
    r.at512 = curve.bound[511];
    r.fall512 = r.at512 > 0 ? r.at1 / r.at512 : 0.0;
    curve.distance.resize(std::size_t(p.maxDistance));
    curve.bound.resize(std::size_t(p.maxDistance));
    r.distance = std::move(curve.distance);
    r.bound = std::move(curve.bound);
    r.atMax = r.bound.back();
    r.wavelength = wavelengthsOf(ropeInvFreq(p.d, p.base));

    const ScaledFrequencies sf = scaledFrequencies(p.d, p.base, p.extension);
    r.effectiveBase = sf.base;
    r.attentionFactor = sf.attentionFactor;
    if (r.extended && !stop.stopRequested()) {
        r.scaledBound = decayBound(p).bound;
        r.scaledWavelength = wavelengthsOf(sf.invFreq);
        r.extensionName = methodTitle(p.extension.method) + ", s = " + formatNumber(p.extension.factor);
    }
    return r;
}

void writeJson(JsonWriter &json, const DecayBoundLabResult &r)
{
    json.beginObject()
        .field("distance", r.distance)
        .field("bound", r.bound)
        .field("bound_at_1", r.at1)
        .field("bound_at_64", r.at64)
        .field("bound_at_512", r.at512)
        .field("fall_1_to_512", r.fall512)
        .field("wavelength", r.wavelength)
        .field("effective_base", r.effectiveBase)
        .field("attention_factor", r.attentionFactor);
    if (r.extended) json.field("scaled_bound", r.scaledBound).field("scaled_wavelength", r.scaledWavelength);
    json.endObject();
}


Cost DecayBoundLab::cost(const ParamValues &v)
{
    // S_j(t) for j = 1..d/2 at every distance t, plain and rescaled: a complex multiply-add each.
    const double pairs = double(v.integer("d")) / 2, distances = double(v.integer("max_distance"));
    return { 8.0 * 4.0 * distances + 16.0 * pairs * 4.0, 2.0 * 8.0 * pairs * distances };
}

} // namespace fb
