#pragma once
// RMSNorm (Zhang and Sennrich 2019; 004_21534ea083b6ce9c.txt, "Recent Developments"): LayerNorm
// without the mean and without the bias, out = inp / rms(inp) * weight, rms = sqrt(mean(inp^2) + eps).
// The tiny transformer's norm=rmsnorm uses it for LN1, LN2 and LN_f; qk_norm=on for every head's
// query and key (d_head features, one learned scale for the queries and one for the keys), before
// RoPE. Forward/backward pairs in the style of transformer_layers.h (llm.c): the backward quotes the
// forward and accumulates with +=; the parameter gradient is a reduction over all columns, done
// once. And norm_forward / norm_backward_*: LayerNorm or RMSNorm, as the model is built;
// norm_backward_inp_set writes its result (base + the gradient) instead of adding it.
#include "core/transformer/transformer_layers.h"

#include <cmath>

namespace fb::nn {

// out is (C, N), rstd is (N): 1 / rms, kept for the backward pass, inp is (C, N), weight is (C).
// out may not alias inp.
template <typename S>
void rmsnorm_forward(Out<S> out, VecOut<S> rstd, const In<S> &inp, const VecIn<S> &weight, S eps = S(1e-5))
{
    const Eigen::Index C = inp.rows();
    for (Eigen::Index n = 0; n < inp.cols(); ++n) {
        const S r = S(1) / std::sqrt(inp.col(n).squaredNorm() / S(C) + eps);
        out.col(n).array() = inp.col(n).array() * r * weight.array();
        rstd[n] = r;
    }
}

// dinp is (C, N), dout is (C, N), inp is (C, N), weight is (C), rstd is (N) from the forward
template <typename S>
void rmsnorm_backward_inp(Out<S> dinp, const In<S> &dout, const In<S> &inp, const VecIn<S> &weight, const VecIn<S> &rstd)
{
    // in the forward pass this was: out = inp * rstd * weight, rstd = (mean(inp^2) + eps)^(-1/2)
    // with norm = inp * rstd and dnorm = dout * weight (d rstd / d inp = -rstd^3 inp / C):
    // d(L)/d(inp) = rstd * (dnorm - norm * mean(dnorm * norm))
    const Eigen::Index C = inp.rows();
    for (Eigen::Index n = 0; n < inp.cols(); ++n) {
        const auto norm = inp.col(n).array() * rstd[n];
        const auto dnorm = dout.col(n).array() * weight.array();
        const S dnormNormMean = (dnorm * norm).sum() / S(C);
        dinp.col(n).array() += (dnorm - norm * dnormNormMean) * rstd[n];
    }
}

// dweight is (C), dout is (C, N), inp is (C, N), rstd is (N)
template <typename S>
void rmsnorm_backward_params(VecOut<S> dweight, const In<S> &dout, const In<S> &inp, const VecIn<S> &rstd)
{
    // in the forward pass this was: out = norm * weight, norm = inp * rstd
    // d(L)/d(weight) = sum over columns of dout * norm
    for (Eigen::Index n = 0; n < inp.cols(); ++n) dweight.array() += dout.col(n).array() * inp.col(n).array() * rstd[n];
}

// ----------------------------------------------------------------------------------------------
// The block's norm, LayerNorm or (rms) RMSNorm: mean is unused and bias empty under RMSNorm.

// out is (C, N), mean and rstd are (N), inp is (C, N), weight is (C), bias is (C) or empty (rms)
template <typename S>
void norm_forward(bool rms, Out<S> out, VecOut<S> mean, VecOut<S> rstd, const In<S> &inp, const VecIn<S> &weight,
                  const VecIn<S> &bias)
{
    if (rms) rmsnorm_forward<S>(out, rstd, inp, weight);
    else layernorm_forward<S>(out, mean, rstd, inp, weight, bias);
}

// dinp is (C, N), dout is (C, N), inp is (C, N), weight is (C), mean and rstd are (N)
template <typename S>
void norm_backward_inp(bool rms, Out<S> dinp, const In<S> &dout, const In<S> &inp, const VecIn<S> &weight,
                       const VecIn<S> &mean, const VecIn<S> &rstd)
{
    if (rms) rmsnorm_backward_inp<S>(dinp, dout, inp, weight, rstd);
    else layernorm_backward_inp<S>(dinp, dout, inp, weight, mean, rstd);
}

// dinp = base + d(L)/d(inp) (base null: the gradient alone; it may view dinp itself), also written to
// copy unless it is null; the other arguments as norm_backward_inp's. LayerNorm's writes both in its
// one pass.
template <typename S>
void norm_backward_inp_set(bool rms, Out<S> dinp, const In<S> *base, Out<S> *copy, const In<S> &dout,
                           const In<S> &inp, const VecIn<S> &weight, const VecIn<S> &mean, const VecIn<S> &rstd)
{
    if (!rms) {
        layernorm_backward_inp_set<S>(dinp, base, copy, dout, inp, weight, mean, rstd);
        return;
    }
    if (!base) dinp.setZero();
    else if (base->data() != dinp.data()) dinp = *base;
    rmsnorm_backward_inp<S>(dinp, dout, inp, weight, rstd);
    if (copy) *copy = dinp;
}

// dweight is (C), dbias is (C) or empty (rms), dout is (C, N), inp is (C, N), mean and rstd are (N)
template <typename S>
void norm_backward_params(bool rms, VecOut<S> dweight, VecOut<S> dbias, const In<S> &dout, const In<S> &inp,
                          const VecIn<S> &mean, const VecIn<S> &rstd)
{
    if (rms) rmsnorm_backward_params<S>(dweight, dout, inp, rstd);
    else layernorm_backward_params<S>(dweight, dbias, dout, inp, mean, rstd);
}

// ----------------------------------------------------------------------------------------------
// QK-norm: RMSNorm of every head's query and key, each head's dh features on their own.

// qk is (d + dkv, n): rows [0, d) the H query heads, [d, d + dkv) the key heads, normalised in place;
// raw is (d + dkv, n): receives the values before, rstd is (n, H + KV): column r = head segment r;
// qScale and kScale are (dh)
template <typename S>
void qknorm_forward(Out<S> qk, Out<S> raw, Out<S> rstd, const VecIn<S> &qScale, const VecIn<S> &kScale,
                    Eigen::Index dh, Eigen::Index queryHeads)
{
    raw = qk;
    for (Eigen::Index r = 0; r < qk.rows() / dh; ++r)
        rmsnorm_forward<S>(qk.middleRows(r * dh, dh), rstd.col(r), raw.middleRows(r * dh, dh),
                           r < queryHeads ? qScale : kScale);
}

// dqk is (d + dkv, n): d(L)/d(normalised q, k) on entry, d(L)/d(raw q, k) on return; dnormed is
// (d + dkv, n): receives d(L)/d(normalised) for the scales' gradient; raw, rstd, scales as in the forward
template <typename S>
void qknorm_backward_inp(Out<S> dqk, Out<S> dnormed, const In<S> &raw, const In<S> &rstd, const VecIn<S> &qScale,
                         const VecIn<S> &kScale, Eigen::Index dh, Eigen::Index queryHeads)
{
    // in the forward pass this was: qk_r = RMSNorm(raw_r) * scale, per head segment r
    dnormed = dqk;
    dqk.setZero();
    for (Eigen::Index r = 0; r < dqk.rows() / dh; ++r)
        rmsnorm_backward_inp<S>(dqk.middleRows(r * dh, dh), dnormed.middleRows(r * dh, dh), raw.middleRows(r * dh, dh),
                                r < queryHeads ? qScale : kScale, rstd.col(r));
}

// dqScale and dkScale are (dh); dnormed, raw are (d + dkv, N), rstd is (N, H + KV)
template <typename S>
void qknorm_backward_params(VecOut<S> dqScale, VecOut<S> dkScale, const In<S> &dnormed, const In<S> &raw,
                            const In<S> &rstd, Eigen::Index dh, Eigen::Index queryHeads)
{
    // in the forward pass this was: qk_r = RMSNorm(raw_r) * scale: the scale's gradient sums over heads
    for (Eigen::Index r = 0; r < dnormed.rows() / dh; ++r)
        rmsnorm_backward_params<S>(r < queryHeads ? dqScale : dkScale, dnormed.middleRows(r * dh, dh),
                                   raw.middleRows(r * dh, dh), rstd.col(r));
}

} // namespace fb::nn
