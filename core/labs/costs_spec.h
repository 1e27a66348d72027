#pragma once
// The Costs lab's parameters (encyclopedia page "Scaling relationships", "Memory: the KV cache",
// "Bandwidth, not arithmetic, often sets the speed limit") and its presets. The formulas
// themselves are in core/costs/costs.h.
#include "core/costs/costs.h"
#include "core/lab/param_spec.h"

#include <string>
#include <vector>

namespace fb {

struct CostsLabParams {
    double layers = 80;
    double dModel = 8192;
    double queryHeads = 64;
    double kvHeads = 8;             // GQA: query heads share each KV head in groups
    double headDim = 128;
    double context = 131072;        // tokens in one sequence
    double bytesPerValue = 2;       // KV cache values (16-bit: 2)
    double params = 70e9;           // N, for 6ND and the bytes of active weights
    double trainTokens = 15e12;     // D
    double bandwidth = 10e12;       // bytes per second, aggregate
    double weightBytes = 2;         // bytes per weight (16-bit: 2)

    // The KV cache of this configuration with the given number of KV heads and tokens.
    KvCacheParams kv(double heads, double tokens) const
    {
        return KvCacheParams { layers, heads, headDim, tokens, bytesPerValue };
    }
};

// layers, d_model, query_heads, kv_heads, head_dim, context, bytes_per_value, params (billions),
// train_tokens (billions), bandwidth_tbps, weight_bytes.
const LabSpec &costsLabSpec();

// Checks every value and the rule that kv_heads divides query_heads. Returns an empty string and
// fills out on success; otherwise a message naming the key and its valid range, out unchanged.
std::string costsLabFrom(const ParamValues &v, CostsLabParams &out);

// Every figure the lab prints, from the functions of core/costs/costs.h.
struct CostsLabFigures {
    KvCacheResult mha;             // KV heads = query heads
    KvCacheResult gqa;             // KV heads = kv_heads
    KvCacheResult mqa;             // one KV head
    double denseParams = 0;        // 12 L d^2
    double trainFlops = 0;         // 6 N D
    double attentionFlops = 0;     // 4 n d per token per layer at n = context
    double denseFlops = 0;         // 24 d^2 per token per layer
    double crossover = 0;          // n = 6 d
    double weightBytes = 0;        // N x bytes per weight
    double decodeTokensPerSecond = 0;  // bandwidth / weight bytes
};

CostsLabFigures costsLabFigures(const CostsLabParams &p);

struct CostsPreset {
    std::string name;    // shown in the preset box, e.g. "GPT-3 (175B)"
    std::string note;    // one sentence on where the numbers come from
    ParamValues values;  // a complete, valid set of costsLabSpec() values
};

// "GPT-3 (175B)", "70B-class, 8 KV heads" (the defaults), "Chapter's stack (L = 32, d = 4,096)".
const std::vector<CostsPreset> &costsPresets();

// Index in costsPresets() whose values equal v, or -1.
int costsPresetIndex(const ParamValues &v);

} // namespace fb
