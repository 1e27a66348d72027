#include "core/costs/costs.h"

namespace fb {

KvCacheResult kvCache(const KvCacheParams &p)
{
    KvCacheResult r;
    // A key and a value (the 2) per layer, KV head and head coordinate.
    r.bytesPerToken = 2.0 * p.layers * p.kvHeads * p.headDim * p.bytesPerValue;
    r.bytes = r.bytesPerToken * p.tokens;
    return r;
}

double denseParameters(double layers, double dModel)
{
    // 4 d^2 (Q, K, V, O projections) + 8 d^2 (MLP d -> 4d -> d) per layer.
    return layers * 12.0 * dModel * dModel;
}

double trainingFlops(double params, double tokens)
{
    // Forward 2 N D plus backward 4 N D.
    return 6.0 * params * tokens;
}

double attentionFlopsPerTokenLayer(double context, double dModel)
{
    // Scores q . k and the weighted sum of values over n keys: 2 x 2 n d.
    return 4.0 * context * dModel;
}

double denseFlopsPerTokenLayer(double dModel)
{
    // 2 FLOPs per weight, 12 d^2 weights.
    return 24.0 * dModel * dModel;
}

double attentionCrossoverContext(double dModel)
{
    // 4 n d = 24 d^2  <=>  n = 6 d.
    return 6.0 * dModel;
}

double decodeCeilingTokensPerSecond(double bandwidthBytesPerSecond, double weightBytes)
{
    // Every active weight is read once per generated token.
    return weightBytes > 0.0 ? bandwidthBytesPerSecond / weightBytes : 0.0;
}

} // namespace fb
