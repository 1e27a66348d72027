// The products of chunked_products.h, compiled once for float (gemm_kernel) and double (Eigen).
#include "core/transformer/chunked_products.h"
#include "core/transformer/gemm_kernel.h"

#include <cassert>
#include <type_traits>

namespace fb::nn {

namespace {

// Tile sizes of an (M, N) output over an inner dimension K: blocks of (rows x inner) and (inner x cols)
// scalars of at most kBlock (256 KiB). As few tiles as fit, of balanced sizes: Eigen (double) packs the
// left operand once per column tile and the right one once per row tile, so every extra tile packs an
// operand again (the weight gradients' 96-row tiles packed their right operand 4 to 6 times, and
// packing was 19% of a text-size step); gemm_kernel (float) packs only a transposed left operand, once
// per tile. Rows in multiples of the kernel's (kRows). split: at least two tiles, so that two threads
// share the product; the callers that pass a runner ask for it whatever its thread count, so the
// tiles, and the numbers, are the same for one thread and several.
template <typename S>
struct Tiles {
    static constexpr Eigen::Index kBlock = Eigen::Index(262144 / sizeof(S));
    // the inner blocks of Eigen's double products (64); for float they only size the tiles (the
    // kernel blocks the inner dimension itself)
    static constexpr Eigen::Index kInner = Eigen::Index(512 / sizeof(S));
    // rows of a kernel panel: gemm_kernel's for float (32 with AVX-512), Eigen's GEBP kernel's for
    // double (a tile of 24-multiples left a 24-row remainder to Eigen's slower one-packet path)
    static Eigen::Index rowUnit()
    {
        if constexpr (std::is_same_v<S, float>) return gemm_kernel_rows();
        else return std::max<Eigen::Index>(24, Eigen::internal::gebp_traits<S, S>::mr);
    }
    const Eigen::Index kRows = rowUnit();
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
    // Tile t of an (M, N) output, the tiles numbered down each column of tiles first
    struct Rect {
        Eigen::Index r0, m, c0, n;
    };
    Rect at(Eigen::Index t, Eigen::Index M, Eigen::Index N) const
    {
        const Eigen::Index rt = (M + rows - 1) / rows, r0 = (t % rt) * rows, c0 = (t / rt) * cols;
        return { r0, std::min(rows, M - r0), c0, std::min(cols, N - c0) };
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

template <typename S>
bool column_product(Out<S> &out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate)
{
    if (ta) return column_product<S>(out, a.transpose(), b, accumulate);
    if (tb) return column_product<S>(out, a, b.transpose(), accumulate);
    return column_product<S>(out, a, b, accumulate);
}

// Tile [r0, r0 + m) x [c0, c0 + n) of out (+)= op(a) * op(b), then post's epilogue when set: float by
// gemm_kernel, which reads the views in place and applies the epilogue itself, double by Eigen
// (tile_product) and a pass over the tile
template <typename S>
void one_tile_at(Out<S> &out, const In<S> &a, bool ta, const In<S> &b, bool tb, Eigen::Index r0, Eigen::Index m,
                 Eigen::Index c0, Eigen::Index n, Eigen::Index inner, bool accumulate, const GemmEpilogue<S> *post)
{
    S *o = out.data() + r0 + c0 * out.outerStride();
    const GemmEpilogue<S> at = post ? post->at(r0, c0) : GemmEpilogue<S>{};
    if constexpr (std::is_same_v<S, float>) {
        const long K = ta ? a.rows() : a.cols();
        const float *ap = ta ? a.data() + r0 * a.outerStride() : a.data() + r0;
        const float *bp = tb ? b.data() + c0 : b.data() + c0 * b.outerStride();
        gemm_kernel(m, n, K, ap, a.outerStride(), ta, bp, b.outerStride(), tb, o, out.outerStride(), accumulate,
                    post ? &at : nullptr);
    } else {
        if (ta) tile_product<S>(out, a.transpose(), b, r0, m, c0, n, inner, accumulate);
        else if (tb) tile_product<S>(out, a, b.transpose(), r0, m, c0, n, inner, accumulate);
        else tile_product<S>(out, a, b, r0, m, c0, n, inner, accumulate);
        if (post) apply_epilogue<S>(o, out.outerStride(), m, n, at);
    }
}

// out (+)= op(a) * op(b), tile by tile, the tiles shared among par's threads (in order on the calling
// thread when par has one). out is (M, N), op(a) is (M, K), op(b) is (K, N)
template <typename S>
void product_tiles(const ParallelRunner &par, bool split, Out<S> &out, const In<S> &a, bool ta, const In<S> &b,
                   bool tb, bool accumulate, const GemmEpilogue<S> *post)
{
    const Eigen::Index K = ta ? a.rows() : a.cols();
    const Tiles<S> tiles(out.rows(), out.cols(), K, split);
    const Eigen::Index rt = (out.rows() + tiles.rows - 1) / tiles.rows;
    const Eigen::Index ct = (out.cols() + tiles.cols - 1) / tiles.cols;
    par.forEach(rt * ct, [&](Eigen::Index t) {
        const auto r = tiles.at(t, out.rows(), out.cols());
        one_tile_at<S>(out, a, ta, b, tb, r.r0, r.m, r.c0, r.n, tiles.inner, accumulate, post);
    });
}

// Tile t of out (+)= op(a) * op(b), as product_tiles cuts them on the calling thread (as few as fit)
template <typename S>
void one_tile(Eigen::Index t, Out<S> &out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate)
{
    const Tiles<S> tiles(out.rows(), out.cols(), ta ? a.rows() : a.cols(), false);
    const auto r = tiles.at(t, out.rows(), out.cols());
    one_tile_at<S>(out, a, ta, b, tb, r.r0, r.m, r.c0, r.n, tiles.inner, accumulate, nullptr);
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
    if (column_product<S>(out, a, ta, b, tb, accumulate)) return;
    one_tile<S>(t, out, a, ta, b, tb, accumulate);
}

template Eigen::Index gemm_tiles<float>(Eigen::Index, Eigen::Index, Eigen::Index);
template Eigen::Index gemm_tiles<double>(Eigen::Index, Eigen::Index, Eigen::Index);
template void gemm_tile<float>(Eigen::Index, Out<float>, const In<float> &, bool, const In<float> &, bool, bool);
template void gemm_tile<double>(Eigen::Index, Out<double>, const In<double> &, bool, const In<double> &, bool, bool);

template <typename S>
void gemm(const ParallelRunner *par, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate,
          const GemmEpilogue<S> *post)
{
    assert(!(ta && tb));
    if (column_product<S>(out, a, ta, b, tb, accumulate)) {
        if (post) apply_epilogue<S>(out.data(), out.outerStride(), out.rows(), 1, *post);
        return;
    }
    if constexpr (std::is_same_v<S, float>) {
        // on the calling thread the kernel's own blocks are the tiles (the numbers do not depend on
        // them): one call, without the tiles' bookkeeping, which cost as much as attention's smallest
        // products (16 x 16 x 16 at the induction size) themselves
        if (!par) {
            one_tile_at<S>(out, a, ta, b, tb, 0, out.rows(), 0, out.cols(), 0, accumulate, post);
            return;
        }
    }
    // On the calling thread (double): the tiles in order, as a runner of one thread runs them (it
    // holds no thread and allocates nothing). With a runner: at least two tiles (split).
    const ParallelRunner calling;
    product_tiles<S>(par ? *par : calling, par != nullptr, out, a, ta, b, tb, accumulate, post);
}

template void gemm<float>(const ParallelRunner *, Out<float>, const In<float> &, bool, const In<float> &, bool, bool,
                          const GemmEpilogue<float> *);
template void gemm<double>(const ParallelRunner *, Out<double>, const In<double> &, bool, const In<double> &, bool,
                           bool, const GemmEpilogue<double> *);

} // namespace fb::nn
