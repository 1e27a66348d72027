#include "core/transformer/transformer_json.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fb {

double bestInductionScore(const TransformerResult &r)
{
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const auto &layer : r.inductionScore)
        for (double s : layer)
            if (std::isfinite(s) && !(best >= s)) best = s;
    return best;
}

void writeHeldoutCurve(JsonWriter &json, const std::vector<TransformerResult::HeldoutPoint> &curve)
{
    json.key("heldout_curve").beginArray();
    for (const auto &p : curve)
        json.beginObject()
            .field("step", p.step)
            .field("loss", p.loss)
            .field("second_half_loss", p.secondHalfLoss)
            .field("accuracy", p.accuracy)
            .field("train_accuracy", p.trainAccuracy)
            .endObject();
    json.endArray();
}

void writeRecallByPairs(JsonWriter &json, const std::vector<TransformerResult::RecallPoint> &points)
{
    json.key("recall_by_pairs").beginArray();
    for (const auto &p : points) json.beginObject().field("pairs", p.pairs).field("accuracy", p.accuracy).endObject();
    json.endArray();
}

void writeTransformerJson(JsonWriter &json, const TransformerConfig &c, const TransformerResult &r)
{
    json.beginObject().field("model", "transformer");
    json.key("config").beginObject()
        .field("task", transformerTaskName(c.task))
        .field("vocab", c.vocab)
        .field("buckets", c.buckets)
        .field("items", c.items)
        .field("pairs", c.pairs)
        .field("pairs_min", c.pairsMin)
        .field("p", c.modulus)
        .field("train_fraction", c.trainFraction)
        .field("seq_len", c.seqLen)
        .field("batch", c.batch)
        .field("layers", c.layers)
        .field("heads", c.heads)
        .field("d_model", c.dModel)
        .field("pos", positionalSchemeName(c.pos))
        .field("window", c.window)
        .field("kv_heads", c.kvHeads > 0 ? c.kvHeads : c.heads)
        .field("norm", c.rmsNorm ? "rmsnorm" : "layernorm")
        .field("qk_norm", c.qkNorm ? "on" : "off")
        .field("attn_gate", c.attnGate ? "on" : "off")
        .field("loop", c.loop)
        .field("mixer", c.mixer)
        .field("short_conv", c.shortConv)
        .field("base", c.base)
        .field("embed_scale", c.embedScale)
        .field("scaling", scalingMethodName(c.scaling))
        .field("factor", c.factor)
        .field("feedback", feedbackModeName(c.feedback))
        .field("passes", c.passes)
        .field("lr", c.lr)
        .field("weight_decay", c.weightDecay)
        .field("steps", c.steps)
        .field("seed", double(c.seed))
        .field("clip", c.clip)
        .field("threads", c.threads)
        .endObject();
    json.field("params", r.params).field("vocab", r.vocab).field("curve", r.curve).field("best_step", r.bestStep);
    writeHeldoutCurve(json, r.heldoutCurve);
    json.field("heldout_loss", r.heldoutLoss)
        .field("second_half_loss", r.secondHalfLoss)
        .field("first_half_loss", r.firstHalfLoss)
        .field("exact_heldout_loss", r.exactHeldoutLoss)
        .field("accuracy", r.accuracy)
        .field("train_accuracy", r.trainAccuracy);
    writeRecallByPairs(json, r.recallByPairs);
    // the bytes each layer keeps per sequence at inference, at the evaluated length T: the KV cache
    // of softmax attention, the fixed state of a linear mixer
    std::vector<double> stateBytes;
    for (int l = 0; l < c.layers; ++l) stateBytes.push_back(transformerStateBytes(c, l, c.seqLen));
    json.field("state_bytes", stateBytes);
    json.key("induction_score").beginArray();
    for (const auto &layer : r.inductionScore) json.value(layer);
    json.endArray();
    json.field("best_induction_score", bestInductionScore(r));
    json.key("length_generalisation").beginArray();
    for (const LengthRow &row : r.lengths)
        json.beginObject()
            .field("label", row.label)
            .field("lengths", row.lengths)
            .field("loss", row.loss)
            .field("repeat_loss", row.repeatLoss)
            .endObject();
    json.endArray();
    json.key("extended").beginObject()
        .field("length", r.extendedLength)
        .field("scaling", scalingMethodName(c.scaling))
        .field("loss", r.extendedLoss)
        .endObject();
    // The trained model taken apart (core/interpret/transformer_anatomy.h), on the held-out set.
    auto grid = [&](const char *name, const std::vector<std::vector<double>> &g) {
        json.key(name).beginArray();
        for (const auto &row : g) json.value(row);
        json.endArray();
    };
    grid("prev_token_score", r.prevTokenScore);
    json.field("sink_share", r.sinkShare);
    grid("sink_share_by_head", r.sinkShareByHead);
    json.field("ablation", r.meanAblation ? "mean" : "zero");
    grid("ablation_heldout_loss", r.ablationHeldoutLoss);
    if (!r.ablationSecondHalfLoss.empty()) grid("ablation_second_half_loss", r.ablationSecondHalfLoss);
    json.field("ablation_ffn_heldout_loss", r.ablationFfnHeldoutLoss);
    if (!r.ablationFfnSecondHalfLoss.empty()) json.field("ablation_ffn_second_half_loss", r.ablationFfnSecondHalfLoss);
    if (c.feedback != FeedbackMode::Off) {
        json.field("ablation_feedback_heldout_loss", r.ablationFeedbackHeldoutLoss);
        if (!r.ablationFfnSecondHalfLoss.empty())
            json.field("ablation_feedback_second_half_loss", r.ablationFeedbackSecondHalfLoss);
    }
    if (!r.heldoutInductionScore.empty()) grid("heldout_induction_score", r.heldoutInductionScore);
    grid("composition", r.composition);
    json.field("phase_change_step", r.phaseChangeStep >= 0 ? double(r.phaseChangeStep) : std::nan(""));  // null: none
    json.field("logit_lens", r.logitLens);
    if (!r.logitLensSecondHalf.empty()) json.field("logit_lens_second_half_loss", r.logitLensSecondHalf);
    grid("logit_lens_positions", r.logitLensPositions);
    json.key("offset_profile").beginArray();
    for (const auto &layer : r.offsetProfile) {
        json.beginArray();
        for (const auto &head : layer) json.value(head);
        json.endArray();
    }
    json.endArray();
    if (!r.offsetPairs.empty()) {
        json.key("offset_profile_pairs").beginArray();
        for (const auto &layer : r.offsetPairs) {
            json.beginArray();
            for (const auto &head : layer) {
                json.beginArray();
                for (const auto &pair : head) json.value(pair);
                json.endArray();
            }
            json.endArray();
        }
        json.endArray();
    }
    if (!r.ablated.heads.empty())
        json.key("ablated").beginObject()
            .field("heads", r.ablated.heads)
            .field("heldout_loss", r.ablated.heldoutLoss)
            .field("second_half_loss", r.ablated.secondHalfLoss)
            .endObject();
    json.field("anatomy_seconds", r.anatomySeconds);
    json.field("gate_mean", r.finalSnapshot.gateMean);
    // the characters themselves (JSON escapes only what JSON must)
    if (c.task == TransformerTask::Text) json.field("sample", r.finalSnapshot.sample);
    const double gflops = r.msPerStep > 0.0 ? r.flopsPerStep / (r.msPerStep * 1e6) : std::nan("");
    json.field("ms_per_step", r.msPerStep)
        .field("flops_per_step", r.flopsPerStep)
        .field("gflops", gflops)
        .field("steps_done", r.stepsDone)
        .field("seconds", r.seconds)
        .field("wall_seconds", r.wallSeconds)
        .field("status", trainStatusName(r.status))
        .field("message", r.message)
        .endObject();
}

} // namespace fb
