#include "core/labs/costs_spec.h"

#include <cmath>

namespace fb {

namespace {

LabSpec makeSpec()
{
    LabSpec s;
    s.name = "costs";
    s.title = "Costs";
    s.source = "the encyclopedia page on the Transformer";
    s.summary = "KV cache per variant, 12·L·d² parameters, C ≈ 6ND, attention against dense compute, the decode ceiling.";
    s.section = "The encyclopedia page on the Transformer: scaling, the KV cache, bandwidth";
    s.params = {
        integerParam("layers", "layers L", "", 1, 256, 80, "Transformer layers in the stack", false),
        integerParam("d_model", "model width d", "", 64, 65536, 8192, "Width of the residual stream d_model", true),
        integerParam("query_heads", "query heads", "", 1, 256, 64, "Attention heads for queries; classic multi-head attention has as many KV heads", false),
        integerParam("kv_heads", "KV heads", "", 1, 256, 8, "Key-value heads: = query heads for MHA, fewer for GQA, 1 for MQA; must divide query_heads", false),
        integerParam("head_dim", "head dimension", "", 8, 512, 128, "Width of each key and value head", false),
        integerParam("context", "context n", "tokens", 1, 16777216, 131072, "Tokens held in the KV cache of one sequence", true),
        realParam("bytes_per_value", "bytes per KV value", "B", 0.5, 4, 2, "2 for 16-bit, 1 for 8-bit, 0.5 for 4-bit", false),
        realParam("params", "parameters N", "billion", 0.01, 10000, 70, "Parameters used in C = 6ND and read once per decoded token (dense model: all of them)", true),
        realParam("train_tokens", "training tokens D", "billion", 0.001, 100000, 15000, "Tokens seen in pretraining", true),
        realParam("bandwidth_tbps", "memory bandwidth", "TB/s", 0.01, 1000, 10, "Aggregate memory bandwidth of the accelerators serving one stream", true),
        realParam("weight_bytes", "bytes per weight", "B", 0.25, 4, 2, "2 for 16-bit weights, 1 for 8-bit, 0.5 for 4-bit", false),
    };
    return s;
}

ParamValues presetValues(double layers, double d, double q, double kv, double head, double context, double bytes,
                         double params, double tokens, double bandwidth, double weightBytes)
{
    ParamValues v;
    v.numbers = { { "layers", layers }, { "d_model", d }, { "query_heads", q }, { "kv_heads", kv },
                  { "head_dim", head }, { "context", context }, { "bytes_per_value", bytes },
                  { "params", params }, { "train_tokens", tokens }, { "bandwidth_tbps", bandwidth },
                  { "weight_bytes", weightBytes } };
    return v;
}

} // namespace

const LabSpec &costsLabSpec()
{
    static const LabSpec spec = makeSpec();
    return spec;
}

std::string costsLabFrom(const ParamValues &v, CostsLabParams &out)
{
    if (std::string err = checkAll(costsLabSpec(), v); !err.empty()) return err;
    const double q = v.number("query_heads"), kv = v.number("kv_heads");
    if (kv > q || std::fmod(q, kv) != 0.0)
        return "kv_heads must divide query_heads = " + formatNumber(q) + " (MHA: " + formatNumber(q)
            + ", MQA: 1), got " + formatNumber(kv);
    CostsLabParams p;
    p.layers = v.number("layers");
    p.dModel = v.number("d_model");
    p.queryHeads = q;
    p.kvHeads = kv;
    p.headDim = v.number("head_dim");
    p.context = v.number("context");
    p.bytesPerValue = v.number("bytes_per_value");
    p.params = v.number("params") * 1e9;
    p.trainTokens = v.number("train_tokens") * 1e9;
    p.bandwidth = v.number("bandwidth_tbps") * 1e12;
    p.weightBytes = v.number("weight_bytes");
    out = p;
    return {};
}

CostsLabFigures costsLabFigures(const CostsLabParams &p)
{
    CostsLabFigures f;
    f.mha = kvCache(p.kv(p.queryHeads, p.context));
    f.gqa = kvCache(p.kv(p.kvHeads, p.context));
    f.mqa = kvCache(p.kv(1.0, p.context));
    f.denseParams = denseParameters(p.layers, p.dModel);
    f.trainFlops = trainingFlops(p.params, p.trainTokens);
    f.attentionFlops = attentionFlopsPerTokenLayer(p.context, p.dModel);
    f.denseFlops = denseFlopsPerTokenLayer(p.dModel);
    f.crossover = attentionCrossoverContext(p.dModel);
    f.weightBytes = p.params * p.weightBytes;
    f.decodeTokensPerSecond = decodeCeilingTokensPerSecond(p.bandwidth, f.weightBytes);
    return f;
}

const std::vector<CostsPreset> &costsPresets()
{
    static const std::vector<CostsPreset> presets {
        { "GPT-3 (175B)",
          "96 layers, d = 12,288, 96 heads of 128 with classic multi-head attention, 2,048-token context, "
          "300B training tokens",
          presetValues(96, 12288, 96, 96, 128, 2048, 2, 175, 300, 10, 2) },
        { "70B-class, 8 KV heads",
          "The page's worked example: 80 layers, d = 8,192, 64 query heads sharing 8 KV heads of 128, "
          "16-bit values, 128K context; 15T training tokens as for Llama 3",
          presetValues(80, 8192, 64, 8, 128, 131072, 2, 70, 15000, 10, 2) },
        { "Chapter's stack (L = 32, d = 4,096)",
          "The widths the chapter's accounting uses: 32 layers, d = 4,096, 32 heads of 128 (MHA), "
          "N = 12 L d^2 = 6.44B, 400B tokens",
          presetValues(32, 4096, 32, 32, 128, 32768, 2, 6.44, 400, 10, 2) },
    };
    return presets;
}

int costsPresetIndex(const ParamValues &v)
{
    const auto &presets = costsPresets();
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (presets[i].values.numbers == v.numbers) return int(i);
    return -1;
}

} // namespace fb
