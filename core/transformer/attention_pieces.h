#pragma once
// How attention_forward and attention_backward (transformer_layers.h) cut a head's queries where
// their products run (double, and heads the float kernel, attention_kernel.h, does not take); the rows
// of a head's weights.
#include <Eigen/Core>

namespace fb::nn {

// The rows of a column of attention weights over T keys: T rounded up to a multiple of 8, so that the
// softmax (attention_softmax.h) reads every column in whole SIMD packets.
inline Eigen::Index attentionRows(Eigen::Index T) { return (T + 7) / 8 * 8; }

// The causal mask leaves the keys after a query unused, so attention runs on the queries in two
// pieces: the first half [p0, p0 + h) needs only the keys before p0 + h, the second all p1 of them. At
// p0 = 0 that skips a quarter of the products' work (the upper-right quarter, all masked). h is a
// multiple of 8 (whole SIMD packets), and a piece of fewer than 8 queries is not cut off: decoding one
// position with the KV cache (nq = 1) runs as one piece.
struct AttentionPieces {
    Eigen::Index count = 1, first[2] = { 0, 0 }, size[2] = { 0, 0 };
    explicit AttentionPieces(Eigen::Index nq)
    {
        const Eigen::Index h = nq / 2 / 8 * 8;
        if (h >= 8) {
            count = 2;
            size[0] = h;
            first[1] = h;
            size[1] = nq - h;
        } else {
            size[0] = nq;
        }
    }
};

} // namespace fb::nn
