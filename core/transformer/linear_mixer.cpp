#include "core/transformer/linear_mixer.h"

#include "core/transformer/chunked_mixer.h"

#include <cmath>

namespace fb::nn {

namespace {

// out = phi(x) = elu(x) + 1 > 0 elementwise, vectorised (Eigen's packet exp); x and out may be the same vector.
template <typename S, int D>
inline void phi(Eigen::Matrix<S, D, 1> &out, const Eigen::Matrix<S, D, 1> &x)
{
    out = (x.array() > S(0)).select(x.array() + S(1), x.array().exp()).matrix();
}

// The maps of linear_mixer_forward (below), columns [p0, p0 + q.cols()), after its states are written.
template <typename S, int D>
void mixer_maps(const MixerHead<S> &m, const In<S> &q, const In<S> &k, Eigen::Index p0, S *att, Eigen::Index attRows)
{
    using VecD = Eigen::Matrix<S, D, 1>;
    const Eigen::Index dh = m.dh, nq = q.cols(), p1 = p0 + nq;
    const bool gated = m.kind == Mixer::GatedDeltaNet;
    // every key once: phi(k_j) (linear), or k_j / |k_j| (the delta rule)
    Mat<S> keys(dh, p1);
    VecD x(dh), f(dh), r(dh);
    for (Eigen::Index j = 0; j < p1; ++j) {
        x = k.col(j);
        if (m.kind == Mixer::Linear) phi<S, D>(x, x);
        else x /= std::sqrt(x.squaredNorm() + S(1e-6));
        keys.col(j) = x;
    }
    for (Eigen::Index i = 0; i < nq; ++i) {
        const Eigen::Index t = p0 + i;
        Eigen::Map<Vec<S>> column(att + t * attRows, attRows);
        column.tail(attRows - t - 1).setZero();
        if (m.kind == Mixer::Linear) {
            // out_t = sum_j (phi(k_j) . phi(q)) v_j / den
            x = q.col(i);
            phi<S, D>(f, x);
            column.head(t + 1).noalias() = keys.leftCols(t + 1).transpose() * f;
            column.head(t + 1) /= m.zden[t * (dh + 1) + dh];
            continue;
        }
        // S_t = sum_j alpha_j beta_j v_j kh_j' M_{j+1} ... M_t with M_j = alpha_j (I - beta_j kh_j kh_j'):
        // the coefficient of v_j is alpha_j beta_j kh_j' (M_{j+1} ... M_t q)
        r = q.col(i);
        for (Eigen::Index j = t; j >= 0; --j) {
            const S a = gated ? m.alpha[j * m.gateStride] : S(1), b = m.beta[j * m.gateStride];
            const S dot = keys.col(j).dot(r);
            column[j] = a * b * dot;
            r -= (b * dot) * keys.col(j);
            if (gated) r *= a;
        }
    }
}

// linear_mixer_forward (linear_mixer.h) for one d_head D at compile time (16, 32: whole
// SIMD packets, no allocation) or Eigen::Dynamic.
template <typename S, int D>
void linear_mixer_forward_d(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v,
                            Eigen::Index p0, S *att, Eigen::Index attRows)
{
    using VecD = Eigen::Matrix<S, D, 1>;
    using MapM = Eigen::Map<Eigen::Matrix<S, D, D>>;
    using MapV = Eigen::Map<VecD>;
    const Eigen::Index dh = m.dh, nq = q.cols(), dd = dh * dh;
    const bool gated = m.kind == Mixer::GatedDeltaNet;
    VecD f(dh), g(dh), kh(dh), u(dh), r(dh), qi(dh), vt(dh);
    const Eigen::Matrix<S, D, D> zero = Eigen::Matrix<S, D, D>::Zero(dh, dh);  // S_{-1}
    for (Eigen::Index i = 0; i < nq; ++i) {
        const Eigen::Index t = p0 + i;
        MapM St(m.states + t * dd, dh, dh);
        const Eigen::Map<const Eigen::Matrix<S, D, D>> Sp(t > 0 ? m.states + (t - 1) * dd : zero.data(), dh, dh);
        qi = q.col(i);
        vt = v.col(t);
        if (m.kind == Mixer::Linear) {
            // S_t = S_{t-1} + v_t phi(k_t)';  z_t = z_{t-1} + phi(k_t);  y = S_t phi(q) / (z_t' phi(q))
            g = k.col(t);
            phi<S, D>(g, g);
            phi<S, D>(f, qi);
            St.noalias() = Sp + vt * g.transpose();
            MapV z(m.zden + t * (dh + 1), dh);
            if (t > 0) z = MapV(m.zden + (t - 1) * (dh + 1), dh) + g;
            else z = g;
            const S den = z.dot(f);
            m.zden[t * (dh + 1) + dh] = den;
            y.col(i).noalias() = St * f / den;
        } else {
            // S_t = alpha (S_{t-1} - beta (S_{t-1} kh - v_t) kh'), kh = k_t / |k_t|;  y = S_t q
            kh = k.col(t);
            kh /= std::sqrt(kh.squaredNorm() + S(1e-6));
            const S b = m.beta[t * m.gateStride], a = gated ? m.alpha[t * m.gateStride] : S(1);
            u.noalias() = Sp * kh;
            u = (a * b) * (vt - u);
            if (gated) St.noalias() = a * Sp + u * kh.transpose();
            else St.noalias() = Sp + u * kh.transpose();
            y.col(i).noalias() = St * qi;
        }
    }
    if (att) mixer_maps<S, D>(m, q, k, p0, att, attRows);
}

// dq is (dh, nq), dk and dv are (dh, >= p1): accumulate; dy is (dh, nq): d(L)/d(y); q, k, v and p0
// as in the forward, which ran over these positions last. fresh: this call holds the last position
// (the carry starts at zero).
template <typename S, int D>
void linear_mixer_backward_d(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                             const In<S> &k, const In<S> &v, Eigen::Index p0, bool fresh)
{
    using VecD = Eigen::Matrix<S, D, 1>;
    using MatD = Eigen::Matrix<S, D, D>;
    using CMapM = Eigen::Map<const MatD>;
    using CMapV = Eigen::Map<const VecD>;
    const Eigen::Index dh = m.dh, nq = q.cols(), dd = dh * dh;
    const bool gated = m.kind == Mixer::GatedDeltaNet;
    Eigen::Map<MatD> dS(m.dS, dh, dh);
    if (fresh) {
        dS.setZero();
        if (m.kind == Mixer::Linear) Eigen::Map<VecD>(m.dz, dh).setZero();
    }
    VecD f(dh), g(dh), o(dh), dnum(dh), df(dh), dg(dh), kh(dh), u(dh), w(dh), e(dh), dkh(dh), qi(dh), kt(dh), vt(dh),
        dyi(dh);
    const MatD zero = MatD::Zero(dh, dh);  // S_{-1}
    for (Eigen::Index i = nq - 1; i >= 0; --i) {
        const Eigen::Index t = p0 + i;
        CMapM St(m.states + t * dd, dh, dh);
        qi = q.col(i);
        kt = k.col(t);
        vt = v.col(t);
        dyi = dy.col(i);
        if (m.kind == Mixer::Linear) {
            // in the forward pass this was: y = num / den, num = S_t f, den = z_t' f, f = phi(q)
            Eigen::Map<VecD> dz(m.dz, dh);
            CMapV z(m.zden + t * (dh + 1), dh);
            const S den = m.zden[t * (dh + 1) + dh];
            phi<S, D>(f, qi);
            phi<S, D>(g, kt);
            o.noalias() = St * f;
            o /= den;
            dnum = dyi / den;
            const S dden = -dyi.dot(o) / den;
            dS.noalias() += dnum * f.transpose();
            dz += dden * f;
            df.noalias() = St.transpose() * dnum;
            df += dden * z;
            // phi'(x) = 1 for x > 0, exp(x) = phi(x) below
            dq.col(i) += (qi.array() > S(0)).select(df.array(), df.array() * f.array()).matrix();
            // in the forward pass this was: S_t = S_{t-1} + v_t g',  z_t = z_{t-1} + g,  g = phi(k_t);
            // d(L)/d(S_{t-1}) = d(L)/d(S_t), d(L)/d(z_{t-1}) = d(L)/d(z_t): the carry goes on unchanged
            e.noalias() = dS * g;
            dv.col(t) += e;
            dg.noalias() = dS.transpose() * vt;
            dg += dz;
            dk.col(t) += (kt.array() > S(0)).select(dg.array(), dg.array() * g.array()).matrix();
            continue;
        }
        // in the forward pass this was: y = S_t q
        dS.noalias() += dyi * qi.transpose();
        df.noalias() = St.transpose() * dyi;
        dq.col(i) += df;
        // in the forward pass this was: S_t = alpha (S_p + beta w kh'), w = v - u, u = S_p kh, kh = k / n
        CMapM Sp(t > 0 ? m.states + (t - 1) * dd : zero.data(), dh, dh);
        const S n = std::sqrt(kt.squaredNorm() + S(1e-6));
        kh = kt / n;
        const S b = m.beta[t * m.gateStride], a = gated ? m.alpha[t * m.gateStride] : S(1);
        u.noalias() = Sp * kh;
        w = vt - u;
        e.noalias() = dS * kh;
        const S we = w.dot(e);
        // d(L)/d(alpha) = <dS, S_p> + beta w'e;  d(L)/d(beta) = alpha w'e; through the sigmoids
        if (gated) m.dalpha[t * m.gateStride] = (dS.cwiseProduct(Sp).sum() + b * we) * a * (S(1) - a);
        m.dbeta[t * m.gateStride] = a * we * b * (S(1) - b);
        // d(L)/d(v) = alpha beta dS kh;  d(L)/d(kh) = alpha beta (dS' w - S_p' dS kh)
        dv.col(t) += (a * b) * e;
        dkh.noalias() = dS.transpose() * w;
        dkh.noalias() -= Sp.transpose() * e;
        dkh *= a * b;
        // kh = k / sqrt(k'k + eps): d(L)/d(k) = (dkh - kh (kh' dkh)) / n
        dkh -= kh * kh.dot(dkh);
        dk.col(t) += dkh / n;
        // d(L)/d(S_p) = alpha (dS - beta dS kh kh'): the carry for position t - 1
        if (gated) {
            e *= a * b;
            dS = a * dS - e * kh.transpose();
        } else {
            e *= b;
            dS.noalias() -= e * kh.transpose();
        }
    }
}

} // namespace

// The entry points (linear_mixer.h).
template <typename S>
void linear_mixer_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v,
                          Eigen::Index p0, S *att, Eigen::Index attRows)
{
    if (m.work && p0 == 0 && !att) return chunked_mixer_forward<S>(m, y, q, k, v);
    switch (m.dh) {
    case 16: return linear_mixer_forward_d<S, 16>(m, y, q, k, v, p0, att, attRows);
    case 32: return linear_mixer_forward_d<S, 32>(m, y, q, k, v, p0, att, attRows);
    default: return linear_mixer_forward_d<S, Eigen::Dynamic>(m, y, q, k, v, p0, att, attRows);
    }
}

template <typename S>
void linear_mixer_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                           const In<S> &k, const In<S> &v, Eigen::Index p0, bool fresh)
{
    if (m.work && p0 == 0 && fresh) return chunked_mixer_backward<S>(m, dq, dk, dv, dy, q, k, v);
    switch (m.dh) {
    case 16: return linear_mixer_backward_d<S, 16>(m, dq, dk, dv, dy, q, k, v, p0, fresh);
    case 32: return linear_mixer_backward_d<S, 32>(m, dq, dk, dv, dy, q, k, v, p0, fresh);
    default: return linear_mixer_backward_d<S, Eigen::Dynamic>(m, dq, dk, dv, dy, q, k, v, p0, fresh);
    }
}

template void linear_mixer_forward<float>(const MixerHead<float> &, Out<float>, const In<float> &, const In<float> &,
                                          const In<float> &, Eigen::Index, float *, Eigen::Index);
template void linear_mixer_forward<double>(const MixerHead<double> &, Out<double>, const In<double> &,
                                           const In<double> &, const In<double> &, Eigen::Index, double *, Eigen::Index);
template void linear_mixer_backward<float>(const MixerHead<float> &, Out<float>, Out<float>, Out<float>,
                                           const In<float> &, const In<float> &, const In<float> &, const In<float> &,
                                           Eigen::Index, bool);
template void linear_mixer_backward<double>(const MixerHead<double> &, Out<double>, Out<double>, Out<double>,
                                            const In<double> &, const In<double> &, const In<double> &,
                                            const In<double> &, Eigen::Index, bool);

} // namespace fb::nn
