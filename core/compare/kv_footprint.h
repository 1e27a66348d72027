#pragma once
// The KV cache a trained transformer needs at inference, by the costs lab's formula
// (core/costs/costs.h, kvCache): 2 (a key and a value) x layers x KV heads x d_head x bytes per value
// for every cached token.
//   layers: L x loop (a looped stack computes new keys and values at every application of a layer);
//   KV heads: kv_heads (0 means heads; grouped-query attention shares them between query heads);
//   bytes per value: 4 (FullBand's models are float32).
// With a sliding window the cache holds only the last `window` tokens: bytesPerToken is per cached
// token, cacheBytes the whole cache at the evaluated length T = seq_len, where min(T, window) tokens
// are cached (T without a window).
#include "core/transformer/transformer_config.h"

namespace fb {

// The linear mixers (config.mixer) cache nothing per token: their layers count in stateBytes, the
// fixed states every sequence keeps, and bytesPerToken counts the softmax layers only. The short
// convolution's raw q, k, v of its last taps - 1 positions count in stateBytes, every layer's.
struct KvFootprint {
    double bytesPerToken = 0.0;  // per cached token (softmax layers)
    int cachedTokens = 0;        // at T = seq_len: min(T, window), or T without a window
    double stateBytes = 0.0;     // the linear mixers' fixed states and the short convolutions' last positions
    double cacheBytes = 0.0;     // bytesPerToken x cachedTokens + stateBytes
};

constexpr double kModelBytesPerValue = 4.0;  // float32

KvFootprint kvFootprint(const TransformerConfig &config);

} // namespace fb
