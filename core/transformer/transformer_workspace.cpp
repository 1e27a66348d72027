#include "core/transformer/transformer_workspace.h"

#include "core/transformer/attention_kernel.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/transformer_layers.h"

#include <stdexcept>
#include <type_traits>

namespace fb {

namespace {

// The float attention kernel takes every head of sequences up to len (attention_kernel.h), with the
// scratch of its own: the workspace's datt is needed only for heads it does not fit, and in double
// (the gradient checks), which it never takes. Which heads fit depends on the build's widest packet
// (d_head 8 fits an AVX2 build, not an AVX-512 one).
template <typename S>
bool kernelTakesEveryHead(const TransformerShape &s, Eigen::Index len)
{
    return std::is_same_v<S, float> && nn::attention_kernel_fits(s.dHead(), len);
}

} // namespace

template <typename S>
void TransformerWorkspace<S>::reserve(const TransformerShape &s, Eigen::Index cap, Eigen::Index len, bool grad)
{
    capacity = cap;
    maxLen = len;
    withGrad = grad;
    const Eigen::Index d = s.dModel, N = cap, attSize = Eigen::Index(s.heads) * cap * nn::attentionRows(len);
    const Eigen::Index dH = s.dHead(), H = s.heads, carryB = (cap + len - 1) / std::max<Eigen::Index>(len, 1);
    auto mat = [N](M &m, Eigen::Index rows, bool needed = true) { m.setZero(needed ? rows : 0, needed ? N : 0); };
    auto vec = [](V &v, Eigen::Index size, bool needed = true) { v.setZero(needed ? size : 0); };
    mat(emb, d);
    mat(hprev, d, s.feedback);
    mat(fzEmb, 2 * d, s.feedback);
    mat(fz, 2 * d, s.feedback);
    mat(gate, d, s.feedback);
    layer.resize(std::size_t(s.depth()));
    for (int li = 0; li < s.depth(); ++li) {
        Layer &l = layer[std::size_t(li)];
        const Mixer m = s.mixer(li);
        const bool linear = m != Mixer::Softmax, delta = m == Mixer::DeltaNet || m == Mixer::GatedDeltaNet;
        vec(l.state, H * cap * dH * dH, linear);
        vec(l.zden, H * cap * (dH + 1), m == Mixer::Linear);
        l.beta.setZero(delta ? H : 0, delta ? N : 0);
        l.alpha.setZero(m == Mixer::GatedDeltaNet ? H : 0, m == Mixer::GatedDeltaNet ? N : 0);
        l.dbeta.setZero(grad && delta ? H : 0, grad && delta ? N : 0);
        l.dalpha.setZero(grad && m == Mixer::GatedDeltaNet ? H : 0, grad && m == Mixer::GatedDeltaNet ? N : 0);
        vec(l.carry, carryB * H * (dH * dH + dH), grad && linear);
        vec(l.chunkWork, carryB * H * nn::chunkedMixerWork(dH), grad && linear && dH >= nn::kChunkedFromHead);
        mat(l.x, d);
        mat(l.ln1, d);
        vec(l.ln1Mean, N);
        vec(l.ln1Rstd, N);
        mat(l.qkv, s.qkvRows());
        vec(l.att, attSize, !(grad && linear));  // training a linear mixer needs no map
        mat(l.atty, d);
        mat(l.mid, d);
        mat(l.ln2, d);
        vec(l.ln2Mean, N);
        vec(l.ln2Rstd, N);
        mat(l.fc, s.ffn());
        mat(l.qkRaw, d + s.dKv(), s.qkNorm);
        l.qkRstd.setZero(s.qkNorm ? N : 0, s.qkNorm ? s.heads + s.kv() : 0);
        mat(l.dqkNorm, d + s.dKv(), grad && s.qkNorm);
        mat(l.qkvRaw, s.qkvRows(), s.shortConv > 0);
        mat(l.dqkvRaw, s.qkvRows(), grad && s.shortConv > 0);
        mat(l.sdpa, d, s.attnGate);
        mat(l.gate, d, s.attnGate);
        mat(l.dgate, d, grad && s.attnGate);
        mat(l.dx, d, grad);
        mat(l.dln1, d, grad);
        mat(l.dqkv, s.qkvRows(), grad);
        mat(l.dmid, d, grad);
        mat(l.dln2, d, grad);
        mat(l.dfc, s.ffn(), grad);
    }
    mat(xL, d);
    mat(h, d);
    vec(lnfMean, N);
    vec(lnfRstd, N);
    mat(logits, s.vocab);
    mat(probs, s.vocab);
    vec(colmax, N);
    vec(logsum, N);
    mat(dlogits, s.vocab, grad);
    mat(dh, d, grad);
    mat(dxL, d, grad);
    mat(datty, d, grad);
    mat(dfz, 2 * d, grad && s.feedback);
    mat(demb, d, grad);
    vec(datt, attSize, grad && s.anySoftmax() && !kernelTakesEveryHead<S>(s, len));
    gradientPieces.assign(grad ? std::size_t(kGradientEntries * s.layers + 2) : 0, 0);
    B = T = 0;
}

template <typename S>
void TransformerWorkspace<S>::setBatch(int b, int t)
{
    if (b < 1 || t < 1 || t > maxLen || t > nn::kMaxAttentionKeys || Eigen::Index(b) * t > capacity)
        throw std::logic_error("TransformerWorkspace: batch larger than reserved");
    B = b;
    T = t;
}

template <typename S>
double TransformerWorkspace<S>::bytes(const TransformerShape &s, Eigen::Index cap, Eigen::Index len, bool grad)
{
    const double d = s.dModel, f = s.ffn(), V = s.vocab, fb = s.feedback ? 1.0 : 0.0, qkv = s.qkvRows();
    // rows of (rows, capacity) matrices and vectors, as allocated by reserve()
    double rows = d + fb * (d + 2 * d + 2 * d + d);               // emb, hprev, fzEmb, fz, gate
    rows += s.depth() * (d + d + 2 + qkv + d + d + d + 2 + f);    // x, ln1, stats, qkv, atty, mid, ln2, stats, fc
    rows += d + d + 2 + 2 * V + 2;                               // xL, h, stats, logits, probs, colmax, logsum
    const double qkn = s.qkNorm ? 1.0 : 0.0;
    rows += qkn * s.depth() * (d + s.dKv() + s.heads + s.kv());  // qkRaw, qkRstd
    const double gated = s.attnGate ? 1.0 : 0.0;
    rows += gated * s.depth() * 2 * d;                            // sdpa, gate
    const double conv = s.shortConv > 0 ? 1.0 : 0.0;
    rows += conv * s.depth() * (grad ? 2 : 1) * qkv;              // qkvRaw (dqkvRaw)
    const double dh = s.dHead(), H = s.heads;
    double att = 0;  // per column: the maps, and the linear mixers' states
    for (int l = 0; l < s.depth(); ++l) {
        const Mixer m = s.mixer(l);
        if (!(grad && m != Mixer::Softmax)) att += H * nn::attentionRows(len);
        if (m != Mixer::Softmax) att += H * dh * dh;                                     // state
        if (m == Mixer::Linear) att += H * (dh + 1);                                     // zden
        if (m == Mixer::DeltaNet || m == Mixer::GatedDeltaNet) att += (grad ? 2 : 1) * H;  // beta (dbeta)
        if (m == Mixer::GatedDeltaNet) att += (grad ? 2 : 1) * H;                          // alpha (dalpha)
        if (grad && m != Mixer::Softmax) att += H * (dh * dh + dh) / double(std::max<Eigen::Index>(len, 1));  // carry
        if (grad && m != Mixer::Softmax && s.dHead() >= nn::kChunkedFromHead)
            att += H * double(nn::chunkedMixerWork(s.dHead())) / double(std::max<Eigen::Index>(len, 1));  // chunkWork
    }
    if (grad) {
        rows += s.depth() * (d + d + qkv + d + d + f);            // dx, dln1, dqkv, dmid, dln2, dfc
        rows += qkn * s.depth() * (d + s.dKv());                   // dqkNorm
        rows += gated * s.depth() * d;                            // dgate
        rows += V + d + d + d + fb * 2 * d + d;                  // dlogits, dh, dxL, datty, dfz, demb
        if (s.anySoftmax() && !kernelTakesEveryHead<S>(s, len)) att += double(s.heads) * nn::attentionRows(len);  // datt
    }
    return (rows + att) * double(cap) * sizeof(S);
}

template struct TransformerWorkspace<float>;
template struct TransformerWorkspace<double>;

} // namespace fb
