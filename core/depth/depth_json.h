#pragma once
// The depth lab's results as the command line prints them (sections 218.1 and 218.2):
//   depth study:  {"lab": "depth-gradients", "params", "loss", "layers": [0..L], "plain": [||dL/dx_l||...],
//                  "residual", "plain_weight_grad", "residual_weight_grad": [||dL/dW_l||], "identity_path": {...}}
//   time study:   {"lab": "rnn-gradients", "params", "loss", "steps": [0..T], "rnn", "lstm_cell",
//                  "lstm_hidden", "lstm_carousel", "rates": {...}}
//   classifier:   {"task": "lstm-vs-mean", "arms": [{"arm", "params", "accuracy", "heldout_accuracy",
//                  "heldout_loss", "heldout_majority", "curve", "seconds", "status", "message"}]}
#include "core/labs/depth_gradients_spec.h"
#include "core/io/json_writer.h"
#include "core/run/run_control.h"

#include <functional>
#include <vector>

namespace fb {

// values are checked depth-lab values (depthLabSpec() or a spec with the same keys).
void writeDepthGradientsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values);
void writeRnnGradientsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values);
// onStep (may be empty) is called after every step of each arm, as trainClassifier's.
void writeLstmVsMeanJson(JsonWriter &json, const ClassifierConfig &config, const std::vector<ClassifierArm> &arms,
                         const RunControl *stop = nullptr,
                         const std::function<void(const ClassifierProgress &)> &onStep = {});

// Every parameter of spec as one JSON object ("params").
void writeParamsJson(JsonWriter &json, const LabSpec &spec, const ParamValues &values);

} // namespace fb
