#include "core/transformer/transformer_stack.h"

#include "core/interpret/ablation.h"
#include "core/transformer/attention_gate.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/chunked_products.h"
#include "core/transformer/linear_mixer.h"
#include "core/transformer/short_conv.h"
#include "core/transformer/rms_norm.h"
#include "core/transformer/transformer_layers.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace fb {

namespace {

template <typename S>
using CMap = Eigen::Map<const nn::Mat<S>>;
template <typename S>
using CVec = Eigen::Map<const nn::Vec<S>>;

template <typename S>
CMap<S> P(const S *params, const TransformerLayout::Slot &s)
{
    return CMap<S>(params + s.offset, s.rows, s.cols);
}
template <typename S>
CVec<S> PV(const S *params, const TransformerLayout::Slot &s)
{
    return CVec<S>(params + s.offset, s.size());
}
template <typename S>
Eigen::Map<nn::Mat<S>> G(S *grads, const TransformerLayout::Slot &s)
{
    return Eigen::Map<nn::Mat<S>>(grads + s.offset, s.rows, s.cols);
}
template <typename S>
Eigen::Map<nn::Vec<S>> GV(S *grads, const TransformerLayout::Slot &s)
{
    return Eigen::Map<nn::Vec<S>>(grads + s.offset, s.size());
}

// out = sum + x, the epilogue of a residual connection: x is a view of out's shape
template <typename S, typename X>
nn::GemmEpilogue<S> residual(const X &x)
{
    nn::GemmEpilogue<S> e;
    e.add = x.data();
    e.ldAdd = x.outerStride();
    return e;
}

} // namespace

template <typename S>
void TransformerStack<S>::forward(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos,
                                  Eigen::Index p0, Eigen::Index p1, const Ablation *ablation) const
{
    // block l applies the weights of block l % L: the stack `loops` times (looped depth)
    for (int l = 0; l < s_.depth(); ++l) blockForward(params, ws, pos, l, p0, p1, ablation);
    readout(params, ws, s_.depth() - 1, p0, p1);
}

template <typename S>
void TransformerStack<S>::readout(const S *params, TransformerWorkspace<S> &ws, int layer, Eigen::Index p0,
                                  Eigen::Index p1) const
{
    // h = LN_f(x_{layer + 1}); x_L = xL
    const M &x = layer + 1 < s_.depth() ? ws.layer[std::size_t(layer) + 1].x : ws.xL;
    const Eigen::Index B = ws.B;
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        nn::norm_forward<S>(s_.rmsNorm, ws.h.middleCols(c, n), ws.lnfMean.segment(c, n), ws.lnfRstd.segment(c, n),
                            x.middleCols(c, n), PV(params, L_.lnfw), PV(params, L_.lnfb));
    });
}

template <typename S>
void TransformerStack<S>::blockForward(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos,
                                       int l, Eigen::Index p0, Eigen::Index p1, const Ablation *ablation) const
{
    using Layer = typename TransformerWorkspace<S>::Layer;
    const int wl = l % s_.layers;  // the weights' layer (looped depth: l >= L repeats them)
    const TransformerLayout::Block &w = L_.blocks[std::size_t(wl)];
    Layer &a = ws.layer[std::size_t(l)];
    M &out = l + 1 < s_.depth() ? ws.layer[std::size_t(l) + 1].x : ws.xL;
    const Eigen::Index B = ws.B, T = ws.T, d = s_.dModel, H = s_.heads, dh = s_.dHead(), dkv = s_.dKv(), G = s_.group();
    const bool rope = pos.scheme == PositionalScheme::Rope;

    // ln1 = LN1(x); qkv = W_qkv ln1 (q: d rows, k and v: dkv rows each); q and k rotated by RoPE.
    // With the short convolution, qkvRaw = W_qkv ln1 and qkv = conv(qkvRaw) in a pass of its own (a
    // column reads the raw columns of earlier positions, which another chunk may be writing).
    const bool conv = s_.shortConv > 0;
    const auto qkvRest = [&](Eigen::Index c, Eigen::Index n) {
        if (s_.qkNorm) {
            // QK-norm: q_h = RMSNorm(q_h) g_q, k_g = RMSNorm(k_g) g_k for every head, before RoPE
            nn::qknorm_forward<S>(a.qkv.block(0, c, d + dkv, n), a.qkRaw.middleCols(c, n), a.qkRstd.middleRows(c, n),
                                  PV(params, w.qNorm), PV(params, w.kNorm), dh, H);
        }
        if (rope) {
            nn::rope_forward<S>(a.qkv.block(0, c, d, n), pos.cos, pos.sin, c, B);
            nn::rope_forward<S>(a.qkv.block(d, c, dkv, n), pos.cos, pos.sin, c, B);  // every head's pairs alike
        }
        if (a.beta.size()) {
            // the delta rule's step sizes: beta = sigmoid(w_beta ln1); gated: alpha = sigmoid(w_alpha ln1 + b_alpha)
            auto be = a.beta.middleCols(c, n);
            nn::product<S>(be, P(params, w.Wbeta), a.ln1.middleCols(c, n), false);
            be = (S(1) + (-be.array()).exp()).inverse().matrix();
            if (a.alpha.size()) {
                auto al = a.alpha.middleCols(c, n);
                al.colwise() = PV(params, w.balpha);
                nn::product<S>(al, P(params, w.Walpha), a.ln1.middleCols(c, n), true);
                al = (S(1) + (-al.array()).exp()).inverse().matrix();
            }
        }
    };
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        nn::norm_forward<S>(s_.rmsNorm, a.ln1.middleCols(c, n), a.ln1Mean.segment(c, n), a.ln1Rstd.segment(c, n),
                            a.x.middleCols(c, n), PV(params, w.ln1w), PV(params, w.ln1b));
        nn::product<S>(conv ? a.qkvRaw.middleCols(c, n) : a.qkv.middleCols(c, n), P(params, w.Wqkv),
                       a.ln1.middleCols(c, n), false);
        if (!conv) qkvRest(c, n);
    });
    if (conv)
        par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
            // qkv_t = sum_j w_j .* qkvRaw_{t - j} (core/transformer/short_conv.h)
            nn::short_conv_forward<S>(a.qkv.data(), a.qkvRaw.data(), params + w.conv.offset, s_.qkvRows(),
                                      s_.shortConv, B, c, n);
            qkvRest(c, n);
        });

    // atty = softmax(q k' * scale, causal) v for every (sequence, head); att keeps the weights. Head h
    // reads key/value head g = h / G (grouped-query attention; G = 1 without it). Gated attention
    // writes it to sdpa, and atty = sdpa * gate below
    S *yout = s_.attnGate ? a.sdpa.data() : a.atty.data();
    const Eigen::Index ld = s_.qkvRows(), nq = p1 - p0, ldAtt = nn::attentionRows(T);
    const Mixer mixer = s_.mixer(wl);
    par_.forEach(B * H, [&](Eigen::Index i) {
        const Eigen::Index b = i / H, h = i % H, g = h / G;
        const S *qkv = a.qkv.data();
        nn::ConstStrided<S> q(qkv + (p0 * B + b) * ld + h * dh, dh, nq, Eigen::OuterStride<>(B * ld));
        nn::ConstStrided<S> k(qkv + b * ld + d + g * dh, dh, p1, Eigen::OuterStride<>(B * ld));
        nn::ConstStrided<S> v(qkv + b * ld + d + dkv + g * dh, dh, p1, Eigen::OuterStride<>(B * ld));
        nn::Strided<S> y(yout + (p0 * B + b) * d + h * dh, dh, nq, Eigen::OuterStride<>(B * d));
        if (mixer != Mixer::Softmax) {
            // a linear mixer: its state carries the past (core/transformer/linear_mixer.h)
            S *maps = a.att.size() ? a.att.data() + (b * H + h) * ldAtt * T : nullptr;
            nn::linear_mixer_forward<S>(mixerHead(ws, l, b, h), y, q, k, v, p0, maps, ldAtt);
            return;
        }
        Eigen::Map<M> att(a.att.data() + (b * H + h) * ldAtt * T, ldAtt, T);
        nn::attention_forward<S>(y, att, q, k, v, p0, pos.scale, s_.window, pos.slope(h));
    });

    // mid = x + W_O atty; ln2 = LN2(mid); fc = relu(W1 ln2 + b1); out = mid + W2 fc + b2
    const bool ffnOff = ablation && ablation->ffnIsOff(wl);
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        if (s_.attnGate) {
            // gated attention: atty = sdpa * sigmoid(W_theta ln1)
            auto g = a.gate.middleCols(c, n);
            nn::product<S>(g, P(params, w.Wg), a.ln1.middleCols(c, n), false);
            nn::attention_gate_forward<S>(a.atty.middleCols(c, n), g, a.sdpa.middleCols(c, n));
        }
        if (ablation) {
            // the hook point where each head's output enters W_O: ablated heads read 0 or their mean
            for (const HeadId &id : ablation->heads) {
                if (id.layer != wl) continue;
                auto y = a.atty.block(Eigen::Index(id.head) * dh, c, dh, n);
                if (ablation->kind == AblationKind::Mean)
                    y.colwise() = Eigen::Map<const Eigen::VectorXd>(
                                      ablation->means[std::size_t(wl)].data() + Eigen::Index(id.head) * dh, dh)
                                      .template cast<S>();
                else
                    y.setZero();
            }
        }
        // the residuals, the biases and ReLU are the products' epilogues (gemm_epilogue.h), applied
        // while the sums are in registers
        auto mid = a.mid.middleCols(c, n);
        nn::product<S>(mid, P(params, w.Wo), a.atty.middleCols(c, n), false, residual<S>(a.x.middleCols(c, n)));
        nn::norm_forward<S>(s_.rmsNorm, a.ln2.middleCols(c, n), a.ln2Mean.segment(c, n), a.ln2Rstd.segment(c, n), mid,
                            PV(params, w.ln2w), PV(params, w.ln2b));
        auto fc = a.fc.middleCols(c, n);
        nn::GemmEpilogue<S> biasRelu;
        biasRelu.bias = params + w.b1.offset;
        biasRelu.relu = true;
        nn::product<S>(fc, P(params, w.W1), a.ln2.middleCols(c, n), false, biasRelu);
        auto o = out.middleCols(c, n);
        if (ffnOff) {
            o = mid;  // ablated FFN: out = mid
            return;
        }
        nn::GemmEpilogue<S> midBias = residual<S>(mid);
        midBias.bias = params + w.b2.offset;
        nn::product<S>(o, P(params, w.W2), fc, false, midBias);
    });
}

template <typename S>
void TransformerStack<S>::backwardData(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos,
                                       Eigen::Index p0, Eigen::Index p1) const
{
    // in the forward pass this was: h = LN_f(x_L)
    const Eigen::Index B = ws.B;
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        nn::norm_backward_inp_set<S>(s_.rmsNorm, ws.dxL.middleCols(c, n), nullptr, nullptr, ws.dh.middleCols(c, n),
                                     ws.xL.middleCols(c, n), PV(params, L_.lnfw), ws.lnfMean.segment(c, n),
                                     ws.lnfRstd.segment(c, n));
    });
    for (int l = s_.depth() - 1; l >= 0; --l) blockBackwardData(params, ws, pos, l, p0, p1);
}

template <typename S>
void TransformerStack<S>::blockBackwardData(const S *params, TransformerWorkspace<S> &ws,
                                            const PositionTables<S> &pos, int l, Eigen::Index p0,
                                            Eigen::Index p1) const
{
    using Layer = typename TransformerWorkspace<S>::Layer;
    const TransformerLayout::Block &w = L_.blocks[std::size_t(l % s_.layers)];
    Layer &a = ws.layer[std::size_t(l)];
    const M &dout = outputGradient(ws, l);
    const Eigen::Index B = ws.B, T = ws.T, d = s_.dModel, H = s_.heads, dh = s_.dHead(), dkv = s_.dKv(), G = s_.group();
    const bool rope = pos.scheme == PositionalScheme::Rope;

    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        // in the forward pass this was: out = mid + W2 fc + b2, fc = relu(W1 ln2 + b1)
        // (ReLU's backward stays a pass of its own: as the product's epilogue it read fc, cold since the
        // forward pass, a panel at a time, and the step took 1.4% longer)
        auto dfc = a.dfc.middleCols(c, n);
        nn::product<S>(dfc, P(params, w.W2).transpose(), dout.middleCols(c, n), false);
        nn::relu_backward_inplace<S>(dfc, a.fc.middleCols(c, n));
        nn::product<S>(a.dln2.middleCols(c, n), P(params, w.W1).transpose(), dfc, false);
        // in the forward pass this was: ln2 = LN2(mid), out = mid + ...: dmid = dout + LN2's gradient,
        // and, as mid = x + W_O atty, dx = dmid too (written in the same pass)
        nn::Out<S> dmid = a.dmid.middleCols(c, n), dx = a.dx.middleCols(c, n);
        const nn::In<S> through = dout.middleCols(c, n);
        nn::norm_backward_inp_set<S>(s_.rmsNorm, dmid, &through, &dx, a.dln2.middleCols(c, n), a.mid.middleCols(c, n),
                                     PV(params, w.ln2w), a.ln2Mean.segment(c, n), a.ln2Rstd.segment(c, n));
        nn::product<S>(ws.datty.middleCols(c, n), P(params, w.Wo).transpose(), dmid, false);
        if (s_.attnGate) {
            // in the forward pass this was: atty = sdpa * sigmoid(W_theta ln1); datty becomes d(L)/d(sdpa)
            nn::attention_gate_backward<S>(ws.datty.middleCols(c, n), a.dgate.middleCols(c, n), a.sdpa.middleCols(c, n),
                                           a.gate.middleCols(c, n));
        }
    });

    // in the forward pass this was: atty = softmax(q k' * scale, causal) v, per (sequence, head).
    // One task per (sequence, key/value head): the G query heads that share its k and v add their
    // gradients into dk and dv one after the other (never two threads on the same rows); where nothing
    // zeroed them (writesQkvGradient) the first head writes them.
    const Eigen::Index ld = s_.qkvRows(), nq = p1 - p0, ldAtt = nn::attentionRows(T), KV = s_.kv();
    const Mixer mixer = s_.mixer(l);
    if (mixer != Mixer::Softmax && B > ws.carrySequences())
        throw std::logic_error("TransformerStack: more sequences than the linear mixers' carry holds");
    const bool writes = writesQkvGradient(l, p0, p1, T);
    par_.forEach(B * KV, [&](Eigen::Index i) {
        const Eigen::Index b = i / KV, g = i % KV;
        const S *qkv = a.qkv.data();
        S *dqkv = a.dqkv.data();
        const Eigen::OuterStride<> st(B * ld);
        nn::ConstStrided<S> k(qkv + b * ld + d + g * dh, dh, p1, st);
        nn::ConstStrided<S> v(qkv + b * ld + d + dkv + g * dh, dh, p1, st);
        nn::Strided<S> dk(dqkv + b * ld + d + g * dh, dh, p1, st);
        nn::Strided<S> dv(dqkv + b * ld + d + dkv + g * dh, dh, p1, st);
        for (Eigen::Index h = g * G; h < (g + 1) * G; ++h) {
            nn::ConstStrided<S> q(qkv + (p0 * B + b) * ld + h * dh, dh, nq, st);
            nn::Strided<S> dq(dqkv + (p0 * B + b) * ld + h * dh, dh, nq, st);
            nn::ConstStrided<S> dy(ws.datty.data() + (p0 * B + b) * d + h * dh, dh, nq, Eigen::OuterStride<>(B * d));
            if (mixer != Mixer::Softmax) {
                nn::linear_mixer_backward<S>(mixerHead(ws, l, b, h), dq, dk, dv, dy, q, k, v, p0, p1 == T);
                continue;
            }
            Eigen::Map<const M> att(a.att.data() + (b * H + h) * ldAtt * T, ldAtt, T);
            // (empty where the float kernel takes every head: it keeps its own scratch)
            S *dattAt = ws.datt.size() ? ws.datt.data() + (b * H + h) * ldAtt * T : nullptr;
            Eigen::Map<M> datt(dattAt, dattAt ? ldAtt : 0, dattAt ? T : 0);
            // where nothing zeroed them (writesQkvGradient) every head writes its dq, the group's first
            // its dk and dv
            nn::attention_backward<S>(dq, dk, dv, datt, dy, att, q, k, v, p0, pos.scale, writes, writes && h == g * G);
        }
    });

    // The q, k, v gradients of [p0, p1) are complete now: their own queries are done, and the later
    // positions that read their keys and values came before (the whole range at once, or, in the
    // exact backward, in earlier calls).
    const bool conv = s_.shortConv > 0;
    const auto qkvBack = [&](Eigen::Index c, Eigen::Index n) {
        if (rope) {
            // in the forward pass this was: q, k = R(m theta) q, R(m theta) k
            nn::rope_backward_inplace<S>(a.dqkv.block(0, c, d, n), pos.cos, pos.sin, c, B);
            nn::rope_backward_inplace<S>(a.dqkv.block(d, c, dkv, n), pos.cos, pos.sin, c, B);
        }
        if (s_.qkNorm) {
            // in the forward pass this was: q_h = RMSNorm(q_h) g_q, k_g = RMSNorm(k_g) g_k
            nn::qknorm_backward_inp<S>(a.dqkv.block(0, c, d + dkv, n), a.dqkNorm.middleCols(c, n),
                                       a.qkRaw.middleCols(c, n), a.qkRstd.middleRows(c, n), PV(params, w.qNorm),
                                       PV(params, w.kNorm), dh, H);
        }
    };
    const auto lnBack = [&](Eigen::Index c, Eigen::Index n) {
        // in the forward pass this was: qkv = W_qkv ln1 (qkvRaw with the short convolution), ln1 = LN1(x)
        auto dln1 = a.dln1.middleCols(c, n);
        nn::product<S>(dln1, P(params, w.Wqkv).transpose(), conv ? a.dqkvRaw.middleCols(c, n) : a.dqkv.middleCols(c, n),
                       false);
        if (s_.attnGate) nn::product<S>(dln1, P(params, w.Wg).transpose(), a.dgate.middleCols(c, n), true);  // the gate's
        // the delta rule's beta = sigmoid(w_beta ln1) and alpha = sigmoid(w_alpha ln1 + b_alpha)
        if (a.dbeta.size()) nn::product<S>(dln1, P(params, w.Wbeta).transpose(), a.dbeta.middleCols(c, n), true);
        if (a.dalpha.size()) nn::product<S>(dln1, P(params, w.Walpha).transpose(), a.dalpha.middleCols(c, n), true);
        nn::norm_backward_inp<S>(s_.rmsNorm, a.dx.middleCols(c, n), dln1, a.x.middleCols(c, n), PV(params, w.ln1w),
                                 a.ln1Mean.segment(c, n), a.ln1Rstd.segment(c, n));
    };
    if (!conv) {
        par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
            qkvBack(c, n);
            lnBack(c, n);
        });
        return;
    }
    // The short convolution: d(qkvRaw_t) reads d(qkv) of the later positions t + j, complete once
    // every chunk of this range has passed RoPE and QK-norm backwards (the positions past p1 were
    // done in earlier calls).
    par_.forColumns(p0 * B, (p1 - p0) * B, qkvBack);
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        // in the forward pass this was: qkv_t = sum_j w_j .* qkvRaw_{t - j}
        nn::short_conv_backward_data<S>(a.dqkvRaw.data(), a.dqkv.data(), params + w.conv.offset, s_.qkvRows(),
                                        s_.shortConv, B, T * B, c, n);
        lnBack(c, n);
    });
}

template <typename S>
bool TransformerStack<S>::writesQkvGradient(int l, Eigen::Index p0, Eigen::Index p1, Eigen::Index T) const
{
    // softmax attention over the whole sequence at once; the linear mixers add into dq, dk and dv, and
    // so does a range of later positions, whose queries add into the earlier keys and values
    return p0 == 0 && p1 == T && s_.mixer(l) == Mixer::Softmax;
}

template <typename S>
const typename TransformerStack<S>::M &TransformerStack<S>::outputGradient(const TransformerWorkspace<S> &ws,
                                                                            int l) const
{
    return l + 1 < s_.depth() ? ws.layer[std::size_t(l) + 1].dx : ws.dxL;
}

template <typename S>
int TransformerStack<S>::weightGradients(TransformerWorkspace<S> &ws, int l, WeightGradient *out) const
{
    const TransformerLayout::Block &w = L_.blocks[std::size_t(l % s_.layers)];
    typename TransformerWorkspace<S>::Layer &a = ws.layer[std::size_t(l)];
    const M &dout = outputGradient(ws, l);
    int n = 0;
    out[n++] = { &w.W2, &dout, &a.fc };     // out = mid + W2 fc + b2
    out[n++] = { &w.W1, &a.dfc, &a.ln2 };   // fc = relu(W1 ln2 + b1)
    out[n++] = { &w.Wo, &a.dmid, &a.atty };  // mid = x + W_O atty
    if (s_.attnGate) out[n++] = { &w.Wg, &a.dgate, &a.ln1 };  // atty = sdpa * sigmoid(W_theta ln1)
    // beta = sigmoid(w_beta ln1); alpha = sigmoid(w_alpha ln1 + b_alpha)
    if (a.dbeta.size()) out[n++] = { &w.Wbeta, &a.dbeta, &a.ln1 };
    if (a.dalpha.size()) out[n++] = { &w.Walpha, &a.dalpha, &a.ln1 };
    // qkv = conv(qkvRaw), qkvRaw = W_qkv ln1 (short convolution); else qkv = W_qkv ln1
    out[n++] = { &w.Wqkv, s_.shortConv > 0 ? &a.dqkvRaw : &a.dqkv, &a.ln1 };
    return n;
}

template <typename S>
void TransformerStack<S>::smallGradients(S *grads, TransformerWorkspace<S> &ws, int l) const
{
    const Eigen::Index N = ws.columns();
    auto all = [N](const M &m) { return m.leftCols(N); };
    const TransformerLayout::Block &w = L_.blocks[std::size_t(l % s_.layers)];
    typename TransformerWorkspace<S>::Layer &a = ws.layer[std::size_t(l)];
    const M &dout = outputGradient(ws, l);
    nn::bias_backward<S>(GV(grads, w.b2), all(dout));
    nn::bias_backward<S>(GV(grads, w.b1), all(a.dfc));
    // ln2 = LN2(mid)
    nn::norm_backward_params<S>(s_.rmsNorm, GV(grads, w.ln2w), GV(grads, w.ln2b), all(a.dln2), all(a.mid),
                                a.ln2Mean.head(N), a.ln2Rstd.head(N));
    if (a.dalpha.size()) nn::bias_backward<S>(GV(grads, w.balpha), all(a.dalpha));
    // q, k = RMSNorm(q) g_q, RMSNorm(k) g_k per head (QK-norm)
    if (s_.qkNorm)
        nn::qknorm_backward_params<S>(GV(grads, w.qNorm), GV(grads, w.kNorm), all(a.dqkNorm), all(a.qkRaw),
                                      a.qkRstd.topRows(N), s_.dHead(), s_.heads);
    if (s_.shortConv > 0)
        nn::short_conv_backward_weight<S>(grads + w.conv.offset, a.dqkv.data(), a.qkvRaw.data(), s_.qkvRows(),
                                          s_.shortConv, ws.B, N);
    // ln1 = LN1(x)
    nn::norm_backward_params<S>(s_.rmsNorm, GV(grads, w.ln1w), GV(grads, w.ln1b), all(a.dln1), all(a.x),
                                a.ln1Mean.head(N), a.ln1Rstd.head(N));
}

template <typename S>
void TransformerStack<S>::backwardParams(S *grads, TransformerWorkspace<S> &ws) const
{
    // Every parameter gradient in one loop shared among the threads (one fork and join a step, not
    // one per product): the tiles of every weight gradient of every block (gemm_tiles), one piece per
    // block for its biases and gains, and one for LN_f's. A piece of block wl's weights runs every
    // application of them in order (looped depth: applications wl, wl + L, ...), so each gradient adds
    // its shares in the same order as one thread taking them one by one: the same numbers.
    const Eigen::Index N = ws.columns();
    const int L = s_.layers;
    // the first piece of every (block, product), its small gradients and LN_f (workspace header)
    constexpr int E = TransformerWorkspace<S>::kGradientEntries;
    static_assert(E == kMostWeightGradients + 1, "a block's entries: its weight gradients and its small ones");
    std::vector<Eigen::Index> &first = ws.gradientPieces;
    if (first.size() != std::size_t(E * L + 2))
        throw std::logic_error("TransformerStack::backwardParams: a workspace reserved for another model");
    Eigen::Index total = 0;
    for (int wl = 0; wl < L; ++wl) {
        WeightGradient list[kMostWeightGradients];
        const int n = weightGradients(ws, wl, list);
        for (int k = 0; k < kMostWeightGradients; ++k) {
            first[std::size_t(E * wl + k)] = total;
            if (k < n) total += nn::gemm_tiles<S>(list[k].slot->rows, list[k].slot->cols, N);
        }
        first[std::size_t(E * wl + E - 1)] = total++;
    }
    first[std::size_t(E * L)] = total++;
    first[std::size_t(E * L + 1)] = total;
    par_.forEach(total, [&](Eigen::Index i) {
        // the last entry starting at or before i (empty products share their start with the next)
        const std::size_t e = std::size_t(std::upper_bound(first.begin(), first.end() - 1, i) - first.begin()) - 1;
        const int wl = int(e / E), k = int(e % E);
        if (wl == L) {
            // h = LN_f(x_L)
            nn::norm_backward_params<S>(s_.rmsNorm, GV(grads, L_.lnfw), GV(grads, L_.lnfb), ws.dh.leftCols(N),
                                        ws.xL.leftCols(N), ws.lnfMean.head(N), ws.lnfRstd.head(N));
        } else if (k == E - 1) {
            for (int l = wl; l < s_.depth(); l += L) smallGradients(grads, ws, l);
        } else {
            for (int l = wl; l < s_.depth(); l += L) {
                WeightGradient at[kMostWeightGradients];
                weightGradients(ws, l, at);
                // d(L)/d(W) += d(L)/d(out) inp'
                nn::gemm_tile<S>(i - first[e], G(grads, *at[k].slot), at[k].dout->leftCols(N), false,
                                 at[k].inp->leftCols(N), true, true);
            }
        }
    });
}

template <typename S>
nn::MixerHead<S> TransformerStack<S>::mixerHead(TransformerWorkspace<S> &ws, int l, Eigen::Index b, Eigen::Index h) const
{
    // (sequence b, head h) of the batch of B sequences of T positions: its states at ((b H + h) T) dh dh,
    // its z and denominators at ((b H + h) T) (dh + 1), beta and alpha in row h of the columns t B + b,
    // its carry at (b H + h) (dh dh + dh)
    typename TransformerWorkspace<S>::Layer &a = ws.layer[std::size_t(l)];
    const Eigen::Index H = s_.heads, dh = s_.dHead(), T = ws.T, B = ws.B, bh = b * H + h;
    nn::MixerHead<S> m;
    m.kind = s_.mixer(l);
    m.dh = dh;
    m.states = a.state.data() + bh * T * dh * dh;
    if (a.zden.size()) m.zden = a.zden.data() + bh * T * (dh + 1);
    m.gateStride = B * H;
    if (a.beta.size()) m.beta = a.beta.data() + b * H + h;
    if (a.alpha.size()) m.alpha = a.alpha.data() + b * H + h;
    if (a.dbeta.size()) m.dbeta = a.dbeta.data() + b * H + h;
    if (a.dalpha.size()) m.dalpha = a.dalpha.data() + b * H + h;
    if (a.carry.size()) {
        m.dS = a.carry.data() + bh * (dh * dh + dh);
        m.dz = m.dS + dh * dh;
    }
    // the chunked form's scratch holds the sequences the carry does (the backward refuses more)
    if (a.chunkWork.size() && b < ws.carrySequences()) m.work = a.chunkWork.data() + bh * nn::chunkedMixerWork(dh);
    return m;
}

template class TransformerStack<float>;
template class TransformerStack<double>;

} // namespace fb
