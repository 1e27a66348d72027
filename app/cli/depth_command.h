#pragma once
// The depth lab on the command line (sections 218.1 and 218.2), one JSON object on stdout:
//   fullband compute depth-gradients [--set KEY=VALUE]...   per-layer gradient norms, plain vs residual
//   fullband compute rnn-gradients   [--set KEY=VALUE]...   per-step gradient norms, RNN vs LSTM
//   fullband train --set task=lstm-vs-mean [--set ...]      the chapter's LSTM vs mean-pooling cell
// Keys of compute: those of the "depth-gradients" lab (depthLabSpec(); study=time makes
// depth-gradients print the rnn-gradients object, study=classifier the train object). Keys of train:
// lstmVsMeanSpec(). Bad input: one line on stderr naming the key and its range, exit code 2.
#include "core/depth/lstm_classifier.h"
#include "core/lab/param_spec.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace fb {

// {"lab": "depth-gradients", "layers": [0..L], "plain": [||dL/dx_l||...], "residual": [...],
//  "plain_weight_grad", "residual_weight_grad": [||dL/dW_l||, l = 0..L-1], "identity_path": {...}}.
// values are the depth lab's; on bad values returns an empty object and sets *error.
QJsonObject depthGradientsJson(const ParamValues &values, QString *error = nullptr);

// {"lab": "rnn-gradients", "steps": [0..T], "rnn": [||dL/dh_k||...], "lstm_cell": [||dL/dc_k||...],
//  "lstm_hidden": [||dL/dh_k||...], "lstm_carousel": [...], "rates": {...}}.
QJsonObject rnnGradientsJson(const ParamValues &values, QString *error = nullptr);

// {"arms": [{"arm": "lstm"|"mean-pooling", "params", "accuracy", "heldout_accuracy", "heldout_loss",
//  "heldout_majority", "curve": [training loss per step], "seconds", "status", "message"}]}.
QJsonObject lstmVsMeanJson(const ClassifierConfig &config, const std::vector<ClassifierArm> &arms);

// `fullband compute LAB` for LAB = depth-gradients | rnn-gradients, sets = the --set values.
int runDepthCompute(const QString &lab, const QStringList &sets);

// `fullband train --set task=lstm-vs-mean ...`, sets = every --set value (task included).
int runLstmVsMeanTrain(const QStringList &sets);

} // namespace fb
