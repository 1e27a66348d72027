#include "core/labs/kv_cache_lab.h"

namespace fb {

const LabSpec &KvCacheLab::spec()
{
    static const LabSpec spec { "kv-cache", "KV cache size", {
        integerParam("layers", "layers", "", 1, 1000, 80, "Transformer layers, each caching its own keys and values."),
        integerParam("kv_heads", "KV heads", "", 1, 1024, 8, "Key/value heads per layer (fewer than query heads under GQA/MQA)."),
        integerParam("head_dim", "head dimension", "", 1, 16384, 128, "Width of one key or value head."),
        integerParam("tokens", "context length", "tokens", 1, 1e9, 131072, "Tokens held in the cache.", true),
        realParam("bytes_per_value", "bytes per value", "bytes", 0.125, 16, 2,
                  "Storage per cached number: 2 for 16-bit, 1 for 8-bit, 0.5 for 4-bit."),
    }, "the encyclopedia page on the Transformer", "Bytes of keys and values cached per token and per sequence.",
        "The encyclopedia page on the Transformer: the KV cache" };
    return spec;
}

std::string KvCacheLab::check(const ParamValues &values)
{
    return checkAll(spec(), values);
}

KvCacheLabResult KvCacheLab::compute(const ParamValues &v, const RunControl &)
{
    refuseUnless(check(v));
    Result r;
    r.params = KvCacheParams { v.number("layers"), v.number("kv_heads"), v.number("head_dim"), v.number("tokens"),
                               v.number("bytes_per_value") };
    r.cache = kvCache(r.params);
    return r;
}

void writeJson(JsonWriter &json, const KvCacheLabResult &r)
{
    json.beginObject().field("bytes_per_token", r.cache.bytesPerToken).field("bytes", r.cache.bytes).endObject();
}

} // namespace fb
