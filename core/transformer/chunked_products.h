#pragma once
// The matrix products of the transformer, cut into tiles of outputs and of the inner dimension
// (Tiles below). Two reasons:
//  - Eigen's product packs its operands into blocks of up to (rows x inner) and (inner x cols); it
//    puts them on the stack when they fit EIGEN_STACK_ALLOCATION_LIMIT (128 KiB) and allocates them
//    on the heap otherwise (W2's product at N = 256 columns did, 24 times a step). Tiles keep every
//    block under the limit for any model size, so no pass allocates.
//  - the tiles are fixed by the shapes alone, and each writes its own outputs (the inner tiles of one
//    output tile run in order on one thread), so one thread and several compute the same numbers.
#include "core/training/layers.h"
#include "core/transformer/parallel_runner.h"

#include <algorithm>

namespace fb::nn {

// Tile sizes for an inner dimension K: blocks of (rows x inner) and (inner x cols) scalars of at
// most kBlock (128 KiB). Rows as many as fit (Eigen packs the right operand once per row tile, so
// fewer row tiles pack less), in multiples of the AVX2 kernel's 24 rows.
template <typename S>
struct Tiles {
    static constexpr Eigen::Index kBlock = Eigen::Index(131072 / sizeof(S));
    static constexpr Eigen::Index inner = Eigen::Index(1024 / sizeof(S));  // 256 floats, 128 doubles
    static Eigen::Index innerFor(Eigen::Index K) { return std::max<Eigen::Index>(1, std::min(K, inner)); }
    static Eigen::Index rowsFor(Eigen::Index K) { return std::clamp<Eigen::Index>(kBlock / innerFor(K) / 24 * 24, 24, 480); }
    static Eigen::Index colsFor(Eigen::Index K) { return std::clamp<Eigen::Index>(kBlock / innerFor(K) / 8 * 8, 8, 512); }
};

// out (+)= lhs * rhs for one tile [r0, r0 + m) x [c0, c0 + n) of out, summed over inner tiles in order.
// out is (M, N), lhs is (M, K), rhs is (K, N): any Eigen expressions (a transpose, a block)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void tile_product(Dst &out, const Lhs &lhs, const Rhs &rhs, Eigen::Index r0, Eigen::Index m, Eigen::Index c0,
                  Eigen::Index n, bool accumulate)
{
    const Eigen::Index K = lhs.cols();
    auto o = out.block(r0, c0, m, n);
    if (K == 0) {
        if (!accumulate) o.setZero();
        return;
    }
    for (Eigen::Index k0 = 0; k0 < K; k0 += Tiles<S>::inner) {
        const Eigen::Index k = std::min(Tiles<S>::inner, K - k0);
        if (k0 == 0 && !accumulate) o.noalias() = lhs.block(r0, k0, m, k) * rhs.block(k0, c0, k, n);
        else o.noalias() += lhs.block(r0, k0, m, k) * rhs.block(k0, c0, k, n);
    }
}

// One column (decoding one position with the KV cache): a matrix-vector product, which packs
// nothing (GEMM's packing of the whole weight matrix for one column cost most of a decoded
// character). Only a product whose whole output is one column takes it: training and evaluation,
// whose outputs have B*T >= 2 columns, keep the tiles and their numbers.
template <typename S, typename Dst, typename Lhs, typename Rhs>
bool column_product(Dst &out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (out.cols() != 1 || lhs.cols() == 0) return false;
    if (accumulate) out.col(0).noalias() += lhs * rhs.col(0);
    else out.col(0).noalias() = lhs * rhs.col(0);
    return true;
}

// out (+)= lhs * rhs on the calling thread, tile by tile. out is (M, N), lhs is (M, K), rhs is (K, N)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product(Dst &&out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (column_product<S>(out, lhs, rhs, accumulate)) return;
    const Eigen::Index R = Tiles<S>::rowsFor(lhs.cols()), C = Tiles<S>::colsFor(lhs.cols());
    for (Eigen::Index c0 = 0; c0 < out.cols(); c0 += C)
        for (Eigen::Index r0 = 0; r0 < out.rows(); r0 += R)
            tile_product<S>(out, lhs, rhs, r0, std::min(R, out.rows() - r0), c0, std::min(C, out.cols() - c0),
                            accumulate);
}

// The same with the output tiles shared among par's threads.
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product(const ParallelRunner &par, Dst &&out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (column_product<S>(out, lhs, rhs, accumulate)) return;
    const Eigen::Index R = Tiles<S>::rowsFor(lhs.cols()), C = Tiles<S>::colsFor(lhs.cols());
    const Eigen::Index rt = (out.rows() + R - 1) / R, ct = (out.cols() + C - 1) / C;
    par.forEach(rt * ct, [&](Eigen::Index t) {
        const Eigen::Index r0 = (t % rt) * R, c0 = (t / rt) * C;
        tile_product<S>(out, lhs, rhs, r0, std::min(R, out.rows() - r0), c0, std::min(C, out.cols() - c0), accumulate);
    });
}

// out is (OC, N), weight is (OC, C), inp is (C, N): out = weight * inp, or += when accumulate
template <typename S>
void product_forward(const ParallelRunner &par, Out<S> out, const In<S> &weight, const In<S> &inp, bool accumulate)
{
    product<S>(par, out, weight, inp, accumulate);
}

// dinp is (C, N), weight is (OC, C), dout is (OC, N)
template <typename S>
void product_backward_inp(const ParallelRunner &par, Out<S> dinp, const In<S> &weight, const In<S> &dout,
                          bool accumulate)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(inp) = weight' * d(L)/d(out)
    product<S>(par, dinp, weight.transpose(), dout, accumulate);
}

// dweight is (OC, C), dout is (OC, N), inp is (C, N)
template <typename S>
void product_backward_weight(const ParallelRunner &par, Out<S> dweight, const In<S> &dout, const In<S> &inp)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(weight) = d(L)/d(out) * inp'
    product<S>(par, dweight, dout, inp.transpose(), true);
}

// dbias is (OC), dout is (OC, N)
template <typename S>
void bias_backward(VecOut<S> dbias, const In<S> &dout)
{
    // in the forward pass this was: out = bias (broadcast over columns) + ...
    // d(L)/d(bias) = sum over columns of d(L)/d(out)
    dbias += dout.rowwise().sum();
}

} // namespace fb::nn
