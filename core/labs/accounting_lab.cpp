#include "core/labs/accounting_lab.h"

#include <algorithm>

namespace fb {

const LabSpec &AccountingLab::spec()
{
    static const LabSpec spec { "accounting", "Compute accounting", {
        integerParam("layers", "layers L", "", 1, 1000, 32, "Transformer layers; the GLU's overheads fall as 1/L."),
        realParam("phi", "latent phase fraction phi", "", 0, 1, 0.2,
                  "Fraction of pretraining run with latent feedback on (the last part of the run)."),
        realParam("rho", "deep batch fraction rho", "", 0, 1, 0.1,
                  "Fraction of latent-phase batches that use the deeper feedback pass."),
        realParam("data_ratio", "baseline data ratio", "", 1, 100, 1.5,
                  "How many times more tokens the baseline needs to match the full-bandwidth model."),
        integerParam("passes", "passes k", "", 1, 64, 2, "Feedback passes of most latent-phase batches."),
        integerParam("deep_passes", "deep passes k'", "", 1, 64, 3, "Feedback passes of the rho fraction of batches."),
        choiceParam("sweep", "chart: saving against", { "layers", "phi" }, "layers",
                    "Sweep the number of layers L (1 to 128) or the latent-phase fraction phi (0 to 1)"),
    }, "218.6.4, Part C of 218.6.5",
        "What latent feedback costs: parameter and decode overheads, k-pass multipliers, compute saved.",
        "218.6.4 The cost of a k-pass objective" };
    return spec;
}

std::string AccountingLab::check(const ParamValues &values)
{
    return checkAll(spec(), values);
}

AccountingParams AccountingLab::params(const ParamValues &v)
{
    AccountingParams p;
    p.layers = int(v.integer("layers"));
    p.phi = v.number("phi");
    p.rho = v.number("rho");
    p.dataRatio = v.number("data_ratio");
    p.passes = int(v.integer("passes"));
    p.deepPasses = int(v.integer("deep_passes"));
    return p;
}

AccountingLabResult AccountingLab::compute(const ParamValues &values, const RunControl &)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    const AccountingParams &p = r.params;
    r.sweep = values.text("sweep") == "phi" ? AccountingSweep::Phi : AccountingSweep::Layers;
    r.figures = accounting(p);
    r.passK = passMultiplier(p.passes);
    r.passDeep = passMultiplier(p.deepPasses);
    r.nominalSaving = 1.0 - 1.0 / p.dataRatio;
    AccountingParams q = p;
    if (r.sweep == AccountingSweep::Layers) {
        for (int layers = 1; layers <= std::max(128, p.layers); ++layers) {
            q.layers = layers;
            r.sweepX.push_back(layers);
            r.sweepSaving.push_back(accounting(q).saving);
        }
    } else {
        const int n = 200;
        for (int i = 0; i <= n; ++i) {
            q.phi = double(i) / n;
            r.sweepX.push_back(q.phi);
            r.sweepSaving.push_back(accounting(q).saving);
        }
    }
    return r;
}

void writeJson(JsonWriter &json, const AccountingLabResult &r)
{
    const AccountingResult &f = r.figures;
    json.beginObject()
        .field("param_overhead", f.paramOverhead)
        .field("decode_overhead", f.decodeOverhead)
        .field("phase_multiplier", f.phaseMultiplier)
        .field("run_multiplier", f.runMultiplier)
        .field("total_multiplier", f.totalMultiplier)
        .field("saving", f.saving)
        .field("pass_multiplier", r.passK)
        .field("deep_pass_multiplier", r.passDeep)
        .field("nominal_saving", r.nominalSaving)
        .field("sweep", r.sweep == AccountingSweep::Phi ? "phi" : "layers")
        .field("sweep_x", r.sweepX)
        .field("sweep_saving", r.sweepSaving)
        .endObject();
}

} // namespace fb
