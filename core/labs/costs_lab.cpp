#include "core/labs/costs_lab.h"

#include "core/costs/costs.h"

#include <algorithm>
#include <cmath>

namespace fb {

const LabSpec &CostsLab::spec()
{
    return costsLabSpec();
}

std::string CostsLab::check(const ParamValues &values)
{
    CostsLabParams p;
    return costsLabFrom(values, p);
}

CostsLabResult CostsLab::compute(const ParamValues &values, const RunControl &)
{
    Result r;
    refuseUnless(costsLabFrom(values, r.params));
    const CostsLabParams &p = r.params;
    r.figures = costsLabFigures(p);
    r.attentionOverDense = r.figures.denseFlops > 0 ? r.figures.attentionFlops / r.figures.denseFlops : 0.0;
    r.denseFlops = denseFlopsPerTokenLayer(p.dModel);

    // Context lengths from 1K to 1M tokens, widened by powers of two to hold the chosen n and 6d.
    auto pow2Floor = [](double v) { return std::pow(2.0, std::floor(std::log2(v))); };
    auto pow2Ceil = [](double v) { return std::pow(2.0, std::ceil(std::log2(v))); };
    const double crossover = r.figures.crossover;
    const double lo = std::max(1.0, std::min(1024.0, pow2Floor(std::min(p.context, crossover)) / 2.0));
    const double hi = std::max(double(1 << 20), pow2Ceil(std::max(p.context, crossover)) * 2.0);
    const int n = 121;
    const double heads[3] = { p.queryHeads, p.kvHeads, 1.0 };
    for (int i = 0; i < n; ++i) {
        const double x = lo * std::pow(hi / lo, double(i) / (n - 1));
        r.contexts.push_back(x);
        for (int v = 0; v < 3; ++v) r.kvBytes[std::size_t(v)].push_back(kvCache(p.kv(heads[v], x)).bytes);
        r.attentionFlops.push_back(attentionFlopsPerTokenLayer(x, p.dModel));
    }
    return r;
}

void writeJson(JsonWriter &json, const CostsLabResult &r)
{
    const CostsLabFigures &f = r.figures;
    auto kv = [&](const char *name, const KvCacheResult &k) {
        json.key(name).beginObject().field("bytes_per_token", k.bytesPerToken).field("bytes", k.bytes).endObject();
    };
    json.beginObject();
    kv("mha", f.mha);
    kv("gqa", f.gqa);
    kv("mqa", f.mqa);
    json.field("dense_params", f.denseParams)
        .field("train_flops", f.trainFlops)
        .field("attention_flops", f.attentionFlops)
        .field("dense_flops", f.denseFlops)
        .field("attention_over_dense", r.attentionOverDense)
        .field("crossover", f.crossover)
        .field("weight_bytes", f.weightBytes)
        .field("decode_tokens_per_second", f.decodeTokensPerSecond)
        .field("contexts", r.contexts)
        .field("kv_bytes_mha", r.kvBytes[0])
        .field("kv_bytes_gqa", r.kvBytes[1])
        .field("kv_bytes_mqa", r.kvBytes[2])
        .field("attention_flops_curve", r.attentionFlops)
        .endObject();
}

} // namespace fb
