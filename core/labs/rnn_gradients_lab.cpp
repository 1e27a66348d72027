#include "core/labs/rnn_gradients_lab.h"

#include "core/depth/depth_json.h"

namespace fb {

namespace {

// The depth lab's values with the time study in focus (the residual block cell's keys at their defaults).
ParamValues asDepthValues(const ParamValues &values)
{
    ParamValues v = depthLabSpec().defaults();
    for (const auto &[key, number] : values.numbers) v.numbers[key] = number;
    for (const auto &[key, text] : values.texts) v.texts[key] = text;
    v.texts["study"] = "time";
    return v;
}

} // namespace

const LabSpec &RnnGradientsLab::spec()
{
    static const LabSpec spec = [] {
        LabSpec s = depthLabSpec();
        s.name = "rnn-gradients";
        s.title = "Gradients through time";
        s.source = "218.2";
        s.summary = "Gradient norms through time in an RNN and an LSTM, and the LSTM's constant error carousel.";
        s.section = "218.2 The RNN and LSTM era";
        std::erase_if(s.params, [](const ParamSpec &p) {
            return p.key == "study" || p.key == "blocks" || p.key == "branch_gain";
        });
        return s;
    }();
    return spec;
}

std::string RnnGradientsLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    DepthLabConfig c;
    return depthLabFrom(asDepthValues(values), c);
}

LabDefinition RnnGradientsLab::definition()
{
    LabDefinition d;
    d.spec = &RnnGradientsLab::spec;
    d.check = &RnnGradientsLab::check;
    d.computeJson = [](const ParamValues &values, const RunControl &, JsonWriter &json) {
        refuseUnless(check(values));
        writeRnnGradientsJson(json, spec(), asDepthValues(values));
    };
    return d;
}

} // namespace fb
