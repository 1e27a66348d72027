#pragma once
// The softmax of one head's attention scores when the causal mask is not the whole story
// (004_21534ea083b6ce9c.txt, "Recent Developments"):
//   - a sliding window of w keys: key j is visible to query i iff i - w < j <= i (w = 0: every j <= i);
//   - ALiBi (Press et al.): the scaled score of key j for query i gets the bias -m (i - j), m the
//     head's slope 2^(-8h/H), h = 1..H.
// Both leave the backward pass of the softmax as it is: masked keys have weight exactly 0 (their
// gradient vanishes there), and a bias that does not depend on q or k passes the gradient of the
// scaled score to q and k unchanged. Plain causal attention (w = 0, m = 0) keeps the packet-wise
// causal_softmax_columns of attention_softmax.h; this is the scalar path of the options.
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace fb::nn {

// The keys query q may see: [attentionFirstKey(q, window), q].
inline Eigen::Index attentionFirstKey(Eigen::Index q, Eigen::Index window)
{
    return window > 0 ? std::max<Eigen::Index>(0, q - window + 1) : 0;
}

// In place over the columns [p0, p0 + nq) of one head's padded weights, as causal_softmax_columns:
// column i holds the raw scores k'q of query p0 + i against keys 0 .. p0 + i and receives
// softmax(scale * score_j - slope * (p0 + i - j)) over its visible keys, exact zeros elsewhere.
// a is (rows, nq) contiguous, rows >= p0 + nq; window >= 0 (0 = off), slope >= 0 (0 = no ALiBi)
template <typename S>
void masked_softmax_columns(S *a, Eigen::Index p0, Eigen::Index nq, Eigen::Index rows, S scale, Eigen::Index window,
                            S slope)
{
    const S floor = S(std::is_same_v<S, float> ? -80 : -700);  // exp never returns a denormal
    for (Eigen::Index i = 0; i < nq; ++i) {
        S *p = a + i * rows;
        const Eigen::Index q = p0 + i, lo = attentionFirstKey(q, window);
        // 1. the biased, scaled scores of the visible keys and their maximum
        S m = -std::numeric_limits<S>::infinity();
        for (Eigen::Index j = lo; j <= q; ++j) {
            p[j] = scale * p[j] - slope * S(q - j);
            m = std::max(m, p[j]);
        }
        // 2. exp of the shifted scores and their sum
        S sum = S(0);
        for (Eigen::Index j = lo; j <= q; ++j) {
            p[j] = std::exp(std::max(p[j] - m, floor));
            sum += p[j];
        }
        // 3. normalise the visible keys; zeros before the window and after the query
        const S inv = S(1) / sum;
        for (Eigen::Index j = 0; j < lo; ++j) p[j] = S(0);
        for (Eigen::Index j = lo; j <= q; ++j) p[j] *= inv;
        for (Eigen::Index j = q + 1; j < rows; ++j) p[j] = S(0);
    }
}

// The ALiBi slope of head h (0-based) of H: m = 2^(-8 (h + 1) / H).
inline double alibiSlope(int h, int heads)
{
    return std::exp2(-8.0 * double(h + 1) / double(heads));
}

} // namespace fb::nn
