// The products of chunked_products.h, compiled once for float and double.
#include "core/transformer/chunked_products.h"

#include <cassert>

namespace fb::nn {

namespace {

// Tile sizes for an inner dimension K: blocks of (rows x inner) and (inner x cols) scalars of at
// most kBlock (128 KiB). Rows as many as fit (Eigen packs the right operand once per row tile, so
// fewer row tiles pack less), in multiples of the kernel's rows (kRows).
template <typename S>
struct Tiles {
    static constexpr Eigen::Index kBlock = Eigen::Index(131072 / sizeof(S));
    static constexpr Eigen::Index inner = Eigen::Index(1024 / sizeof(S));  // 256 floats, 128 doubles
    static Eigen::Index innerFor(Eigen::Index K) { return std::max<Eigen::Index>(1, std::min(K, inner)); }
    // rows of Eigen's GEBP kernel: 24 floats with AVX2, 48 with AVX-512 (a tile of 24-multiples left a
    // 24-row remainder to the slower one-packet path there: 11.5% of a text-size step)
    static constexpr Eigen::Index kRows = std::max<Eigen::Index>(24, Eigen::internal::gebp_traits<S, S>::mr);
    static Eigen::Index rowsFor(Eigen::Index K) { return std::clamp<Eigen::Index>(kBlock / innerFor(K) / kRows * kRows, kRows, 480); }
    static Eigen::Index colsFor(Eigen::Index K) { return std::clamp<Eigen::Index>(kBlock / innerFor(K) / 8 * 8, 8, 512); }
};

// out (+)= lhs * rhs for one tile [r0, r0 + m) x [c0, c0 + n) of out, summed over inner tiles in order.
// out is (M, N), lhs is (M, K), rhs is (K, N): views, or the transpose of one
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

// out (+)= lhs * rhs, tile by tile, the tiles shared among par's threads (in order on the calling
// thread when par has one). out is (M, N), lhs is (M, K), rhs is (K, N)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product_tiles(const ParallelRunner &par, Dst &out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (column_product<S>(out, lhs, rhs, accumulate)) return;
    const Eigen::Index R = Tiles<S>::rowsFor(lhs.cols()), C = Tiles<S>::colsFor(lhs.cols());
    const Eigen::Index rt = (out.rows() + R - 1) / R, ct = (out.cols() + C - 1) / C;
    par.forEach(rt * ct, [&](Eigen::Index t) {
        const Eigen::Index r0 = (t % rt) * R, c0 = (t / rt) * C;
        tile_product<S>(out, lhs, rhs, r0, std::min(R, out.rows() - r0), c0, std::min(C, out.cols() - c0), accumulate);
    });
}

} // namespace

template <typename S>
void gemm(const ParallelRunner *par, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate)
{
    assert(!(ta && tb));
    // On the calling thread: the tiles in order, as a runner of one thread runs them (it holds no
    // thread and allocates nothing).
    const ParallelRunner calling;
    const ParallelRunner &p = par ? *par : calling;
    if (ta) product_tiles<S>(p, out, a.transpose(), b, accumulate);
    else if (tb) product_tiles<S>(p, out, a, b.transpose(), accumulate);
    else product_tiles<S>(p, out, a, b, accumulate);
}

template void gemm<float>(const ParallelRunner *, Out<float>, const In<float> &, bool, const In<float> &, bool, bool);
template void gemm<double>(const ParallelRunner *, Out<double>, const In<double> &, bool, const In<double> &, bool,
                           bool);

} // namespace fb::nn
