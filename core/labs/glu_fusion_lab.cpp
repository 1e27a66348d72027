#include "core/labs/glu_fusion_lab.h"

#include "core/labs/common_params.h"
#include "core/labs/printed.h"

namespace fb {

namespace {

std::string shapeText(int rows, int cols)
{
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

std::vector<std::string> printedLines(const GluFusionLabResult &r)
{
    const GluFusionParams &p = r.params;
    return { "token embedding " + shapeText(p.batch, p.dEmb) + " and hidden state " + shapeText(p.batch, p.dModel),
             "fused next input " + shapeText(p.batch, p.dModel) + ", the shape the stack always consumed",
             "mean gate value " + printedFixed(r.fusion.meanGate, 3) + ", fraction of gates above 0.5: "
                 + printedFixed(r.fusion.fractionOpen, 3),
             "with the h columns zeroed, sensitivity to h_t: " + printedScientific(r.sensitivityZeroed, 1) };
}

} // namespace

const LabSpec &GluFusionLab::spec()
{
    static const LabSpec spec { "glu-fusion", "Gated fusion", {
        integerParam("d_model", "model width d", "", 1, 2048, 512,
                     "Width of the previous top-layer state hₜ and of the fused input xₜ₊₁ (the chapter: 512).", true),
        integerParam("d_emb", "embedding width d_e", "", 1, 2048, 512,
                     "Width of the sampled token's embedding e (the chapter: 512).", true),
        integerParam("batch", "batch", "rows", 1, 64, 4, "Rows of e and h drawn (the chapter: 4)."),
        params::seed(3, "torch.manual_seed(seed) before W_a, W_b, e, h and h' are drawn (the chapter: 3)."),
        realParam("alpha", "feedback opening α", "", 0, 1, 1,
                  "Scale of the h columns of W_a and W_b: 0 is the standard decoder (the chapter's zeroed "
                  "columns), 1 the chapter's full fusion; the channel opens continuously in between."),
        integerParam("layers", "layers L", "", 1, 1024, 32,
                     "Transformer layers of the stack the overhead is measured against (the chapter: 32).", true),
        integerParam("bins", "histogram bins", "", 2, 200, 40, "Bins of the gate histogram over (0, 1)."),
    }, "218.6.2",
        "The gated fusion xₜ₊₁ = (W_a u) ⊙ σ(W_b u) of the token embedding and hₜ, its gates, its "
        "sensitivity to hₜ as the channel opens, and its cost against the stack's.",
        "218.6.2 The gated fusion" };
    return spec;
}

GluFusionParams GluFusionLab::params(const ParamValues &v)
{
    GluFusionParams p;
    p.dModel = int(v.integer("d_model"));
    p.dEmb = int(v.integer("d_emb"));
    p.batch = int(v.integer("batch"));
    p.seed = std::uint64_t(v.integer("seed"));
    p.alpha = v.number("alpha");
    p.layers = int(v.integer("layers"));
    p.bins = int(v.integer("bins"));
    p.curvePoints = kCurvePoints;
    return p;
}

std::string GluFusionLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkGluFusionParams(params(values));
}

GluFusionLabResult GluFusionLab::compute(const ParamValues &values, const RunControl &stop)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    if (!fusion_ || !fusion_->sameDraws(r.params)) {
        fusion_.reset();  // the old draws' memory goes before the new ones are made
        fusion_ = std::make_unique<GluFusion>(r.params);
        ++draws_;
    }
    if (stop.stopRequested()) return r;
    r.fusion = fusion_->at(r.params);
    r.sensitivityZeroed = fusion_->sensitivity(0.0);
    r.gateCount = r.params.batch * r.params.dModel;
    r.printed = printedLines(r);
    return r;
}

void writeJson(JsonWriter &json, const GluFusionLabResult &r)
{
    const GluFusionResult &f = r.fusion;
    const GluFusionOverhead &o = f.overhead;
    json.beginObject()
        .field("alpha", f.alpha)
        .field("mean_gate", f.meanGate)
        .field("fraction_open", f.fractionOpen)
        .field("gates_open", f.gatesOpen)
        .field("gate_count", r.gateCount)
        .field("sensitivity", f.sensitivity)
        .field("sensitivity_h_zeroed", r.sensitivityZeroed)
        .field("next_input_shape", std::vector<int> { r.params.batch, r.params.dModel })
        .field("gate_histogram", f.gateHistogram)
        .field("curve_alpha", f.curveAlpha)
        .field("curve_sensitivity", f.curveSensitivity);
    json.key("overhead")
        .beginObject()
        .field("fusion_params", o.fusionParams)
        .field("fusion_flops", o.fusionFlops)
        .field("stack_params", o.stackParams)
        .field("stack_flops", o.stackFlops)
        .field("param_ratio", o.paramRatio)
        .field("flop_ratio", o.flopRatio)
        .endObject();
    json.field("printed", r.printed).endObject();
}

} // namespace fb
