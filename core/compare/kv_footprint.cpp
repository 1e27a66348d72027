#include "core/compare/kv_footprint.h"

#include "core/costs/costs.h"

#include <algorithm>

namespace fb {

KvFootprint kvFootprint(const TransformerConfig &c)
{
    KvFootprint f;
    f.cachedTokens = c.window > 0 ? std::min(c.window, c.seqLen) : c.seqLen;
    int softmaxLayers = 0;
    for (int l = 0; l < c.layers; ++l) {
        if (transformerLayerIsSoftmax(c, l)) {
            ++softmaxLayers;
            f.stateBytes += transformerConvStateBytes(c, c.seqLen);  // a softmax layer's short convolution
        } else {
            f.stateBytes += transformerStateBytes(c, l, c.seqLen);
        }
    }
    KvCacheParams p;
    p.layers = double(softmaxLayers) * double(std::max(1, c.loop));
    p.kvHeads = c.kvHeads > 0 ? c.kvHeads : c.heads;
    p.headDim = c.heads > 0 ? double(c.dModel / c.heads) : 0.0;
    p.tokens = f.cachedTokens;
    p.bytesPerValue = kModelBytesPerValue;
    const KvCacheResult r = kvCache(p);
    f.bytesPerToken = r.bytesPerToken;
    f.cacheBytes = r.bytes + f.stateBytes;
    return f;
}

} // namespace fb
