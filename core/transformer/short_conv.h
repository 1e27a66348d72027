#pragma once
// The short convolution (key short_conv): a causal depthwise convolution of K taps along the
// positions, on every row of q, k and v right after W_qkv, as the linear-attention models put it
// before their mixer (Gated DeltaNet, Yang et al. 2025; the Zoology models, Arora et al. 2023):
//   qkv_t = sum_{j < K, j <= t} w_j .* raw_{t - j}        (w_j: one weight per row, K columns)
// It lets a position's key hold what came just before it, which the delta rule's one-token-at-a-time
// state cannot look back for: in recall, the value's position then writes "key k was before me".
// Columns are positions-major, column = t B + b (B sequences), so position t - j of the same
// sequence sits j B columns to the left. No bias, no activation: with w_0 = 1 and the rest 0 (the
// initialisation) the block is exactly the one without it.
#include <Eigen/Core>

namespace fb::nn {

// y(:, col) = sum_j w(:, j) .* x(:, col - j B) over col - j B >= 0, for the columns [c, c + n).
// x holds every column up to c + n (earlier positions included); y and x do not overlap.
template <typename S>
void short_conv_forward(S *y, const S *x, const S *w, Eigen::Index rows, Eigen::Index taps, Eigen::Index B,
                        Eigen::Index c, Eigen::Index n)
{
    using A = Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic>;
    using CA = Eigen::Array<S, Eigen::Dynamic, 1>;
    Eigen::Map<A> out(y + c * rows, rows, n);
    const Eigen::Map<const A> in(x, rows, c + n);
    out = in.middleCols(c, n).colwise() * Eigen::Map<const CA>(w, rows);
    for (Eigen::Index j = 1; j < taps; ++j) {
        // columns col in [c, c + n) with col - j B >= 0
        const Eigen::Index first = std::max(c, j * B);
        if (first >= c + n) break;
        out.rightCols(c + n - first) += in.middleCols(first - j * B, c + n - first).colwise()
                                        * Eigen::Map<const CA>(w + j * rows, rows);
    }
}

// in the forward pass this was: y(:, col) = sum_j w(:, j) .* x(:, col - j B).
// dx(:, col) = sum_j w(:, j) .* dy(:, col + j B) over col + j B < N, for the columns [c, c + n);
// dy holds every column up to N. dx is written (not accumulated).
template <typename S>
void short_conv_backward_data(S *dx, const S *dy, const S *w, Eigen::Index rows, Eigen::Index taps,
                              Eigen::Index B, Eigen::Index N, Eigen::Index c, Eigen::Index n)
{
    using A = Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic>;
    using CA = Eigen::Array<S, Eigen::Dynamic, 1>;
    Eigen::Map<A> out(dx + c * rows, rows, n);
    const Eigen::Map<const A> in(dy, rows, N);
    out = in.middleCols(c, n).colwise() * Eigen::Map<const CA>(w, rows);
    for (Eigen::Index j = 1; j < taps; ++j) {
        // columns col in [c, c + n) with col + j B < N
        const Eigen::Index last = std::min(c + n, N - j * B);
        if (last <= c) break;
        out.leftCols(last - c) += in.middleCols(c + j * B, last - c).colwise() * Eigen::Map<const CA>(w + j * rows, rows);
    }
}

// dw(:, j) += sum_{col >= j B} dy(:, col) .* x(:, col - j B), over the N columns of dy and x.
template <typename S>
void short_conv_backward_weight(S *dw, const S *dy, const S *x, Eigen::Index rows, Eigen::Index taps, Eigen::Index B,
                                Eigen::Index N)
{
    using A = Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic>;
    using CA = Eigen::Array<S, Eigen::Dynamic, 1>;
    const Eigen::Map<const A> g(dy, rows, N), in(x, rows, N);
    for (Eigen::Index j = 0; j < taps && j * B < N; ++j) {
        const Eigen::Index m = N - j * B;
        Eigen::Map<CA>(dw + j * rows, rows) += (g.rightCols(m) * in.leftCols(m)).rowwise().sum();
    }
}

} // namespace fb::nn
