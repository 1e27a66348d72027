#pragma once
// The JSON of one transformer training, as `fullband train --set model=transformer` prints it:
// {"model": "transformer", "config": {...}, "params", "vocab", "curve", "best_step", "heldout_curve",
//  "heldout_loss", "second_half_loss", "first_half_loss", "exact_heldout_loss", "induction_score"
//  ([layer][head]), "best_induction_score", "length_generalisation" ([{label, lengths, loss,
//  repeat_loss}]), "extended", "gate_mean", "sample" (text task: the final weights' sample, after
//  the start of the held-out text), "ms_per_step", "flops_per_step", "gflops", "seconds",
//  "wall_seconds", "status", "message"}. Figures that do not apply (second-half loss outside the
// induction tasks ...) are null.
#include "core/io/json_writer.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_report.h"

namespace fb {

void writeTransformerJson(JsonWriter &json, const TransformerConfig &config, const TransformerResult &result);

// "heldout_curve": [{"step", "loss", "second_half_loss", "accuracy", "train_accuracy"}, ...], as the
// training's JSON and each row of a comparison's write it.
void writeHeldoutCurve(JsonWriter &json, const std::vector<TransformerResult::HeldoutPoint> &curve);
// "recall_by_pairs": [{"pairs", "accuracy"}, ...] (mqar; an empty array for the other tasks).
void writeRecallByPairs(JsonWriter &json, const std::vector<TransformerResult::RecallPoint> &points);

// The largest induction score over every layer and head (NaN when there are none).
double bestInductionScore(const TransformerResult &result);

} // namespace fb
