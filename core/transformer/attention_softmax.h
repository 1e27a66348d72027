#pragma once
// The softmax of causal attention over one head's padded weights, forward and backward
// (000_031aadcae6604a46.txt, 218.4.1), column by column in SIMD packets. A column holds one query's
// scores against the keys 0 .. query and is padded to a multiple of 8 rows (attentionRows): it is read
// in the build's widest packets and, where 8 rows are left, one of 8 lanes, so no packet leaves its
// column. The lanes past the visible keys are masked, never read into a result (the padding may hold
// anything, NaN included). Written with Eigen's packet primitives because Eigen's column expressions
// cost several times more at T = 32-64: each column is only a few packets long and its reductions
// serialise it. Here four columns go through each pass before the next pass starts, so one column's
// reductions overlap the others' arithmetic.
#include "core/transformer/attention_pieces.h"
#include "core/transformer/simd_packets.h"

#include <Eigen/Core>

#include <algorithm>
#include <limits>
#include <type_traits>

namespace fb::nn {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // the packet type is __m256 (or __m512d, __m128)

namespace softmax_detail {

using namespace Eigen::internal;

// A column is a multiple of 8 rows, so it is read in wide packets and, where 8 rows are left, one
// narrow one (simd_packets.h).
using simd::lanes;
using simd::Narrow;
using simd::Wide;

// lanes k .. k + W - 1 of a column whose first n rows are visible: true where k + lane < n
template <typename P>
inline P visible(Eigen::Index k, Eigen::Index n)
{
    using S = typename unpacket_traits<P>::type;
    return pcmp_lt(plset<P>(S(k)), pset1<P>(S(n)));
}

// f(k, P{}) for the packets of a column's first len rows (len a multiple of 8): wide ones, then a narrow one
template <typename S, typename F>
inline void packets(Eigen::Index len, F &&f)
{
    constexpr Eigen::Index WW = lanes<Wide<S>>, WN = lanes<Narrow<S>>;
    Eigen::Index k = 0;
    for (; k + WW <= len; k += WW) f(k, Wide<S>{});
    for (; k < len; k += WN) f(k, Narrow<S>{});
}

// (attentionRows(n) below rounds a column's n visible keys up to whole packets of 8, as it rounds T.)

// The softmax of G columns at a time in place, column g at p + g rows, its first n0 + g rows visible
// (n0 >= 1), zeros in the rows [n0 + g, rows): p[j] = exp(max(scale (p[j] - max), floor)) / sum. The
// scaled scores are clamped at floor (-80 float, -700 double) before the exp, so that exp never returns
// a denormal (Eigen's float exp does, slowly, below -87). Each pass runs over the G columns before the
// next, so one column's reductions overlap the others' arithmetic.
template <typename S, int G>
inline void softmaxColumns(S *p, Eigen::Index rows, Eigen::Index n0, S scale)
{
    constexpr S ninf = -std::numeric_limits<S>::infinity(), floor = std::is_same_v<S, float> ? -80 : -700;
    S m[G], sum[G];
    for (int g = 0; g < G; ++g) {
        const S *c = p + g * rows;
        const Eigen::Index n = n0 + g;
        S mx = ninf;
        packets<S>(attentionRows(n), [&](Eigen::Index k, auto tag) {
            using P = decltype(tag);
            const P x = ploadu<P>(c + k);
            mx = std::max(mx, predux_max(k + lanes<P> <= n ? x : pselect(visible<P>(k, n), x, pset1<P>(ninf))));
        });
        m[g] = mx;
    }
    for (int g = 0; g < G; ++g) {
        S *c = p + g * rows;
        const Eigen::Index n = n0 + g;
        S total = S(0);
        packets<S>(attentionRows(n), [&](Eigen::Index k, auto tag) {
            using P = decltype(tag);
            const P mv = pset1<P>(m[g]);
            P e = pexp(pmax(pmul(psub(ploadu<P>(c + k), mv), pset1<P>(scale)), pset1<P>(floor)));
            if (k + lanes<P> > n) e = pselect(visible<P>(k, n), e, pset1<P>(S(0)));
            pstoreu(c + k, e);
            total += predux(e);
        });
        sum[g] = total;
    }
    for (int g = 0; g < G; ++g) {
        S *c = p + g * rows;
        const S inv = S(1) / sum[g];
        const Eigen::Index len = attentionRows(n0 + g);
        // one loop over the whole column, the zeros below too (a loop of zeros alone became a call to
        // memset for every column)
        packets<S>(rows, [&](Eigen::Index k, auto tag) {
            using P = decltype(tag);
            const P zero = pset1<P>(S(0));
            if (k >= len) {
                pstoreu(c + k, zero);
                return;
            }
            const P x = pmul(ploadu<P>(c + k), pset1<P>(inv));
            pstoreu(c + k, k + lanes<P> <= len ? x : pselect(visible<P>(k, len), x, zero));  // a wide packet across len
        });
    }
}

// Through the softmax of G columns, in place, column g at da + g lda and a + g la, its first n0 + g
// rows visible: da[j] = scale a[j] (da[j] - sum_j' a[j'] da[j']) there, zeros in the rows [n0 + g, keys)
// (a is 0 there: masked keys get no gradient). Both passes over the G columns, as softmaxColumns.
template <typename S, int G>
inline void softmaxBackwardColumns(S *da, Eigen::Index lda, const S *a, Eigen::Index la, Eigen::Index n0,
                                   Eigen::Index keys, S scale)
{
    S dots[G];
    for (int g = 0; g < G; ++g) {
        const S *ag = a + g * la, *dg = da + g * lda;
        const Eigen::Index n = n0 + g;
        S sum = S(0);
        packets<S>(attentionRows(n), [&](Eigen::Index k, auto tag) {
            using P = decltype(tag);
            P x = pmul(ploadu<P>(ag + k), ploadu<P>(dg + k));
            if (k + lanes<P> > n) x = pselect(visible<P>(k, n), x, pset1<P>(S(0)));
            sum += predux(x);
        });
        dots[g] = sum;
    }
    for (int g = 0; g < G; ++g) {
        const S *ag = a + g * la;
        S *dg = da + g * lda;
        const Eigen::Index n = n0 + g;
        // one loop over the rows up to keys (a loop of the zeros alone became a call to memset)
        packets<S>(attentionRows(keys), [&](Eigen::Index k, auto tag) {
            using P = decltype(tag);
            const P old = ploadu<P>(dg + k);
            P v = pmul(pmul(ploadu<P>(ag + k), pset1<P>(scale)), psub(old, pset1<P>(dots[g])));
            if (k + lanes<P> > n) {
                // zeros past n; past keys (outside the caller's block), what the rows held
                v = pselect(visible<P>(k, n), v, pset1<P>(S(0)));
                if (k + lanes<P> > keys) v = pselect(visible<P>(k, keys), v, old);
            }
            pstoreu(dg + k, v);
        });
    }
}

} // namespace softmax_detail

// The causal softmax of the columns [p0, p0 + nq) of one head's padded weights, in place: column i
// holds the scores of query p0 + i against keys 0 .. p0 + i (rows beyond are ignored) and receives
// softmax(scale * scores) there and exact zeros below.
// a is (rows, nq) contiguous (rows a multiple of 8, the column of query p0 at a)
template <typename S>
void causal_softmax_columns(S *a, Eigen::Index p0, Eigen::Index nq, Eigen::Index rows, S scale)
{
    constexpr int G = 4;
    Eigen::Index i = 0;
    for (; i + G <= nq; i += G) softmax_detail::softmaxColumns<S, G>(a + i * rows, rows, p0 + i + 1, scale);
    for (; i < nq; ++i) softmax_detail::softmaxColumns<S, 1>(a + i * rows, rows, p0 + i + 1, scale);
}

// Through the causal softmax and the scale of the columns of queries [q0, q0 + nq), each over the keys
// [0, keys) (keys >= q0 + nq): in the forward pass this was a = softmax(scale * preatt) with the keys
// after each query masked. da receives d(L)/d(preatt) from d(L)/d(a):
// d(L)/d(preatt_j) = scale a_j (d(L)/d(a_j) - sum_j' a_j' d(L)/d(a_j')); masked keys have a_j = 0.
// a and da are (>= keys, nq) with column strides la and lda (multiples of 8), the column of query q0 first
template <typename S>
void causal_softmax_backward_columns(S *da, Eigen::Index lda, const S *a, Eigen::Index la, Eigen::Index q0,
                                     Eigen::Index nq, Eigen::Index keys, S scale)
{
    constexpr int G = 4;
    Eigen::Index i = 0;
    for (; i + G <= nq; i += G)
        softmax_detail::softmaxBackwardColumns<S, G>(da + i * lda, lda, a + i * la, la, q0 + i + 1, keys, scale);
    for (; i < nq; ++i)
        softmax_detail::softmaxBackwardColumns<S, 1>(da + i * lda, lda, a + i * la, la, q0 + i + 1, keys, scale);
}

#pragma GCC diagnostic pop

} // namespace fb::nn
