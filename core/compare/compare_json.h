#pragma once
// The JSON of a comparison, as `fullband compare` prints it:
// {"command": "compare", "task", "seed", "steps", "threads", "wall_seconds", "rows": [{"label",
//  "overrides", "params", "flops_per_step", "kv_bytes_per_token", "kv_cached_tokens", "kv_cache_bytes",
//  "ms_per_step", "heldout_loss", "accuracy", "sink_share", "sink_share_by_head", "heldout_curve"
//  ([{step, loss, accuracy}]), "steps_done", "status", "message"}]}. NaN figures are null.
#include "core/compare/compare_run.h"
#include "core/io/json_writer.h"

#include <vector>

namespace fb {

void writeCompareJson(JsonWriter &json, const std::vector<CompareRow> &rows, int threads, double wallSeconds);

} // namespace fb
