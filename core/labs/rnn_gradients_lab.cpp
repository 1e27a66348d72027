#include "core/labs/rnn_gradients_lab.h"

#include "core/depth/depth_json.h"

namespace fb {

namespace {

// The depth lab's values with the time study in focus.
ParamValues asDepthValues(const ParamValues &values)
{
    ParamValues v = values;
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
        std::erase_if(s.params, [](const ParamSpec &p) { return p.key == "study"; });
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
