#include "core/compare/compare_json.h"

#include "core/transformer/transformer_json.h"

namespace fb {

void writeCompareJson(JsonWriter &json, const std::vector<CompareRow> &rows, int threads, double wallSeconds)
{
    json.beginObject().field("command", "compare");
    if (!rows.empty()) {
        const TransformerConfig &c = rows.front().config;
        json.field("task", transformerTaskName(c.task)).field("seed", double(c.seed));
    }
    json.field("threads", threads).field("wall_seconds", wallSeconds);
    json.key("rows").beginArray();
    for (const CompareRow &r : rows) {
        json.beginObject()
            .field("label", r.label)
            .field("overrides", r.overrides)
            .field("params", r.params)
            .field("flops_per_step", r.flopsPerStep)
            .field("kv_bytes_per_token", r.kv.bytesPerToken)
            .field("kv_cached_tokens", r.kv.cachedTokens)
            .field("kv_cache_bytes", r.kv.cacheBytes)
            .field("ms_per_step", r.msPerStep)
            .field("heldout_loss", r.heldoutLoss)
            .field("second_half_loss", r.secondHalfLoss)
            .field("accuracy", r.accuracy)
            .field("sink_share", r.sinkShare);
        json.key("sink_share_by_head").beginArray();
        for (const auto &layer : r.sinkShareByHead) json.value(layer);
        json.endArray();
        writeHeldoutCurve(json, r.heldoutCurve);
        writeRecallByPairs(json, r.recallByPairs);
        json.field("steps", r.config.steps)
            .field("steps_done", r.stepsDone)
            .field("status", trainStatusName(r.status))
            .field("message", r.message)
            .endObject();
    }
    json.endArray().endObject();
}

} // namespace fb
