// The chunked form of the linear mixers (chunked_mixer.h). Every matrix product goes through
// chunked_products.h (compiled once); the rest is elementwise work on the chunk's small matrices,
// carved from the head's scratch (MixerHead::work), so nothing allocates.
#include "core/transformer/chunked_mixer.h"

#include "core/transformer/chunked_products.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fb::nn {

namespace {

template <typename S>
using MapM = Eigen::Map<Mat<S>>;
template <typename S>
using CMapM = Eigen::Map<const Mat<S>>;

// The log of the smallest normal number: the floor of a log-decay.
template <typename S>
const S kLogTiny = std::log(std::numeric_limits<S>::min());

// Consecutive matrices of the scratch, each contiguous.
template <typename S>
struct Carve {
    S *p;
    MapM<S> mat(Eigen::Index rows, Eigen::Index cols)
    {
        MapM<S> m(p, rows, cols);
        p += rows * cols;
        return m;
    }
};

// phi(x) = elu(x) + 1, and phi'(x) = 1 above 0, exp(x) = phi(x) below.
template <typename S, typename X>
void phi(MapM<S> &out, const X &x)
{
    out = (x.array() > S(0)).select(x.array() + S(1), x.array().exp()).matrix();
}

// Linear attention's chunk [s, s + n): F = phi(Q), G = phi(K), A = triu(G' F), the denominators and
// the outputs Y = (S0 F + V A) / (z0' F + 1' A), S0 and z0 read at position s - 1 (zero at s = 0).
// The forward writes Y into y; the backward recomputes it into its scratch.
template <typename S>
void linear_chunk(const MixerHead<S> &m, Out<S> Y, MapM<S> &F, MapM<S> &G, MapM<S> &A, MapM<S> &den, const In<S> &q,
                  const In<S> &k, const In<S> &v, Eigen::Index s, Eigen::Index n)
{
    const Eigen::Index dh = m.dh, dd = dh * dh;
    phi<S>(F, q.middleCols(s, n));
    phi<S>(G, k.middleCols(s, n));
    // A(i, j) = phi(k_i)' phi(q_j) for i <= j
    product<S>(A, G.transpose(), F, false);
    A.template triangularView<Eigen::StrictlyLower>().setZero();
    den = A.colwise().sum().transpose();
    if (s > 0) {
        const CMapM<S> S0(m.states + (s - 1) * dd, dh, dh), z0(m.zden + (s - 1) * (dh + 1), dh, 1);
        product<S>(Y, S0, F, false);
        product<S>(Y, v.middleCols(s, n), A, true);
        product<S>(den, F.transpose(), z0, true);
    } else {
        product<S>(Y, v.middleCols(s, n), A, false);
    }
    for (Eigen::Index j = 0; j < n; ++j) Y.col(j) /= den(j, 0);
}

template <typename S>
void linear_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v)
{
    const Eigen::Index dh = m.dh, T = q.cols(), dd = dh * dh;
    for (Eigen::Index s = 0; s < T; s += kMixerChunk) {
        const Eigen::Index n = std::min(kMixerChunk, T - s), e = s + n - 1;
        Carve<S> c{m.work};
        MapM<S> F = c.mat(dh, n), G = c.mat(dh, n), A = c.mat(n, n), den = c.mat(n, 1);
        linear_chunk<S>(m, y.middleCols(s, n), F, G, A, den, q, k, v, s, n);
        // S = S0 + V G';  z = z0 + G 1
        MapM<S> Sn(m.states + e * dd, dh, dh), zn(m.zden + e * (dh + 1), dh, 1);
        if (s > 0) {
            Sn = CMapM<S>(m.states + (s - 1) * dd, dh, dh);
            zn = CMapM<S>(m.zden + (s - 1) * (dh + 1), dh, 1);
        } else {
            Sn.setZero();
            zn.setZero();
        }
        product<S>(Sn, v.middleCols(s, n), G.transpose(), true);
        zn += G.rowwise().sum();
        m.zden[e * (dh + 1) + dh] = den(n - 1, 0);
    }
}

template <typename S>
void linear_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                     const In<S> &k, const In<S> &v)
{
    const Eigen::Index dh = m.dh, T = q.cols(), dd = dh * dh;
    MapM<S> dS(m.dS, dh, dh), dz(m.dz, dh, 1);  // d(L)/d(S), d(L)/d(z) at the end of the chunk
    dS.setZero();
    dz.setZero();
    for (Eigen::Index s = (T - 1) / kMixerChunk * kMixerChunk; s >= 0; s -= kMixerChunk) {
        const Eigen::Index n = std::min(kMixerChunk, T - s);
        Carve<S> c{m.work};
        MapM<S> F = c.mat(dh, n), G = c.mat(dh, n), Y = c.mat(dh, n), dN = c.mat(dh, n), dF = c.mat(dh, n),
                dG = c.mat(dh, n), A = c.mat(n, n), dA = c.mat(n, n), den = c.mat(n, 1), dden = c.mat(n, 1);
        const auto V = v.middleCols(s, n);
        const auto dY = dy.middleCols(s, n);
        linear_chunk<S>(m, Y, F, G, A, den, q, k, v, s, n);
        const CMapM<S> S0(s > 0 ? m.states + (s - 1) * dd : m.states, dh, dh),
            z0(s > 0 ? m.zden + (s - 1) * (dh + 1) : m.zden, dh, 1);
        // in the forward pass this was: y_j = num_j / den_j
        for (Eigen::Index j = 0; j < n; ++j) {
            dN.col(j) = dY.col(j) / den(j, 0);
            dden(j, 0) = -dY.col(j).dot(Y.col(j)) / den(j, 0);
        }
        // S = S0 + V G',  z = z0 + G 1: d(L)/d(V) += dS G, d(L)/d(G) = dS' V + dz 1'
        auto dV = dv.middleCols(s, n);
        product<S>(dV, dS, G, true);
        product<S>(dG, dS.transpose(), V, false);
        dG.colwise() += dz.col(0);
        // num = S0 F + V A,  den = z0' F + 1' A: the carry becomes d(L)/d(S0), d(L)/d(z0)
        product<S>(dS, dN, F.transpose(), true);
        product<S>(dz, F, dden, true);
        if (s > 0) {
            product<S>(dF, S0.transpose(), dN, false);
            dF.noalias() += z0 * dden.transpose();
        } else {
            dF.setZero();
        }
        product<S>(dA, V.transpose(), dN, false);
        dA.rowwise() += dden.col(0).transpose();
        dA.template triangularView<Eigen::StrictlyLower>().setZero();
        product<S>(dV, dN, A.transpose(), true);
        // A = triu(G' F)
        product<S>(dF, G, dA, true);
        product<S>(dG, F, dA.transpose(), true);
        // F = phi(Q), G = phi(K)
        auto qs = q.middleCols(s, n);
        auto ks = k.middleCols(s, n);
        dq.middleCols(s, n).array() += (qs.array() > S(0)).select(dF.array(), dF.array() * F.array());
        dk.middleCols(s, n).array() += (ks.array() > S(0)).select(dG.array(), dG.array() * G.array());
    }
}

// The delta rule's chunk: the normalised keys K (and their norms), the log-decays lam (lam_0 = 0,
// lam_{j+1} = lam_j + log alpha_j; all 0 for DeltaNet) and gam = exp(lam), the decays
// Fd(i, j) = gam_j / gam_i (i < j) and Ed(i, j) = gam_{j+1} / gam_i (i <= j), all 1 for DeltaNet, the
// negated solve matrix An = -A, the updates U solving U (I + A) = R, and SK = S0 K (s > 0).
template <typename S>
struct DeltaChunk {
    MapM<S> K, SK, U, Gk, An, Fd, Ed, lam, gam, nrm;
    Eigen::Index s, n;

    DeltaChunk(Carve<S> &c, Eigen::Index dh, Eigen::Index s_, Eigen::Index n_)
        : K(c.mat(dh, n_)), SK(c.mat(dh, n_)), U(c.mat(dh, n_)), Gk(c.mat(n_, n_)), An(c.mat(n_, n_)),
          Fd(c.mat(n_, n_)), Ed(c.mat(n_, n_)), lam(c.mat(n_ + 1, 1)), gam(c.mat(n_ + 1, 1)), nrm(c.mat(n_, 1)), s(s_),
          n(n_)
    {
    }

    S beta(const MixerHead<S> &m, Eigen::Index j) const { return m.beta[(s + j) * m.gateStride]; }

    void compute(const MixerHead<S> &m, const In<S> &k, const In<S> &v, const CMapM<S> &S0)
    {
        const bool gated = m.kind == Mixer::GatedDeltaNet;
        lam(0, 0) = S(0);
        for (Eigen::Index j = 0; j < n; ++j) {
            nrm(j, 0) = std::sqrt(k.col(s + j).squaredNorm() + S(1e-6));
            K.col(j) = k.col(s + j) / nrm(j, 0);
            // a decay of exactly 0 (a sigmoid below float's range) empties the state: log 0 = -inf would
            // make the differences below NaN, so it counts as the smallest normal number's log
            lam(j + 1, 0) = lam(j, 0) + (gated ? std::max(std::log(m.alpha[(s + j) * m.gateStride]), kLogTiny<S>) : S(0));
        }
        gam = lam.array().exp().matrix();
        if (gated) {
            // exp of the differences, clamped at 0 where i > j (entries that are masked anyway)
            for (Eigen::Index j = 0; j < n; ++j)
                for (Eigen::Index i = 0; i < n; ++i) {
                    Fd(i, j) = std::min(lam(j, 0) - lam(i, 0), S(0));
                    Ed(i, j) = std::min(lam(j + 1, 0) - lam(i, 0), S(0));
                }
            Fd = Fd.array().exp().matrix();
            Ed = Ed.array().exp().matrix();
        } else {
            Fd.setOnes();
            Ed.setOnes();
        }
        // An(i, j) = -beta_j (gam_j / gam_i) k_i' k_j for i < j
        product<S>(Gk, K.transpose(), K, false);
        An.setZero();
        for (Eigen::Index j = 1; j < n; ++j)
            for (Eigen::Index i = 0; i < j; ++i) An(i, j) = -beta(m, j) * Fd(i, j) * Gk(i, j);
        // r_j = beta_j (v_j - gam_j S0 k_j), then u_j = r_j - sum_{i < j} A(i, j) u_i
        U = v.middleCols(s, n);
        if (s > 0) {
            product<S>(SK, S0, K, false);
            for (Eigen::Index j = 0; j < n; ++j) U.col(j) -= gam(j, 0) * SK.col(j);
        } else {
            SK.setZero();
        }
        for (Eigen::Index j = 0; j < n; ++j) {
            U.col(j) *= beta(m, j);
            if (j > 0) product<S>(U.col(j), U.leftCols(j), An.col(j).head(j), true);
        }
    }
};

template <typename S>
void delta_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v)
{
    const Eigen::Index dh = m.dh, T = q.cols(), dd = dh * dh;
    for (Eigen::Index s = 0; s < T; s += kMixerChunk) {
        const Eigen::Index n = std::min(kMixerChunk, T - s), e = s + n - 1;
        Carve<S> c{m.work};
        DeltaChunk<S> ch(c, dh, s, n);
        MapM<S> P = c.mat(n, n);
        const CMapM<S> S0(s > 0 ? m.states + (s - 1) * dd : m.states, dh, dh);
        ch.compute(m, k, v, S0);
        // P(i, j) = (gam_{j+1} / gam_i) k_i' q_j for i <= j
        const auto Q = q.middleCols(s, n);
        product<S>(P, ch.K.transpose(), Q, false);
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i) P(i, j) = i <= j ? P(i, j) * ch.Ed(i, j) : S(0);
        // y_j = gam_{j+1} S0 q_j + sum_i P(i, j) u_i
        auto Y = y.middleCols(s, n);
        if (s > 0) {
            product<S>(Y, S0, Q, false);
            for (Eigen::Index j = 0; j < n; ++j) Y.col(j) *= ch.gam(j + 1, 0);
            product<S>(Y, ch.U, P, true);
        } else {
            product<S>(Y, ch.U, P, false);
        }
        // S = gam_n S0 + sum_i (gam_n / gam_i) u_i k_i'
        MapM<S> Sn(m.states + e * dd, dh, dh);
        if (s > 0) Sn = ch.gam(n, 0) * S0;
        else Sn.setZero();
        for (Eigen::Index i = 0; i < n; ++i) ch.U.col(i) *= ch.Ed(i, n - 1);
        product<S>(Sn, ch.U, ch.K.transpose(), true);
    }
}

template <typename S>
void delta_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                    const In<S> &k, const In<S> &v)
{
    const Eigen::Index dh = m.dh, T = q.cols(), dd = dh * dh;
    const bool gated = m.kind == Mixer::GatedDeltaNet;
    MapM<S> dS(m.dS, dh, dh);  // d(L)/d(S) at the end of the chunk
    dS.setZero();
    for (Eigen::Index s = (T - 1) / kMixerChunk * kMixerChunk; s >= 0; s -= kMixerChunk) {
        const Eigen::Index n = std::min(kMixerChunk, T - s);
        Carve<S> c{m.work};
        DeltaChunk<S> ch(c, dh, s, n);
        MapM<S> dU = c.mat(dh, n), dR = c.mat(dh, n), dK = c.mat(dh, n), T1 = c.mat(dh, n), GQ = c.mat(n, n),
                P = c.mat(n, n), M = c.mat(n, n), At = c.mat(n, n), dlam = c.mat(n + 1, 1), db = c.mat(n, 1);
        const CMapM<S> S0(s > 0 ? m.states + (s - 1) * dd : m.states, dh, dh);
        ch.compute(m, k, v, S0);
        const MapM<S> &K = ch.K, &U = ch.U, &gam = ch.gam;
        const auto Q = q.middleCols(s, n);
        const auto dY = dy.middleCols(s, n);
        auto dQ = dq.middleCols(s, n);
        product<S>(GQ, K.transpose(), Q, false);
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i) P(i, j) = i <= j ? GQ(i, j) * ch.Ed(i, j) : S(0);
        dlam.setZero();
        db.setZero();

        // in the forward pass this was: Y = S0 Q diag(gam_{j+1}) + U P
        product<S>(dU, dY, P.transpose(), false);
        product<S>(M, U.transpose(), dY, false);  // d(L)/d(P), where i <= j
        if (gated && s > 0) {
            product<S>(T1, S0, Q, false);
            for (Eigen::Index j = 0; j < n; ++j) dlam(j + 1, 0) += gam(j + 1, 0) * T1.col(j).dot(dY.col(j));
        }
        // S = gam_n S0 + U diag(delta) K', delta_i = gam_n / gam_i: dU += dS K diag(delta), dK = dS' U diag(delta)
        product<S>(T1, dS, K, false);
        product<S>(dK, dS.transpose(), U, false);
        for (Eigen::Index i = 0; i < n; ++i) {
            const S delta = ch.Ed(i, n - 1);
            if (gated) {
                const S dd_delta = U.col(i).dot(T1.col(i)) * delta;
                dlam(n, 0) += dd_delta;
                dlam(i, 0) -= dd_delta;
            }
            dU.col(i) += delta * T1.col(i);
            dK.col(i) *= delta;
        }
        // the carry becomes d(L)/d(S0): gam_n dS + dY diag(gam_{j+1}) Q' (+ the solve's part below)
        if (gated && s > 0) dlam(n, 0) += gam(n, 0) * dS.cwiseProduct(S0).sum();
        dS *= gam(n, 0);
        for (Eigen::Index j = 0; j < n; ++j) T1.col(j) = gam(j + 1, 0) * dY.col(j);
        product<S>(dS, T1, Q.transpose(), true);
        if (s > 0) product<S>(dQ, S0.transpose(), T1, true);
        // P(i, j) = E(i, j) (k_i' q_j), E(i, j) = gam_{j+1} / gam_i (i <= j)
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i) {
                if (i > j) {
                    M(i, j) = S(0);
                    continue;
                }
                const S e = ch.Ed(i, j);
                if (gated) {
                    const S dE = M(i, j) * GQ(i, j) * e;
                    dlam(j + 1, 0) += dE;
                    dlam(i, 0) -= dE;
                }
                M(i, j) *= e;  // d(L)/d(K' Q)
            }
        product<S>(dK, Q, M.transpose(), true);
        product<S>(dQ, K, M, true);

        // U (I + A) = R: dR (I + A)' = dU, solved from the last column; d(L)/d(A) = -U' dR (i < j)
        At = ch.An.transpose();
        dR = dU;
        for (Eigen::Index j = n - 2; j >= 0; --j)
            product<S>(dR.col(j), dR.rightCols(n - 1 - j), At.col(j).tail(n - 1 - j), true);
        product<S>(M, U.transpose(), dR, false);
        // A(i, j) = beta_j F(i, j) (k_i' k_j), F(i, j) = gam_j / gam_i (i < j); GQ becomes the symmetric d(L)/d(K' K)
        GQ.setZero();
        for (Eigen::Index j = 1; j < n; ++j)
            for (Eigen::Index i = 0; i < j; ++i) {
                const S dA = -M(i, j), f = ch.Fd(i, j), b = ch.beta(m, j);
                db(j, 0) += dA * f * ch.Gk(i, j);
                if (gated) {
                    const S dF = dA * b * f * ch.Gk(i, j);
                    dlam(j, 0) += dF;
                    dlam(i, 0) -= dF;
                }
                GQ(i, j) = GQ(j, i) = dA * b * f;
            }
        product<S>(dK, K, GQ, true);
        // r_j = beta_j w_j, w_j = v_j - gam_j S0 k_j
        auto dV = dv.middleCols(s, n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const S b = ch.beta(m, j);
            db(j, 0) += dR.col(j).dot(v.col(s + j)) - gam(j, 0) * dR.col(j).dot(ch.SK.col(j));
            dR.col(j) *= b;  // d(L)/d(w_j)
            dV.col(j) += dR.col(j);
            if (gated && s > 0) dlam(j, 0) -= gam(j, 0) * dR.col(j).dot(ch.SK.col(j));
            T1.col(j) = -gam(j, 0) * dR.col(j);
        }
        if (s > 0) {
            product<S>(dS, T1, K.transpose(), true);
            product<S>(dK, S0.transpose(), T1, true);
        }
        // through the sigmoids; lam_{j+1} = lam_j + log alpha_j: d(L)/d(log alpha_j) = sum of dlam past j
        S tail = S(0);
        for (Eigen::Index j = n - 1; j >= 0; --j) {
            const S b = ch.beta(m, j);
            m.dbeta[(s + j) * m.gateStride] = db(j, 0) * b * (S(1) - b);
            if (gated) {
                tail += dlam(j + 1, 0);
                m.dalpha[(s + j) * m.gateStride] = tail * (S(1) - m.alpha[(s + j) * m.gateStride]);
            }
        }
        // K = k / nrm, nrm = sqrt(k'k + eps): d(L)/d(k) = (dK - K (K' dK)) / nrm
        for (Eigen::Index j = 0; j < n; ++j) {
            T1.col(j) = dK.col(j) - K.col(j) * K.col(j).dot(dK.col(j));
            dk.col(s + j) += T1.col(j) / ch.nrm(j, 0);
        }
    }
}

} // namespace

template <typename S>
void chunked_mixer_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v)
{
    if (m.kind == Mixer::Linear) linear_forward<S>(m, y, q, k, v);
    else delta_forward<S>(m, y, q, k, v);
}

template <typename S>
void chunked_mixer_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                            const In<S> &k, const In<S> &v)
{
    if (m.kind == Mixer::Linear) linear_backward<S>(m, dq, dk, dv, dy, q, k, v);
    else delta_backward<S>(m, dq, dk, dv, dy, q, k, v);
}

template void chunked_mixer_forward<float>(const MixerHead<float> &, Out<float>, const In<float> &, const In<float> &,
                                           const In<float> &);
template void chunked_mixer_forward<double>(const MixerHead<double> &, Out<double>, const In<double> &,
                                            const In<double> &, const In<double> &);
template void chunked_mixer_backward<float>(const MixerHead<float> &, Out<float>, Out<float>, Out<float>,
                                            const In<float> &, const In<float> &, const In<float> &, const In<float> &);
template void chunked_mixer_backward<double>(const MixerHead<double> &, Out<double>, Out<double>, Out<double>,
                                             const In<double> &, const In<double> &, const In<double> &,
                                             const In<double> &);

} // namespace fb::nn
