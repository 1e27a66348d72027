// The products of chunked_products.h, compiled once for float and double.
#include "core/transformer/chunked_products.h"

#include <cassert>

namespace fb::nn {

namespace {

// Tile sizes of an (M, N) output over an inner dimension K: blocks of (rows x inner) and (inner x cols)
// scalars of at most kBlock (256 KiB). As few tiles as fit, of balanced sizes: Eigen packs the left
// operand once per column tile and the right one once per row tile, so every extra tile packs an
// operand again (the weight gradients' 96-row tiles packed their right operand 4 to 6 times, and
// packing was 19% of a text-size step). Rows in multiples of the kernel's (kRows). split: at least two
// tiles, so that two threads share the product; the callers that pass a runner ask for it whatever
// its thread count, so the tiles, and the numbers, are the same for one thread and several.
template <typename S>
struct Tiles {
    static constexpr Eigen::Index kBlock = Eigen::Index(262144 / sizeof(S));
    static constexpr Eigen::Index kInner = Eigen::Index(512 / sizeof(S));  // 128 floats, 64 doubles
    // rows of Eigen's GEBP kernel: 24 floats with AVX2, 48 with AVX-512 (a tile of 24-multiples left a
    // 24-row remainder to the slower one-packet path there: 11.5% of a text-size step)
    static constexpr Eigen::Index kRows = std::max<Eigen::Index>(24, Eigen::internal::gebp_traits<S, S>::mr);
    Eigen::Index inner, rows, cols;
    static Eigen::Index roundUp(Eigen::Index x, Eigen::Index to) { return (x + to - 1) / to * to; }
    static Eigen::Index balanced(Eigen::Index total, Eigen::Index most, Eigen::Index unit)
    {
        const Eigen::Index count = (total + most - 1) / most;
        return roundUp((total + count - 1) / count, unit);
    }
    Tiles(Eigen::Index M, Eigen::Index N, Eigen::Index K, bool split)
    {
        inner = K > kInner ? balanced(K, kInner, 8) : std::max<Eigen::Index>(1, K);
        const Eigen::Index mostRows = std::max(kRows, kBlock / inner / kRows * kRows);
        const Eigen::Index mostCols = std::max<Eigen::Index>(8, kBlock / inner / 8 * 8);
        rows = balanced(std::max<Eigen::Index>(1, M), mostRows, kRows);
        cols = balanced(std::max<Eigen::Index>(1, N), mostCols, 8);
        if (split && rows >= M && cols >= N) {
            // halves of equal work: rows when they halve into whole kernel panels (W_qkv's 384), else
            // columns (W_1's 512 rows would split 288 + 224)
            if ((M > 0 && M % (2 * kRows) == 0) || (M >= 2 * kRows && N < 16)) rows = roundUp((M + 1) / 2, kRows);
            else if (N >= 16) cols = roundUp((N + 1) / 2, 8);
        }
    }
};

// out (+)= lhs * rhs for one tile [r0, r0 + m) x [c0, c0 + n) of out, summed over inner tiles in order.
// out is (M, N), lhs is (M, K), rhs is (K, N): views, or the transpose of one
template <typename S, typename Dst, typename Lhs, typename Rhs>
void tile_product(Dst &out, const Lhs &lhs, const Rhs &rhs, Eigen::Index r0, Eigen::Index m, Eigen::Index c0,
                  Eigen::Index n, Eigen::Index inner, bool accumulate)
{
    const Eigen::Index K = lhs.cols();
    auto o = out.block(r0, c0, m, n);
    if (K == 0) {
        if (!accumulate) o.setZero();
        return;
    }
    for (Eigen::Index k0 = 0; k0 < K; k0 += inner) {
        const Eigen::Index k = std::min(inner, K - k0);
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
void product_tiles(const ParallelRunner &par, bool split, Dst &out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (column_product<S>(out, lhs, rhs, accumulate)) return;
    const Tiles<S> tiles(out.rows(), out.cols(), lhs.cols(), split);
    const Eigen::Index R = tiles.rows, C = tiles.cols;
    const Eigen::Index rt = (out.rows() + R - 1) / R, ct = (out.cols() + C - 1) / C;
    par.forEach(rt * ct, [&](Eigen::Index t) {
        const Eigen::Index r0 = (t % rt) * R, c0 = (t / rt) * C;
        tile_product<S>(out, lhs, rhs, r0, std::min(R, out.rows() - r0), c0, std::min(C, out.cols() - c0), tiles.inner,
                        accumulate);
    });
}

// Tile t of out (+)= lhs * rhs, as product_tiles cuts them on the calling thread (as few as fit)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void one_tile(Eigen::Index t, Dst &out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    if (column_product<S>(out, lhs, rhs, accumulate)) return;
    const Tiles<S> tiles(out.rows(), out.cols(), lhs.cols(), false);
    const Eigen::Index R = tiles.rows, C = tiles.cols, rt = (out.rows() + R - 1) / R;
    const Eigen::Index r0 = (t % rt) * R, c0 = (t / rt) * C;
    tile_product<S>(out, lhs, rhs, r0, std::min(R, out.rows() - r0), c0, std::min(C, out.cols() - c0), tiles.inner,
                    accumulate);
}

} // namespace

template <typename S>
Eigen::Index gemm_tiles(Eigen::Index M, Eigen::Index N, Eigen::Index K)
{
    if (N == 1 && K > 0) return 1;  // the matrix-vector product
    const Tiles<S> tiles(M, N, K, false);
    return ((M + tiles.rows - 1) / tiles.rows) * ((N + tiles.cols - 1) / tiles.cols);
}

template <typename S>
void gemm_tile(Eigen::Index t, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate)
{
    assert(!(ta && tb));
    if (ta) one_tile<S>(t, out, a.transpose(), b, accumulate);
    else if (tb) one_tile<S>(t, out, a, b.transpose(), accumulate);
    else one_tile<S>(t, out, a, b, accumulate);
}

template Eigen::Index gemm_tiles<float>(Eigen::Index, Eigen::Index, Eigen::Index);
template Eigen::Index gemm_tiles<double>(Eigen::Index, Eigen::Index, Eigen::Index);
template void gemm_tile<float>(Eigen::Index, Out<float>, const In<float> &, bool, const In<float> &, bool, bool);
template void gemm_tile<double>(Eigen::Index, Out<double>, const In<double> &, bool, const In<double> &, bool, bool);

template <typename S>
void gemm(const ParallelRunner *par, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate)
{
    assert(!(ta && tb));
    // On the calling thread: the tiles in order, as a runner of one thread runs them (it holds no
    // thread and allocates nothing).
    const ParallelRunner calling;
    const ParallelRunner &p = par ? *par : calling;
    const bool split = par != nullptr;
    if (ta) product_tiles<S>(p, split, out, a.transpose(), b, accumulate);
    else if (tb) product_tiles<S>(p, split, out, a, b.transpose(), accumulate);
    else product_tiles<S>(p, split, out, a, b, accumulate);
}

template void gemm<float>(const ParallelRunner *, Out<float>, const In<float> &, bool, const In<float> &, bool, bool);
template void gemm<double>(const ParallelRunner *, Out<double>, const In<double> &, bool, const In<double> &, bool,
                           bool);

} // namespace fb::nn
