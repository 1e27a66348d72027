#include "core/labs/context_extension_lab.h"

#include "core/labs/common_params.h"

namespace fb {

const LabSpec &ContextExtensionLab::spec()
{
    static const LabSpec spec { "context-extension", "RoPE context extension", {
        params::ropeWidth(1024),
        params::ropeBase(),
        params::scalingChoice("method", "scaling method",
                              "none, position interpolation (theta/s), NTK-aware base change or YaRN's by-parts ramp."),
        params::extensionFactor(),
        params::trainedLength(),
    }, "218.4.4", "RoPE's inverse frequencies under PI, NTK-aware or YaRN rescaling.",
        "218.4.4 Rotary position embeddings: context extension" };
    return spec;
}

std::string ContextExtensionLab::check(const ParamValues &values)
{
    return checkAll(spec(), values);
}

ContextExtensionLabResult ContextExtensionLab::compute(const ParamValues &v, const RunControl &)
{
    refuseUnless(check(v));
    Result r;
    r.d = int(v.integer("d"));
    r.base = v.number("base");
    r.extension.method = params::scalingOf(v.text("method"));
    r.extension.factor = v.number("factor");
    r.extension.trainedLength = v.number("trained_length");
    r.frequencies = scaledFrequencies(r.d, r.base, r.extension);
    return r;
}

void writeJson(JsonWriter &json, const ContextExtensionLabResult &r)
{
    json.beginObject()
        .field("base", r.frequencies.base)
        .field("inv_freq", r.frequencies.invFreq)
        .field("attention_factor", r.frequencies.attentionFactor)
        .endObject();
}

} // namespace fb
