#include "core/depth/depth_json.h"

#include <stdexcept>

namespace fb {

namespace {

std::vector<double> indices(std::size_t n)
{
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = double(i);
    return v;
}

DepthLabConfig config(const ParamValues &values)
{
    DepthLabConfig c;
    if (const std::string err = depthLabFrom(values, c); !err.empty()) throw std::invalid_argument(err);
    return c;
}

} // namespace

void writeParamsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values)
{
    json.beginObject();
    for (const ParamSpec &p : spec.params) {
        if (p.kind == ParamKind::Choice || p.kind == ParamKind::Text) json.field(p.key, values.text(p.key));
        else json.field(p.key, values.number(p.key));
    }
    json.endObject();
}

void writeDepthGradientsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values)
{
    const DepthLabConfig c = config(values);
    const DepthGradients r = depthGradients(c.stack);
    json.beginObject().field("lab", "depth-gradients").key("params");
    writeParamsJson(json, spec, values);
    json.field("loss", "sum of the outputs x_L over units and a batch of " + std::to_string(c.stack.batch))
        .field("layers", indices(r.plain.gradNorm.size()))
        .field("plain", r.plain.gradNorm)
        .field("residual", r.residual.gradNorm)
        .field("plain_weight_grad", r.plain.weightGradNorm)
        .field("residual_weight_grad", r.residual.weightGradNorm)
        .key("identity_path")
        .beginObject()
        .field("plain_ratio", r.plainRatio)
        .field("residual_ratio", r.residualRatio)
        .field("plain_factor_measured", r.plainFactorMeasured)
        .field("plain_factor_predicted", r.plainFactorPredicted)
        .field("residual_factor_measured", r.residualFactorMeasured)
        .field("residual_factor_predicted", r.residualFactorPredicted)
        .field("residual_jacobian_rms", r.residualJacobianRms)
        .endObject()
        .endObject();
}

void writeRnnGradientsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values)
{
    const DepthLabConfig c = config(values);
    const TimeGradients r = timeGradients(c.time);
    json.beginObject().field("lab", "rnn-gradients").key("params");
    writeParamsJson(json, spec, values);
    json.field("loss", "sum of h_T over units and a batch of " + std::to_string(c.time.batch))
        .field("steps", indices(r.rnn.size()))
        .field("rnn", r.rnn)
        .field("lstm_cell", r.lstmCell)
        .field("lstm_hidden", r.lstmHidden)
        .field("lstm_carousel", r.lstmCarousel)
        .key("rates")
        .beginObject()
        .field("rnn_rate", r.rnnRate)
        .field("rnn_predicted_rate", r.rnnPredictedRate)
        .field("rnn_mean_tanh_derivative", r.rnnMeanDeriv)
        .field("rnn_ratio", r.rnnRatio)
        .field("lstm_cell_rate", r.lstmCellRate)
        .field("lstm_cell_ratio", r.lstmCellRatio)
        .field("lstm_hidden_ratio", r.lstmHiddenRatio)
        .field("lstm_carousel_ratio", r.lstmCarouselRatio)
        .field("lstm_mean_forget", r.meanForget)
        .endObject()
        .endObject();
}

void writeLstmVsMeanJson(JsonWriter &json, const ClassifierConfig &config, const std::vector<ClassifierArm> &arms,
                         const RunControl *stop, const std::function<void(const ClassifierProgress &)> &onStep)
{
    json.beginObject().field("task", "lstm-vs-mean").key("arms").beginArray();
    for (ClassifierArm arm : arms) {
        const ClassifierResult r = trainClassifier(config, arm, onStep, stop);
        json.beginObject()
            .field("arm", classifierArmName(r.arm))
            .field("params", double(r.params))
            .field("accuracy", r.accuracy)
            .field("heldout_accuracy", r.heldoutAccuracy)
            .field("heldout_loss", r.heldoutLoss)
            .field("heldout_majority", r.heldoutMajority)
            .field("curve", r.curve)
            .field("seconds", r.seconds)
            .field("status", classifierStatusName(r.status))
            .field("message", r.message)
            .endObject();
    }
    json.endArray().endObject();
}

} // namespace fb
