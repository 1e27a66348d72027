#pragma once
// LayerNorm over the C features of every column, like torch.nn.LayerNorm(C) (biased variance), forward
// and backward, and the column sums of a bias's gradient, in SIMD packets. A column is only a few
// packets long at the model sizes (C = 64 or 128): Eigen's column expressions, one column at a time,
// spent most of their time in each column's reductions, one after the other (6% of an induction step).
// Here four columns go through each pass before the next pass starts, each with its own accumulator,
// so their reductions overlap; rows past the last whole packet are summed one by one. A column's
// arithmetic is the same whether it runs in a group of four or alone, so the numbers do not depend on
// how the columns are cut among threads.
#include "core/training/layers.h"
#include "core/transformer/simd_packets.h"

#include <Eigen/Core>

#include <cmath>

namespace fb::nn {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // the packet type is __m512 (or __m256d, __m128)

namespace layernorm_detail {

using namespace Eigen::internal;

// the build's widest packet (simd_packets.h) and its scalars
template <typename S>
using Packet = simd::Wide<S>;
template <typename S>
constexpr Eigen::Index kLanes = simd::lanes<Packet<S>>;

// G columns at once: column g of x at x + g ldx (and likewise out): out = (x - mean) rstd w + b
template <typename S, int G>
inline void forwardColumns(S *out, Eigen::Index ldo, S *mean, S *rstd, const S *x, Eigen::Index ldx, const S *w,
                           const S *b, Eigen::Index C, S eps)
{
    using P = Packet<S>;
    constexpr Eigen::Index L = kLanes<S>;
    const Eigen::Index whole = C / L * L;
    P acc[G];
    S m[G], r[G];
    for (int g = 0; g < G; ++g) acc[g] = pset1<P>(S(0));
    for (Eigen::Index k = 0; k < whole; k += L)
        for (int g = 0; g < G; ++g) acc[g] = padd(acc[g], ploadu<P>(x + g * ldx + k));
    for (int g = 0; g < G; ++g) {
        S s = predux(acc[g]);
        for (Eigen::Index k = whole; k < C; ++k) s += x[g * ldx + k];
        m[g] = s / S(C);
        acc[g] = pset1<P>(S(0));
    }
    for (Eigen::Index k = 0; k < whole; k += L)
        for (int g = 0; g < G; ++g) {
            const P dev = psub(ploadu<P>(x + g * ldx + k), pset1<P>(m[g]));
            acc[g] = pmadd(dev, dev, acc[g]);
        }
    for (int g = 0; g < G; ++g) {
        S v = predux(acc[g]);
        for (Eigen::Index k = whole; k < C; ++k) v += (x[g * ldx + k] - m[g]) * (x[g * ldx + k] - m[g]);
        r[g] = S(1) / std::sqrt(v / S(C) + eps);
    }
    for (Eigen::Index k = 0; k < whole; k += L) {
        const P wk = ploadu<P>(w + k), bk = ploadu<P>(b + k);
        for (int g = 0; g < G; ++g) {
            const P norm = pmul(psub(ploadu<P>(x + g * ldx + k), pset1<P>(m[g])), pset1<P>(r[g]));
            pstoreu(out + g * ldo + k, pmadd(norm, wk, bk));
        }
    }
    for (int g = 0; g < G; ++g) {
        for (Eigen::Index k = whole; k < C; ++k) out[g * ldo + k] = (x[g * ldx + k] - m[g]) * r[g] * w[k] + b[k];
        mean[g] = m[g];
        rstd[g] = r[g];
    }
}

// G columns at once: dinp = base + (dnorm - mean(dnorm) - norm mean(dnorm norm)) rstd, dnorm = dout w,
// base 0 when null (it may be dinp itself: +=), and the same written to copy unless it is null
template <typename S, int G>
inline void backwardInpColumns(S *dinp, Eigen::Index ldi, const S *base, Eigen::Index ldb, S *copy,
                               Eigen::Index ldc, const S *dout, Eigen::Index ldd, const S *x, Eigen::Index ldx,
                               const S *w, const S *mean, const S *rstd, Eigen::Index C)
{
    using P = Packet<S>;
    constexpr Eigen::Index L = kLanes<S>;
    const Eigen::Index whole = C / L * L;
    P s1[G], s2[G];
    S a[G], c[G];
    for (int g = 0; g < G; ++g) s1[g] = s2[g] = pset1<P>(S(0));
    for (Eigen::Index k = 0; k < whole; k += L) {
        const P wk = ploadu<P>(w + k);
        for (int g = 0; g < G; ++g) {
            const P dnorm = pmul(ploadu<P>(dout + g * ldd + k), wk);
            const P norm = pmul(psub(ploadu<P>(x + g * ldx + k), pset1<P>(mean[g])), pset1<P>(rstd[g]));
            s1[g] = padd(s1[g], dnorm);
            s2[g] = pmadd(dnorm, norm, s2[g]);
        }
    }
    for (int g = 0; g < G; ++g) {
        S t1 = predux(s1[g]), t2 = predux(s2[g]);
        for (Eigen::Index k = whole; k < C; ++k) {
            const S dnorm = dout[g * ldd + k] * w[k], norm = (x[g * ldx + k] - mean[g]) * rstd[g];
            t1 += dnorm;
            t2 += dnorm * norm;
        }
        a[g] = t1 / S(C);
        c[g] = t2 / S(C);
    }
    for (Eigen::Index k = 0; k < whole; k += L) {
        const P wk = ploadu<P>(w + k);
        for (int g = 0; g < G; ++g) {
            const P dnorm = pmul(ploadu<P>(dout + g * ldd + k), wk);
            const P norm = pmul(psub(ploadu<P>(x + g * ldx + k), pset1<P>(mean[g])), pset1<P>(rstd[g]));
            P v = pmul(psub(psub(dnorm, pset1<P>(a[g])), pmul(norm, pset1<P>(c[g]))), pset1<P>(rstd[g]));
            if (base) v = padd(ploadu<P>(base + g * ldb + k), v);
            pstoreu(dinp + g * ldi + k, v);
            if (copy) pstoreu(copy + g * ldc + k, v);
        }
    }
    for (int g = 0; g < G; ++g)
        for (Eigen::Index k = whole; k < C; ++k) {
            const S dnorm = dout[g * ldd + k] * w[k], norm = (x[g * ldx + k] - mean[g]) * rstd[g];
            S v = (dnorm - a[g] - norm * c[g]) * rstd[g];
            if (base) v = base[g * ldb + k] + v;
            dinp[g * ldi + k] = v;
            if (copy) copy[g * ldc + k] = v;
        }
}

// R packets of rows from row k, summed over all N columns in registers and then added once:
// dbias += sum_n dout_n and, with the norm (x, mean and rstd), dweight += sum_n dout_n norm_n
template <typename S, int R, bool Norm>
inline void columnSums(S *dweight, S *dbias, const S *dout, Eigen::Index ldd, const S *x, Eigen::Index ldx,
                       const S *mean, const S *rstd, Eigen::Index N, Eigen::Index k)
{
    using P = Packet<S>;
    constexpr Eigen::Index L = kLanes<S>;
    P aw[R], ab[R];
    for (int j = 0; j < R; ++j) aw[j] = ab[j] = pset1<P>(S(0));
    for (Eigen::Index n = 0; n < N; ++n) {
        const S *d = dout + n * ldd + k;
        for (int j = 0; j < R; ++j) {
            const P dj = ploadu<P>(d + j * L);
            ab[j] = padd(ab[j], dj);
            if constexpr (Norm) {
                const P norm = pmul(psub(ploadu<P>(x + n * ldx + k + j * L), pset1<P>(mean[n])), pset1<P>(rstd[n]));
                aw[j] = pmadd(dj, norm, aw[j]);
            }
        }
    }
    for (int j = 0; j < R; ++j) {
        pstoreu(dbias + k + j * L, padd(ploadu<P>(dbias + k + j * L), ab[j]));
        if constexpr (Norm) pstoreu(dweight + k + j * L, padd(ploadu<P>(dweight + k + j * L), aw[j]));
    }
}

// columnSums over all C rows: blocks of 4 packets, then single packets, then the rows one by one
template <typename S, bool Norm>
inline void allColumnSums(S *dweight, S *dbias, const S *dout, Eigen::Index ldd, const S *x, Eigen::Index ldx,
                          const S *mean, const S *rstd, Eigen::Index C, Eigen::Index N)
{
    constexpr Eigen::Index L = kLanes<S>;
    Eigen::Index k = 0;
    for (; k + 4 * L <= C; k += 4 * L) columnSums<S, 4, Norm>(dweight, dbias, dout, ldd, x, ldx, mean, rstd, N, k);
    for (; k + L <= C; k += L) columnSums<S, 1, Norm>(dweight, dbias, dout, ldd, x, ldx, mean, rstd, N, k);
    for (; k < C; ++k) {
        S sw = S(0), sb = S(0);
        for (Eigen::Index n = 0; n < N; ++n) {
            sb += dout[n * ldd + k];
            if constexpr (Norm) sw += dout[n * ldd + k] * (x[n * ldx + k] - mean[n]) * rstd[n];
        }
        dbias[k] += sb;
        if constexpr (Norm) dweight[k] += sw;
    }
}

} // namespace layernorm_detail

// out is (C, N), mean and rstd are (N): kept for the backward pass, inp is (C, N),
// weight and bias are (C). out may not alias inp.
template <typename S>
void layernorm_forward(Out<S> out, VecOut<S> mean, VecOut<S> rstd, const In<S> &inp, const VecIn<S> &weight,
                       const VecIn<S> &bias, S eps = S(1e-5))
{
    const Eigen::Index C = inp.rows(), N = inp.cols(), ldo = out.outerStride(), ldx = inp.outerStride();
    Eigen::Index n = 0;
    for (; n + 4 <= N; n += 4)
        layernorm_detail::forwardColumns<S, 4>(out.data() + n * ldo, ldo, mean.data() + n, rstd.data() + n,
                                               inp.data() + n * ldx, ldx, weight.data(), bias.data(), C, eps);
    for (; n < N; ++n)
        layernorm_detail::forwardColumns<S, 1>(out.data() + n * ldo, ldo, mean.data() + n, rstd.data() + n,
                                               inp.data() + n * ldx, ldx, weight.data(), bias.data(), C, eps);
}

// Gradient with respect to the input only; the parameter gradients are reductions over all columns,
// done once by layernorm_backward_params. dinp is (C, N): dinp = base + the gradient (base null: the
// gradient alone; base may view dinp itself), also written to copy unless it is null. dout is (C, N),
// inp is (C, N), weight is (C).
template <typename S>
void layernorm_backward_inp_set(Out<S> dinp, const In<S> *base, Out<S> *copy, const In<S> &dout, const In<S> &inp,
                                const VecIn<S> &weight, const VecIn<S> &mean, const VecIn<S> &rstd)
{
    // in the forward pass this was: out = (inp - mean) * rstd * weight + bias
    // with norm = (inp - mean) * rstd and dnorm = dout * weight:
    // d(L)/d(inp) = rstd * (dnorm - mean(dnorm) - norm * mean(dnorm * norm))
    const Eigen::Index C = inp.rows(), N = inp.cols(), ldi = dinp.outerStride(), ldd = dout.outerStride(),
                       ldx = inp.outerStride(), ldb = base ? base->outerStride() : 0,
                       ldc = copy ? copy->outerStride() : 0;
    const auto cols = [](auto *m, Eigen::Index ld, Eigen::Index n) { return m ? m->data() + n * ld : nullptr; };
    Eigen::Index n = 0;
    for (; n + 4 <= N; n += 4)
        layernorm_detail::backwardInpColumns<S, 4>(dinp.data() + n * ldi, ldi, cols(base, ldb, n), ldb,
                                                   cols(copy, ldc, n), ldc, dout.data() + n * ldd, ldd,
                                                   inp.data() + n * ldx, ldx, weight.data(), mean.data() + n,
                                                   rstd.data() + n, C);
    for (; n < N; ++n)
        layernorm_detail::backwardInpColumns<S, 1>(dinp.data() + n * ldi, ldi, cols(base, ldb, n), ldb,
                                                   cols(copy, ldc, n), ldc, dout.data() + n * ldd, ldd,
                                                   inp.data() + n * ldx, ldx, weight.data(), mean.data() + n,
                                                   rstd.data() + n, C);
}

// dinp += the gradient with respect to the input (layernorm_backward_inp_set with base dinp)
template <typename S>
void layernorm_backward_inp(Out<S> dinp, const In<S> &dout, const In<S> &inp, const VecIn<S> &weight,
                            const VecIn<S> &mean, const VecIn<S> &rstd)
{
    const In<S> base = dinp;
    layernorm_backward_inp_set<S>(dinp, &base, nullptr, dout, inp, weight, mean, rstd);
}

// dweight and dbias are (C), dout is (C, N), inp is (C, N), mean and rstd are (N)
template <typename S>
void layernorm_backward_params(VecOut<S> dweight, VecOut<S> dbias, const In<S> &dout, const In<S> &inp,
                               const VecIn<S> &mean, const VecIn<S> &rstd)
{
    // in the forward pass this was: out = norm * weight + bias, norm = (inp - mean) * rstd
    // d(L)/d(weight) = sum over columns of dout * norm;  d(L)/d(bias) = sum over columns of dout
    layernorm_detail::allColumnSums<S, true>(dweight.data(), dbias.data(), dout.data(), dout.outerStride(),
                                             inp.data(), inp.outerStride(), mean.data(), rstd.data(), inp.rows(),
                                             inp.cols());
}

// dbias is (OC), dout is (OC, N)
template <typename S>
void bias_backward(VecOut<S> dbias, const In<S> &dout)
{
    // in the forward pass this was: out = bias (broadcast over columns) + ...
    // d(L)/d(bias) = sum over columns of d(L)/d(out), in registers a block of rows at a time
    layernorm_detail::allColumnSums<S, false>(nullptr, dbias.data(), dout.data(), dout.outerStride(), nullptr, 0,
                                              nullptr, nullptr, dout.rows(), dout.cols());
}

#pragma GCC diagnostic pop

} // namespace fb::nn
