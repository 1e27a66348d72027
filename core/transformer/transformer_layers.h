#pragma once
// The layers of the tiny decoder-only transformer (000_031aadcae6604a46.txt, 218.4 and 218.6) that
// core/training/layers.h does not have: ReLU (after the bias), rotary position embeddings and causal
// attention of one (sequence, head); LayerNorm is in layer_norm.h. Forward/backward pairs in the style
// of llm.c (train_gpt2.c): every backward pass quotes the forward line it differentiates and gradients
// accumulate with += (attention_backward can write dq, dk and dv instead: writeQ, writeKV).
//
// Layout as in layers.h: activations are column-major (C, N) with one column per (position,
// sequence) pair, N = T*B columns ordered time-major (column n = t*B + b). The attention functions
// work on one (sequence, head) at a time through strided views: the queries of sequence b and head
// h are rows [h*dh, (h+1)*dh) of columns b, B+b, 2B+b, ... of the (3d, N) qkv buffer, a (dh, T)
// matrix with outer stride B*3d. Everything is templated on the scalar: float for training, double
// for the gradient checks.
#include "core/training/layers.h"
#include "core/transformer/attention_kernel.h"
#include "core/transformer/attention_pieces.h"
#include "core/transformer/attention_softmax.h"
#include "core/transformer/chunked_products.h"
#include "core/transformer/layer_norm.h"
#include "core/transformer/masked_softmax.h"

#include <cmath>
#include <limits>

namespace fb::nn {

// A (rows, cols) view with a column stride of its own: one head of one sequence in a time-major buffer.
template <typename S> using Strided = Eigen::Map<Mat<S>, 0, Eigen::OuterStride<>>;
template <typename S> using ConstStrided = Eigen::Map<const Mat<S>, 0, Eigen::OuterStride<>>;

// ----------------------------------------------------------------------------------------------
// ReLU's backward in place, which needs only the output (positive where the input was); the forward
// is the epilogue of the product before it (gemm_epilogue.h).

// d is (C, N): d(L)/d(out) on entry, d(L)/d(inp) on return; out is (C, N) from the forward pass
template <typename S>
void relu_backward_inplace(Out<S> d, const In<S> &out)
{
    // in the forward pass this was: out = max(inp, 0)
    // d(out)/d(inp) = 1 where out > 0, else 0. A loop of its own: Eigen 3.4 does not vectorise
    // select(), which made this pass 9% of a text-size step; the compiler vectorises this one.
    for (Eigen::Index j = 0; j < d.cols(); ++j) {
        S *dj = d.col(j).data();
        const S *oj = out.col(j).data();
        for (Eigen::Index i = 0; i < d.rows(); ++i) dj[i] = oj[i] > S(0) ? dj[i] : S(0);
    }
}

// ----------------------------------------------------------------------------------------------
// Rotary position embeddings (218.4.4): pairs (2i, 2i+1) of every head's query and key rotated by
// m * theta_i at position m. The tables hold, for each position, one row per pair of the whole
// d-wide q (or k): a head's dh/2 frequencies repeated for every head.

// x is (d, n): rows are H heads of dh features, its column c is column col0 + c of a time-major
// buffer of B sequences, so at position (col0 + c) / B; cos and sin are (d/2, positions): row i
// belongs to pair (2i, 2i+1)
template <typename S>
void rope_forward(Out<S> x, const In<S> &cos, const In<S> &sin, Eigen::Index col0, Eigen::Index B)
{
    const Eigen::Index pairs = x.rows() / 2;
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
        const Eigen::Index m = (col0 + c) / B;
        S *v = x.col(c).data();
        const S *co = cos.col(m).data(), *si = sin.col(m).data();
        for (Eigen::Index i = 0; i < pairs; ++i) {
            const S e = v[2 * i], o = v[2 * i + 1];
            v[2 * i] = e * co[i] - o * si[i];      // even' = e cos - o sin
            v[2 * i + 1] = e * si[i] + o * co[i];  // odd'  = e sin + o cos
        }
    }
}

// dx is (d, n): d(L)/d(rotated x) on entry, d(L)/d(x) on return; cos, sin, col0 and B as in the forward
template <typename S>
void rope_backward_inplace(Out<S> dx, const In<S> &cos, const In<S> &sin, Eigen::Index col0, Eigen::Index B)
{
    // in the forward pass this was: [e'; o'] = R(m theta) [e; o],  R = [[cos, -sin], [sin, cos]]
    // d(L)/d([e; o]) = R' d(L)/d([e'; o']): the rotation by -m theta
    const Eigen::Index pairs = dx.rows() / 2;
    for (Eigen::Index c = 0; c < dx.cols(); ++c) {
        const Eigen::Index m = (col0 + c) / B;
        S *v = dx.col(c).data();
        const S *co = cos.col(m).data(), *si = sin.col(m).data();
        for (Eigen::Index i = 0; i < pairs; ++i) {
            const S de = v[2 * i], dodd = v[2 * i + 1];
            v[2 * i] = de * co[i] + dodd * si[i];
            v[2 * i + 1] = -de * si[i] + dodd * co[i];
        }
    }
}

// ----------------------------------------------------------------------------------------------
// Causal scaled dot-product attention of one sequence and one head (218.4.1), for the queries at
// positions [p0, p1) over the keys at positions [0, p1): the whole sequence at once (p0 = 0,
// p1 = T) or one new position against a cache of the earlier keys and values (p0 = t, p1 = t + 1).
// att keeps the softmax output for the backward pass and for the heatmaps: att(j, i) is the weight
// of key j for query i (column = query), zero above the diagonal (j > i). Its columns are padded to
// attentionRows(T) rows (attention_pieces.h), a multiple of 8, so that the softmax works in whole
// SIMD packets.

constexpr Eigen::Index kMaxAttentionKeys = 2048;  // the longest sequence attention accepts

// Whether float attention of a head runs in attention_kernel.h: a head width and sequence length it takes,
// its weights a whole (attentionRows(T), T) matrix (the kernel writes and reads every row of a column)
inline bool attentionInKernel(const In<float> &q, const In<float> &att)
{
    return attention_kernel_fits(q.rows(), att.cols()) && att.outerStride() == att.rows();
}

// One head of float views as attention_kernel.h takes it
inline AttentionHead attentionHead(const In<float> &q, const In<float> &k, const In<float> &v, Eigen::Index p0,
                                   float scale)
{
    return { q.data(), k.data(), v.data(), q.outerStride(), k.outerStride(), v.outerStride(), q.rows(), p0, q.cols(),
             scale };
}

// out is (dh, p1 - p0), att is (attentionRows(T), T) with T >= p1: columns [p0, p1) are written,
// q is (dh, p1 - p0), k and v are (dh, >= p1): columns [0, p1) are read; scale is 1/sqrt(dh) (times
// YaRN's attention factor squared when evaluating a rescaled RoPE); window (0 = off) and slope (ALiBi's
// m, 0 = off) as in masked_softmax.h
template <typename S>
void attention_forward(Out<S> out, Out<S> att, const In<S> &q, const In<S> &k, const In<S> &v, Eigen::Index p0,
                       S scale, Eigen::Index window = 0, S slope = S(0))
{
    if constexpr (std::is_same_v<S, float>) {
        // float's causal softmax attention in one kernel (attention_kernel.h), when a head of the model's
        // sequence length fits it: every call of the model the same way (the KV cache's one position too)
        if (window == 0 && slope == S(0) && attentionInKernel(q, att)) {
            attention_kernel_forward(attentionHead(q, k, v, p0, scale), out.data(), out.outerStride(), att.data(),
                                     att.outerStride());
            return;
        }
    }
    const Eigen::Index nq = q.cols(), rows = att.rows();
    const AttentionPieces pieces(nq);
    // preatt = k' q: (keys, queries), row j = key, column i = query; a piece's queries [c, c + n)
    // see the keys before p0 + c + n (the rows below stay unwritten: the softmax zeroes them)
    for (Eigen::Index i = 0; i < pieces.count; ++i) {
        const Eigen::Index c = pieces.first[i], n = pieces.size[i], keys = p0 + c + n;
        product<S>(att.block(0, p0 + c, keys, n), k.leftCols(keys).transpose(), q.middleCols(c, n), false);
    }
    // att = softmax(scale * preatt) over each column's keys j <= query, 0 for j > query
    // (a sliding window or ALiBi's bias: the scalar path; keys outside the window get exactly 0)
    auto a = att.middleCols(p0, nq);  // (rows, nq): every (padded) key row of the queries' columns
    if (window > 0 || slope != S(0)) masked_softmax_columns<S>(a.data(), p0, nq, rows, scale, window, slope);
    else causal_softmax_columns<S>(a.data(), p0, nq, rows, scale);
    // out = v att: each query's weighted sum of the values it may see
    for (Eigen::Index i = 0; i < pieces.count; ++i) {
        const Eigen::Index c = pieces.first[i], n = pieces.size[i], keys = p0 + c + n;
        product<S>(out.middleCols(c, n), v.leftCols(keys), att.block(0, p0 + c, keys, n), false);
    }
}

// dq is (dh, p1 - p0), dk and dv are (dh, >= p1): they accumulate, or are written: dq when writeQ, dk
// and dv's columns [0, p1) when writeKV (then no one need zero them first). datt is
// (attentionRows(T), T): a scratch (columns [p0, p1) are overwritten; the float kernel, when it takes
// the head, keeps its own), dout is (dh, p1 - p0), att, q, k, v as in the forward. The products: the
// queries in the forward's pieces, each over the keys it saw; the last piece first, whose keys are all
// p1 (so with writeKV it writes every column of dk and dv, and the first piece adds to them: bit for
// bit the sums of adding both to zeros while each piece's queries fit one of the kernel's inner
// blocks, 128 at most, so up to T = 256).
template <typename S>
void attention_backward(Out<S> dq, Out<S> dk, Out<S> dv, Out<S> datt, const In<S> &dout, const In<S> &att,
                        const In<S> &q, const In<S> &k, const In<S> &v, Eigen::Index p0, S scale,
                        bool writeQ = false, bool writeKV = false)
{
    if constexpr (std::is_same_v<S, float>) {
        // attention_kernel.h (its backward reads only the weights: a sliding window's or ALiBi's too)
        if (attentionInKernel(q, att)) {
            attention_kernel_backward(attentionHead(q, k, v, p0, scale), dout.data(), dout.outerStride(), att.data(),
                                      att.outerStride(), dq.data(), dq.outerStride(), dk.data(), dk.outerStride(),
                                      dv.data(), dv.outerStride(), writeQ, writeKV);
            return;
        }
    }
    const AttentionPieces pieces(q.cols());
    for (Eigen::Index i = pieces.count - 1; i >= 0; --i) {
        const Eigen::Index c = pieces.first[i], n = pieces.size[i], keys = p0 + c + n;
        const bool add = !writeKV || i < pieces.count - 1;  // to dk and dv
        const auto a = att.block(0, p0 + c, keys, n);
        auto da = datt.block(0, p0 + c, keys, n);
        const auto dy = dout.middleCols(c, n);
        // backward pass 4, through the value accumulation: out = v a
        // d(L)/d(v) = d(L)/d(out) a';  d(L)/d(a) = v' d(L)/d(out)
        product<S>(dv.leftCols(keys), dy, a.transpose(), add);
        product<S>(da, v.leftCols(keys).transpose(), dy, false);
        // backward pass 3, through the softmax, which needs only its output a:
        // d(L)/d(preatt_j) = a_j (d(L)/d(a_j) - sum_j' a_j' d(L)/d(a_j')); masked keys have a_j = 0
        // (outside a sliding window too; ALiBi's bias is a constant of the scores and changes nothing here)
        // backward pass 2, the scale: preatt = scale * (k' q) (attention_softmax.h, both at once)
        causal_softmax_backward_columns<S>(da.data(), da.outerStride(), a.data(), a.outerStride(), p0 + c, n, keys,
                                           scale);
        // backward pass 1, the query @ key matmul:
        // d(L)/d(q) = scale k d(L)/d(preatt);  d(L)/d(k) = scale q d(L)/d(preatt)'
        product<S>(dq.middleCols(c, n), k.leftCols(keys), da, !writeQ);
        product<S>(dk.leftCols(keys), q.middleCols(c, n), da.transpose(), add);
    }
}

} // namespace fb::nn
