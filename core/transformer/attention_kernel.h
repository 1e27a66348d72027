#pragma once
// Causal softmax attention of one (sequence, head) in float, in one kernel (attention_kernel.cpp):
// the scores, the softmax and the weighted values of a few queries at a time, their scores held in
// a buffer of the first-level cache, and the backward likewise, instead of four to eight small matrix
// products and two passes of the softmax per head. At the shapes the transformer trains (d_head 16 to
// 32, 32 to 64 keys) those products were each a few hundred nanoseconds, and attention took a quarter
// of an induction step at a third of the kernel's speed.
//
// Views as attention_forward and attention_backward (transformer_layers.h) take them, by pointer and
// column stride: q (dh x nq), the queries p0 .. p0 + nq - 1; k, v (dh x keys), keys = p0 + nq; att,
// columns of ld rows (attentionRows(T), a multiple of 8, at least keys) one after the other, column
// p0 + c holding query c's weights over the keys and zeros in the rest of its ld rows. A query's
// numbers do not depend on the other queries of the call (decoding one position with the KV cache
// gives the same weights and output, bit for bit, as the whole sequence at once).
namespace fb::nn {

// The longest sequence the kernel takes
constexpr long kAttentionKernelMostKeys = 128;

// Whether the kernel takes a head of dh features over keys keys (else the products do): dh one to four
// of the build's vectors (16 to 64 with AVX-512, 8 to 32 with AVX2, 4 to 16 with SSE), at most
// kAttentionKernelMostKeys keys.
bool attention_kernel_fits(long dh, long keys);

struct AttentionHead {
    const float *q, *k, *v;
    long qs, ks, vs;   // column strides
    long dh, p0, nq;   // features, the first query's position, queries
    float scale;
};

// y (dh x nq, column stride ys) = v softmax(scale k' q) with the keys after each query masked;
// att's columns p0 .. p0 + nq - 1 (stride ld) receive the weights, zeros below the visible keys.
void attention_kernel_forward(const AttentionHead &h, float *y, long ys, float *att, long ld);

// Through it: dy (dh x nq, column stride dys) in, att as the forward left it (stride ld); dq (dh x nq)
// written when writeQ, else added to; dk and dv (dh x keys) written when writeKV, else added to.
void attention_kernel_backward(const AttentionHead &h, const float *dy, long dys, const float *att, long ld, float *dq,
                               long dqs, float *dk, long dks, float *dv, long dvs, bool writeQ, bool writeKV);

} // namespace fb::nn
