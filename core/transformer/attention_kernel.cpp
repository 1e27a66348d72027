// One (sequence, head) of causal attention in one kernel (attention_kernel.h). The build's widest
// SIMD packet (P, L floats) runs along the keys for the scores and the softmax, and along the features
// for the weighted sums. A pass takes up to G queries at once: each element of k' (and of v' in the
// backward) is loaded once for all of them, and each key's column of v (of k) once for all of them.
#include "core/transformer/attention_kernel.h"
#include "core/transformer/attention_softmax.h"
#include "core/transformer/simd_packets.h"
#include "core/transformer/transpose_tile.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <type_traits>

namespace fb::nn {

namespace {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // the packet type is __m512 (or __m256, __m128)

using namespace Eigen::internal;
using P = simd::Wide<float>;
constexpr long L = simd::lanes<P>;
constexpr long kMostDh = 64, kMostKeys = kAttentionKernelMostKeys;
constexpr int G = 4;  // queries a pass takes at once

inline long roundUp(long x) { return (x + L - 1) / L * L; }

// f(std::integral_constant<int, gn>{}): a pass's code compiled for each count of queries, 1 to G
template <typename F>
inline void withQueries(int gn, F &&f)
{
    static_assert(G == 4, "one case per count of queries");
    switch (gn) {
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    default: f(std::integral_constant<int, 1>{}); break;
    }
}

// lanes j0 .. j0 + L - 1 of a column whose first n rows are visible: true where j0 + lane < n
inline P visible(long j0, long n) { return softmax_detail::visible<P>(j0, n); }

// Sums of a single packet of features per query (dh = L) run in two halves, even and odd terms, added at
// the end: the FMA's latency otherwise leaves half its throughput idle. The halves depend on dh alone,
// never on how many queries a pass takes, so a query's numbers stay the same in any pass.
template <int W>
constexpr int kHalves = W == 1 ? 2 : 1;

// s[g * ld + j] = sum_d t[d * ld + j] x_g[d] for the key packets [u0, u0 + U) and the Gn columns x_g at
// x + g xs: the scores k' q of Gn queries (or v' dy in the backward)
template <int H, int U, int Gn>
inline void keyPackets(float *s, long ld, const float *t, const float *x, long xs, long dh, long u0)
{
    P acc[H][U][Gn];
    for (int e = 0; e < H; ++e)
        for (int u = 0; u < U; ++u)
            for (int g = 0; g < Gn; ++g) acc[e][u][g] = pzero(P{});
    for (long d0 = 0; d0 < dh; d0 += H)
        for (int e = 0; e < H; ++e) {
            const long d = d0 + e;
            P kv[U];
            for (int u = 0; u < U; ++u) kv[u] = ploadu<P>(t + d * ld + (u0 + u) * L);
            for (int g = 0; g < Gn; ++g) {
                const P xd = pset1<P>(x[g * xs + d]);
                for (int u = 0; u < U; ++u) acc[e][u][g] = pmadd(kv[u], xd, acc[e][u][g]);
            }
        }
    for (int u = 0; u < U; ++u)
        for (int g = 0; g < Gn; ++g) {
            P total = acc[0][u][g];
            for (int e = 1; e < H; ++e) total = padd(total, acc[e][u][g]);
            pstoreu(s + g * ld + (u0 + u) * L, total);
        }
}

// keyPackets over the packets [0, packets), two at a time
template <int H, int Gn>
inline void allKeyPackets(float *s, long ld, const float *t, const float *x, long xs, long dh, long packets)
{
    long u = 0;
    for (; u + 2 <= packets; u += 2) keyPackets<H, 2, Gn>(s, ld, t, x, xs, dh, u);
    if (u < packets) keyPackets<H, 1, Gn>(s, ld, t, x, xs, dh, u);
}

// out_g (+)= sum_{j < n} col_j w_g[j] for the Gn columns out_g at out + g os: W packets of features,
// col_j at c + j cs, the weights w_g at w + g ld (zero past each one's visible keys)
template <int W, int Gn>
inline void featureSums(float *out, long os, bool add, const float *c, long cs, const float *w, long ld, long n)
{
    constexpr int H = kHalves<W>;
    P acc[H][Gn][W];
    for (int e = 0; e < H; ++e)
        for (int g = 0; g < Gn; ++g)
            for (int f = 0; f < W; ++f) acc[e][g][f] = pzero(P{});
    const auto term = [&](int e, long j) {
        P cj[W];
        for (int f = 0; f < W; ++f) cj[f] = ploadu<P>(c + j * cs + f * L);
        for (int g = 0; g < Gn; ++g) {
            const P a = pset1<P>(w[g * ld + j]);
            for (int f = 0; f < W; ++f) acc[e][g][f] = pmadd(cj[f], a, acc[e][g][f]);
        }
    };
    long j = 0;
    for (; j + H <= n; j += H)
        for (int e = 0; e < H; ++e) term(e, j + e);
    for (int e = 0; j < n; ++j, ++e) term(e, j);
    for (int g = 0; g < Gn; ++g)
        for (int f = 0; f < W; ++f) {
            P total = acc[0][g][f];
            for (int e = 1; e < H; ++e) total = padd(total, acc[e][g][f]);
            float *o = out + g * os + f * L;
            pstoreu(o, add ? padd(ploadu<P>(o), total) : total);
        }
}

// The softmax of Gn queries' scores, query g's at s + g ld with n0 + g keys visible, over `packets`
// packets: exp(max(scale (s - max), -80)) / sum, zeros past the visible keys (the clamp keeps exp from
// denormals, as attention_softmax.h), written to the columns at att + g la (la rows each: zeros below
// the packets). Each pass runs over the Gn queries before the next, so one query's reductions overlap
// the others' arithmetic.
template <int Gn>
inline void softmaxQueries(float *s, long ld, long n0, long packets, float scale, float *att, long la)
{
    constexpr float ninf = -std::numeric_limits<float>::infinity();
    P mx[Gn], sum[Gn];
    for (int g = 0; g < Gn; ++g) {
        const float *sg = s + g * ld;
        const long n = n0 + g;
        mx[g] = pset1<P>(ninf);
        for (long u = 0; u * L < n; ++u) {
            const P x = ploadu<P>(sg + u * L);
            mx[g] = pmax(mx[g], (u + 1) * L <= n ? x : pselect(visible(u * L, n), x, pset1<P>(ninf)));
        }
    }
    const P sc = pset1<P>(scale), floor = pset1<P>(-80.0f);
    for (int g = 0; g < Gn; ++g) {
        float *sg = s + g * ld;
        const long n = n0 + g;
        const P m = pset1<P>(predux_max(mx[g]));
        sum[g] = pzero(P{});
        for (long u = 0; u < packets; ++u) {
            P e = pexp(pmax(pmul(psub(ploadu<P>(sg + u * L), m), sc), floor));
            if ((u + 1) * L > n) e = pselect(visible(u * L, n), e, pzero(P{}));
            pstoreu(sg + u * L, e);
            sum[g] = padd(sum[g], e);
        }
    }
    const long whole = std::min(packets, la / L);  // packets inside the column's rows
    for (int g = 0; g < Gn; ++g) {
        const float *sg = s + g * ld;
        float *column = att + g * la;
        const P inv = pset1<P>(1.0f / predux(sum[g]));
        for (long u = 0; u < whole; ++u) pstoreu(column + u * L, pmul(ploadu<P>(sg + u * L), inv));
        long row = whole * L;
        if (whole < packets) {
            // a last packet across the column's end (rows in multiples of 8, packets of 16)
            alignas(64) float last[L];
            pstoreu(last, pmul(ploadu<P>(sg + whole * L), inv));
            for (; row < la; ++row) column[row] = last[row - whole * L];
        }
        for (; row + L <= la; row += L) pstoreu(column + row, pzero(P{}));
        for (; row < la; ++row) column[row] = 0.0f;
    }
}

// A head's columns side by side, W packets each, when a pass reads them more than once: columns
// [0, n) of stride `stride` at from, or from itself when `once` (a single pass). In the step's layout a
// head's q, k and v columns stand B (d + 2 kv_heads d_head) floats apart, at the induction defaults
// 24 KiB, a multiple of 4 KiB (dy's B d floats: 8 KiB): every position of a head falls in the same set
// of the first-level cache, so a second pass over them missed again. bench_transformer --attention (a
// layer's heads in that layout, same build flags): the backward 5 to 6% faster at the induction
// defaults, the forward 3 to 4%, the text size 1 to 2%. (A test loop with its buffers placed
// otherwise gained 15 to 19%: how much depends on where the step's buffers fall in the cache.)
struct Columns {
    const float *at;
    long stride;
};

template <int W>
inline Columns sideBySide(const float *from, long stride, long n, bool once, float *to)
{
    if (once) return { from, stride };
    for (long c = 0; c < n; ++c)
        for (int f = 0; f < W; ++f) pstoreu(to + (c * W + f) * L, ploadu<P>(from + c * stride + f * L));
    return { to, W * L };
}

template <int W>
void forwardHead(const AttentionHead &h, float *y, long ys, float *att, long ld)
{
    constexpr int H = kHalves<W>;
    const long keys = h.p0 + h.nq, Kp = roundUp(keys);
    alignas(64) float kt[kMostDh * kMostKeys];
    alignas(64) float s[G * kMostKeys];
    alignas(64) float vc[kMostDh * kMostKeys];
    packTransposed(h.k, h.ks, keys, h.dh, kt, Kp);  // kt(d, j) = k_j[d], the keys along the rows
    const Columns v = sideBySide<W>(h.v, h.vs, keys, h.nq <= G, vc);  // read by every group of queries
    for (long c0 = 0; c0 < h.nq; c0 += G) {
        const int gn = int(std::min<long>(G, h.nq - c0));
        const long n = h.p0 + c0 + gn, packets = (n + L - 1) / L;  // the last query's visible keys
        const float *q = h.q + c0 * h.qs;
        const long n0 = h.p0 + c0 + 1;
        float *a = att + (n0 - 1) * ld;  // the group's columns of weights
        withQueries(gn, [&](auto count) {
            constexpr int Gn = decltype(count)::value;
            allKeyPackets<H, Gn>(s, Kp, kt, q, h.qs, h.dh, packets);
            softmaxQueries<Gn>(s, Kp, n0, packets, h.scale, a, ld);
            // y = v a over the keys the group's last query sees (a is zero past each one's own)
            featureSums<W, Gn>(y + c0 * ys, ys, false, v.at, v.stride, a, ld, n);
        });
    }
}

// dv_j (+)= sum_c a(j, c) dy_c and dk_j (+)= sum_c ds(j, c) q_c for the KG keys [j0, j0 + KG): the
// queries c that see key j0 (p0 + c >= j0); a in att's columns p0 + c (stride ld), ds in columns c of
// stride lds. Rows past a query's position hold zeros in both up to its group's last packet, which
// reaches j0 + KG - 1 (KG divides L).
template <int W, int KG>
void keyGradients(const AttentionHead &h, long j0, const float *dy, long dys, const float *att, long ld,
                  const float *ds, long lds, float *dk, long dks, float *dv, long dvs, bool add)
{
    P accV[KG][W], accK[KG][W];
    for (int r = 0; r < KG; ++r)
        for (int f = 0; f < W; ++f) accV[r][f] = accK[r][f] = pzero(P{});
    for (long c = std::max<long>(0, j0 - h.p0); c < h.nq; ++c) {
        P dyc[W], qc[W];
        for (int f = 0; f < W; ++f) {
            dyc[f] = ploadu<P>(dy + c * dys + f * L);
            qc[f] = ploadu<P>(h.q + c * h.qs + f * L);
        }
        const float *a = att + (h.p0 + c) * ld + j0, *g = ds + c * lds + j0;
        for (int r = 0; r < KG; ++r) {
            const P ar = pset1<P>(a[r]), gr = pset1<P>(g[r]);
            for (int f = 0; f < W; ++f) {
                accV[r][f] = pmadd(dyc[f], ar, accV[r][f]);
                accK[r][f] = pmadd(qc[f], gr, accK[r][f]);
            }
        }
    }
    const long keys = h.p0 + h.nq;
    for (int r = 0; r < KG && j0 + r < keys; ++r)
        for (int f = 0; f < W; ++f) {
            float *v = dv + (j0 + r) * dvs + f * L, *k = dk + (j0 + r) * dks + f * L;
            pstoreu(v, add ? padd(ploadu<P>(v), accV[r][f]) : accV[r][f]);
            pstoreu(k, add ? padd(ploadu<P>(k), accK[r][f]) : accK[r][f]);
        }
}

template <int W>
void backwardHead(const AttentionHead &h, const float *dy, long dys, const float *att, long ld, float *dq, long dqs,
                  float *dk, long dks, float *dv, long dvs, bool writeQ, bool writeKV)
{
    constexpr int H = kHalves<W>;
    const long keys = h.p0 + h.nq, Kp = roundUp(keys);
    // 194 KiB of stack (66 KiB in the forward): a thread's stack is megabytes (oneTBB's workers' too)
    alignas(64) float vt[kMostDh * kMostKeys];
    alignas(64) float ds[kMostKeys * kMostKeys];  // d(L)/d(scores) of every query, column c at ds + c Kp
    alignas(64) float pad[G * kMostKeys];
    alignas(64) float kCopy[kMostDh * kMostKeys], qCopy[kMostDh * kMostKeys], dyCopy[kMostDh * kMostKeys];
    packTransposed(h.v, h.vs, keys, h.dh, vt, Kp);  // vt(d, j) = v_j[d]
    // k is read by every group of queries, q and dy by every group of keys (keyGradients)
    constexpr int KG = W <= 2 ? 4 : 2;
    const Columns k = sideBySide<W>(h.k, h.ks, keys, h.nq <= G, kCopy);
    const bool oneGroup = keys <= KG || h.nq == 1;  // (one query: one column each, read again from the cache)
    const Columns q = sideBySide<W>(h.q, h.qs, h.nq, oneGroup, qCopy);
    const Columns dyc = sideBySide<W>(dy, dys, h.nq, oneGroup, dyCopy);
    const P sc = pset1<P>(h.scale);
    for (long c0 = 0; c0 < h.nq; c0 += G) {
        const int gn = int(std::min<long>(G, h.nq - c0));
        const long n = h.p0 + c0 + gn, packets = (n + L - 1) / L;
        float *s = ds + c0 * Kp;
        // in the forward pass this was: y = v a; d(L)/d(a) = v' dy
        withQueries(gn, [&](auto count) {
            allKeyPackets<H, decltype(count)::value>(s, Kp, vt, dyc.at + c0 * dyc.stride, dyc.stride, h.dh, packets);
        });
        // through the softmax and the scale: ds_j = scale a_j (da_j - sum_j' a_j' da_j') over the visible
        // keys, 0 past them (selected, as attention_softmax.h: an inf in a later key's da stays out). a is
        // read in place, or, when the packets pass the column's end (rows in multiples of 8, packets of
        // 16), from a copy padded with zeros.
        for (int g = 0; g < gn; ++g) {
            const long visibleKeys = n - gn + g + 1;
            const float *ag = att + (visibleKeys - 1) * ld;
            if (packets * L > ld) {
                float *copy = pad + g * Kp;
                std::copy(ag, ag + ld, copy);
                std::fill(copy + ld, copy + packets * L, 0.0f);
                ag = copy;
            }
            const auto seen = [&](long u, P x) {
                return (u + 1) * L <= visibleKeys ? x : pselect(visible(u * L, visibleKeys), x, pzero(P{}));
            };
            float *sg = s + g * Kp;
            P dot = pzero(P{});
            for (long u = 0; u < packets; ++u) dot = padd(dot, seen(u, pmul(ploadu<P>(ag + u * L), ploadu<P>(sg + u * L))));
            const P sum = pset1<P>(predux(dot));
            for (long u = 0; u < packets; ++u)
                pstoreu(sg + u * L, seen(u, pmul(pmul(ploadu<P>(ag + u * L), sc), psub(ploadu<P>(sg + u * L), sum))));
        }
        // in the forward pass this was: scores = k' q; d(L)/d(q) = k ds
        withQueries(gn, [&](auto count) {
            featureSums<W, decltype(count)::value>(dq + c0 * dqs, dqs, !writeQ, k.at, k.stride, s, Kp, n);
        });
    }
    // d(L)/d(v) = dy a' and d(L)/d(k) = q ds', a few keys at a time
    AttentionHead hq = h;
    hq.q = q.at;
    hq.qs = q.stride;
    for (long j0 = 0; j0 < keys; j0 += KG)
        keyGradients<W, KG>(hq, j0, dyc.at, dyc.stride, att, ld, ds, Kp, dk, dks, dv, dvs, !writeKV);
}

// f(std::integral_constant<int, W>{}) for a head of dh = W packets of features, W = 1 .. 4
template <typename F>
inline void withWidth(long dh, F &&f)
{
    switch (dh / L) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: assert(false && "attention_kernel_fits refuses every other width"); break;
    }
}

#pragma GCC diagnostic pop

} // namespace

bool attention_kernel_fits(long dh, long keys)
{
    // one to four packets of features (the cases below): 16 to 64 with AVX-512, 8 to 32 with AVX2
    return dh > 0 && dh % L == 0 && dh / L <= 4 && dh <= kMostDh && keys > 0 && keys <= kMostKeys;
}

void attention_kernel_forward(const AttentionHead &h, float *y, long ys, float *att, long ld)
{
    withWidth(h.dh, [&](auto width) { forwardHead<decltype(width)::value>(h, y, ys, att, ld); });
}

void attention_kernel_backward(const AttentionHead &h, const float *dy, long dys, const float *att, long ld, float *dq,
                               long dqs, float *dk, long dks, float *dv, long dvs, bool writeQ, bool writeKV)
{
    withWidth(h.dh, [&](auto width) {
        backwardHead<decltype(width)::value>(h, dy, dys, att, ld, dq, dqs, dk, dks, dv, dvs, writeQ, writeKV);
    });
}

} // namespace fb::nn
