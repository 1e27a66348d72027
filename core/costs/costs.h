#pragma once
// Cost formulas of the encyclopedia page 004_21534ea083b6ce9c.txt ("Scaling relationships",
// "Memory: the KV cache", "Bandwidth, not arithmetic, often sets the speed limit").
namespace fb {

struct KvCacheParams {
    double layers = 80;
    double kvHeads = 8;
    double headDim = 128;
    double tokens = 131072;       // context length
    double bytesPerValue = 2;     // 16-bit values
};

struct KvCacheResult {
    double bytesPerToken = 0.0;   // 2 x layers x KV heads x head dim x bytes per value
    double bytes = 0.0;           // bytesPerToken x tokens
};

// KV bytes = 2 x layers x KV heads x head dim x tokens x bytes per value (decimal units are the caller's).
KvCacheResult kvCache(const KvCacheParams &p);

// Parameters of a dense stack: layers x 12 d^2 (4 d^2 attention + 8 d^2 for a 4x MLP).
double denseParameters(double layers, double dModel);

// Training compute C = 6 N D FLOPs.
double trainingFlops(double params, double tokens);

// Per token per layer: attention ~ 4 n d, projections and MLP ~ 24 d^2; equal at n = 6 d.
double attentionFlopsPerTokenLayer(double context, double dModel);
double denseFlopsPerTokenLayer(double dModel);
double attentionCrossoverContext(double dModel);

// Single-stream decode ceiling: bandwidth / bytes of active weights (tokens per second).
double decodeCeilingTokensPerSecond(double bandwidthBytesPerSecond, double weightBytes);

} // namespace fb
