#pragma once
// Command-line lab: the KV cache of one sequence, from the encyclopedia page's formula
// (004_21534ea083b6ce9c.txt): 2 · layers · KV heads · head dim · bytes per value per token.
// The costs lab draws it for MHA, GQA and MQA.
#include "core/costs/costs.h"
#include "core/lab/lab.h"

namespace fb {

struct KvCacheLabResult {
    KvCacheParams params;
    KvCacheResult cache;
};

class KvCacheLab {
public:
    using Result = KvCacheLabResult;
    // layers, kv_heads, head_dim, tokens, bytes_per_value
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const KvCacheLabResult &r);

} // namespace fb
