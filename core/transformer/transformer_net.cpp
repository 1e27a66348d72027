#include "core/transformer/transformer_net.h"

#include "core/interpret/ablation.h"
#include "core/transformer/chunked_products.h"
#include "core/transformer/layer_norm.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace fb {

template <typename S>
TransformerNet<S>::TransformerNet(const TransformerShape &shape, int threads)
    : s_(shape), L_(shape), par_(threads), stack_(s_, L_, par_),
      embScale_(shape.embedScale ? S(std::sqrt(double(shape.dModel))) : S(1))
{
    params = V::Zero(L_.total);
    grads = V::Zero(L_.total);
}

template <typename S>
void TransformerNet<S>::init(Rng &rng)
{
    auto normal = [&](const TransformerLayout::Slot &s) {
        for (Eigen::Index i = 0; i < s.size(); ++i) params[s.offset + i] = S(0.02 * rng.normal());
    };
    auto constant = [&](const TransformerLayout::Slot &s, double v) { params.segment(s.offset, s.size()).setConstant(S(v)); };
    normal(L_.E);
    for (const TransformerLayout::Block &b : L_.blocks) {
        constant(b.ln1w, 1.0);
        constant(b.ln1b, 0.0);
        constant(b.ln2w, 1.0);
        constant(b.ln2b, 0.0);
        normal(b.Wqkv);
        normal(b.Wo);
        normal(b.W1);
        constant(b.b1, 0.0);
        normal(b.W2);
        constant(b.b2, 0.0);
        constant(b.qNorm, 1.0);
        constant(b.kNorm, 1.0);
        normal(b.Wg);
        normal(b.Wbeta);
        normal(b.Walpha);
        constant(b.balpha, 4.0);  // alpha = sigmoid(4) = 0.98 at the start: a slow decay, a long memory
        // the short convolution starts as the identity (tap 0 = 1, the earlier taps 0): no draw is
        // spent, so every other weight is the one the same seed gives without it
        constant(b.conv, 0.0);
        params.segment(b.conv.offset, b.conv.rows).setOnes();
    }
    constant(L_.lnfw, 1.0);
    constant(L_.lnfb, 0.0);
    normal(L_.Wu);
    if (s_.feedback) {
        normal(L_.Wf);
        constant(L_.bf, 0.0);
    }
    if (s_.obsInputs > 0) normal(L_.Wobs);
}

template <typename S>
void TransformerNet<S>::check(const TransformerWorkspace<S> &ws, const TransformerBatch &batch,
                              const PositionTables<S> &pos) const
{
    const bool rope = s_.heads > 0 && pos.scheme == PositionalScheme::Rope;
    if (batch.positions > ws.maxLen || batch.columns() > ws.capacity || pos.length < batch.positions
        || (rope && pos.cos.rows() != s_.dModel / 2) || (s_.obsInputs > 0 && batch.obs.cols() != batch.columns()))
        throw std::logic_error("TransformerNet: batch, workspace and position tables do not match");
}

template <typename S>
void TransformerNet<S>::embed(TransformerWorkspace<S> &ws, const int *tokens, const float *obs, Eigen::Index obsStride,
                              Eigen::Index c0, Eigen::Index n) const
{
    const Eigen::Index d = s_.dModel;
    const auto E = P(L_.E);
    // e = scale * (E[tok] + W_obs obs)
    for (Eigen::Index i = 0; i < n; ++i) {
        auto e = ws.emb.col(c0 + i);
        e = E.col(tokens[i]);
        if (s_.obsInputs > 0) {
            const auto Wobs = P(L_.Wobs);
            for (int k = 0; k < s_.obsInputs; ++k) e += Wobs.col(k) * S(obs[i * obsStride + k]);
        }
        if (s_.embedScale) e *= embScale_;
    }
    if (s_.feedback) {
        // fzEmb = [W_a; W_b][:, :d] e + [b_a; b_b], the part of the fusion that does not read h
        auto fz = ws.fzEmb.middleCols(c0, n);
        fz.colwise() = Eigen::Map<const V>(params.data() + L_.bf.offset, 2 * d);
        nn::product_forward<S>(par_, fz, P(L_.Wf).leftCols(d), ws.emb.middleCols(c0, n), true);
    }
}

template <typename S>
void TransformerNet<S>::inputs(TransformerWorkspace<S> &ws, const PositionTables<S> &pos, Eigen::Index p0,
                               Eigen::Index p1) const
{
    const Eigen::Index B = ws.B, d = s_.dModel;
    par_.forColumns(p0 * B, (p1 - p0) * B, [&](Eigen::Index c, Eigen::Index n) {
        auto x = ws.layer[0].x.middleCols(c, n);
        if (s_.feedback) {
            // fz = fzEmb + [W_a; W_b][:, d:] h_{t-1};  x = a * sigmoid(g)
            auto fz = ws.fz.middleCols(c, n);
            fz = ws.fzEmb.middleCols(c, n);
            nn::product<S>(fz, P(L_.Wf).rightCols(d), ws.hprev.middleCols(c, n), true);
            nn::glu_forward<S>(x, ws.gate.middleCols(c, n), fz);
        } else {
            x = ws.emb.middleCols(c, n);
        }
        if (pos.scheme == PositionalScheme::Sinusoidal)
            for (Eigen::Index i = 0; i < n; ++i) x.col(i) += pos.pe.col((c + i) / B);  // x_t += PE(t)
    });
}

template <typename S>
void TransformerNet<S>::setFeedback(TransformerWorkspace<S> &ws, const M *h) const
{
    const Eigen::Index B = ws.B, N = ws.columns();
    if (!h) {
        ws.hprev.leftCols(N).setZero();
        return;
    }
    // h_{t-1} for every t: the time-major shift by one position is one block copy; h_{-1} = 0
    ws.hprev.leftCols(B).setZero();
    ws.hprev.middleCols(B, N - B) = h->leftCols(N - B);
}

template <typename S>
double TransformerNet<S>::head(TransformerWorkspace<S> &ws, const TransformerBatch &batch) const
{
    const Eigen::Index N = ws.columns();
    // logits = W_u h
    nn::product_forward<S>(par_, ws.logits.leftCols(N), P(L_.Wu), ws.h.leftCols(N), false);
    if (!batch.hasTargets()) return std::numeric_limits<double>::quiet_NaN();
    // the mean over the columns with a target (the answer tasks ignore the others)
    const Eigen::Index counted = nn::counted_targets(batch.targets.data(), N);
    // the softmax of every column in the threads' pieces, then the sum in column order on this thread
    const int *targets = batch.targets.data();
    par_.forColumns(0, N, [&](Eigen::Index c, Eigen::Index n) {
        nn::crossentropy_softmax<S>(ws.logits.middleCols(c, n), ws.probs.middleCols(c, n), ws.colmax.segment(c, n),
                                    ws.logsum.segment(c, n));
    });
    const double sum = nn::crossentropy_sum(ws.logits.leftCols(N), targets, ws.colmax, ws.logsum);
    return counted ? sum / double(counted) : 0.0;
}

template <typename S>
double TransformerNet<S>::forward(TransformerWorkspace<S> &ws, const TransformerBatch &batch,
                                  const PositionTables<S> &pos, FeedbackMode mode, int passes,
                                  const Ablation *ablation) const
{
    check(ws, batch, pos);
    if (ablation) checkAblation(*ablation);
    ws.setBatch(batch.batch, batch.positions);
    const Eigen::Index B = ws.B, T = ws.T, N = ws.columns();
    embed(ws, batch.tokens.data(), batch.obs.data(), 2, 0, N);
    if (!s_.feedback) mode = FeedbackMode::Off;
    if (ablation && ablation->feedbackShut && mode != FeedbackMode::Off) {
        // the gate on h_{t-1} shut: every position reads h_{t-1} = 0, the k-pass objective's first pass
        mode = FeedbackMode::KPass;
        passes = 1;
    }
    if (mode == FeedbackMode::Off) {
        inputs(ws, pos, 0, T);
        stack_.forward(params.data(), ws, pos, 0, T, ablation);
    } else if (mode == FeedbackMode::KPass) {
        for (int j = 1; j <= passes; ++j) {
            setFeedback(ws, j == 1 ? nullptr : &ws.h);  // pass j reads the h of pass j-1
            inputs(ws, pos, 0, T);
            stack_.forward(params.data(), ws, pos, 0, T, ablation);
        }
    } else {
        // exact: position t's h is computed before the input of t + 1
        for (Eigen::Index t = 0; t < T; ++t) {
            if (t == 0) ws.hprev.leftCols(B).setZero();
            else ws.hprev.middleCols(t * B, B) = ws.h.middleCols((t - 1) * B, B);
            inputs(ws, pos, t, t + 1);
            stack_.forward(params.data(), ws, pos, t, t + 1, ablation);
        }
    }
    return head(ws, batch);
}

template <typename S>
void TransformerNet<S>::checkAblation(const Ablation &a) const
{
    for (const HeadId &id : a.heads)
        if (id.layer < 0 || id.layer >= s_.layers || id.head < 0 || id.head >= s_.heads)
            throw std::logic_error("TransformerNet: the ablation names a head the model does not have");
    for (int l : a.ffnOff)
        if (l < 0 || l >= s_.layers) throw std::logic_error("TransformerNet: the ablation names a layer the model does not have");
    if (a.kind == AblationKind::Mean && !a.heads.empty()) {
        bool ok = a.means.size() == std::size_t(s_.layers);
        for (const auto &m : a.means) ok = ok && m.size() == std::size_t(s_.dModel);
        if (!ok) throw std::logic_error("TransformerNet: a mean-ablation without the heads' means");
    }
}

template <typename S>
double TransformerNet<S>::readLayer(TransformerWorkspace<S> &ws, const TransformerBatch &batch, int layer) const
{
    if (layer < 0 || layer >= s_.layers || batch.columns() != ws.columns())
        throw std::logic_error("TransformerNet::readLayer: no such layer, or not the batch of the last forward");
    stack_.readout(params.data(), ws, (s_.loops - 1) * s_.layers + layer, 0, ws.T);  // looped: the last loop's
    return head(ws, batch);
}

template <typename S>
double TransformerNet<S>::forwardFinalPass(TransformerWorkspace<S> &ws, const TransformerBatch &batch,
                                           const PositionTables<S> &pos, const M &previousH) const
{
    check(ws, batch, pos);
    if (!s_.feedback) throw std::logic_error("forwardFinalPass: the model has no feedback");
    ws.setBatch(batch.batch, batch.positions);
    embed(ws, batch.tokens.data(), batch.obs.data(), 2, 0, ws.columns());
    setFeedback(ws, &previousH);
    inputs(ws, pos, 0, ws.T);
    stack_.forward(params.data(), ws, pos, 0, ws.T);
    return head(ws, batch);
}

template <typename S>
void TransformerNet<S>::forwardPosition(TransformerWorkspace<S> &ws, const int *tokens, const float *obs,
                                        Eigen::Index t, const PositionTables<S> &pos) const
{
    const Eigen::Index B = ws.B, c0 = t * B;
    if (t >= ws.T || pos.length <= t) throw std::logic_error("forwardPosition: position beyond the workspace");
    embed(ws, tokens, obs, 2, c0, B);
    if (s_.feedback) {
        if (t == 0) ws.hprev.leftCols(B).setZero();
        else ws.hprev.middleCols(c0, B) = ws.h.middleCols(c0 - B, B);
    }
    inputs(ws, pos, t, t + 1);
    stack_.forward(params.data(), ws, pos, t, t + 1);
    nn::product<S>(par_, ws.logits.middleCols(c0, B), P(L_.Wu), ws.h.middleCols(c0, B), false);
}

template <typename S>
void TransformerNet<S>::inputsBackward(TransformerWorkspace<S> &ws, Eigen::Index p0, Eigen::Index p1, bool exact)
{
    const Eigen::Index B = ws.B, d = s_.dModel, c0 = p0 * B, n = (p1 - p0) * B;
    const auto dx = ws.layer[0].dx.middleCols(c0, n);  // x += PE(t) passes its gradient through unchanged
    if (!s_.feedback) {
        ws.demb.middleCols(c0, n) = dx;
        return;
    }
    // in the forward pass this was: x = a * sigmoid(g), [a; g] = fz
    auto dfz = ws.dfz.middleCols(c0, n);
    dfz.setZero();
    nn::glu_backward<S>(dfz, dx, ws.fz.middleCols(c0, n), ws.gate.middleCols(c0, n));
    if (exact && p0 > 0) {
        // in the forward pass this was: fz_t = fzEmb_t + [W_a; W_b][:, d:] h_{t-1}, h_{t-1} = h of p0 - 1
        nn::product<S>(par_, ws.dh.middleCols(c0 - B, B), P(L_.Wf).rightCols(d).transpose(), ws.dfz.middleCols(c0, B),
                       true);
    }
}

template <typename S>
void TransformerNet<S>::backward(TransformerWorkspace<S> &ws, const TransformerBatch &batch,
                                 const PositionTables<S> &pos, FeedbackMode mode, int passes)
{
    (void)passes;  // every kpass backward runs through the last pass only
    if (!ws.withGrad || !batch.hasTargets()) throw std::logic_error("TransformerNet::backward: no gradients to compute");
    const Eigen::Index T = ws.T, N = ws.columns(), d = s_.dModel;
    auto all = [N](M &m) { return m.leftCols(N); };
    if (!s_.feedback) mode = FeedbackMode::Off;

    // The stack's backward runs over ranges of `span` positions from the last: all T at once, or, in
    // the exact backward (backpropagation through time), one position at a time.
    const bool exact = mode == FeedbackMode::Exact;
    const Eigen::Index span = exact ? 1 : T;

    // loss = mean cross entropy of logits; logits = W_u h
    // in the threads' pieces of columns: d(loss)/d(logits), and the dqkv zeroed of every layer whose
    // keys and values accumulate into it (the exact backward's positions one by one, linear mixers),
    // that is, every layer whose dq, dk and dv the first range, [T - span, T), does not write
    const auto written = [&](int l) { return stack_.writesQkvGradient(l, T - span, T, T); };
    const Eigen::Index counted = nn::counted_targets(batch.targets.data(), N);
    par_.forColumns(0, N, [&](Eigen::Index c, Eigen::Index n) {
        auto dlogits = ws.dlogits.middleCols(c, n);
        dlogits.setZero();
        nn::crossentropy_backward<S>(dlogits, ws.probs.middleCols(c, n), batch.targets.data() + c, S(1), counted);
        for (int l = 0; l < int(ws.layer.size()); ++l)
            if (!written(l)) ws.layer[std::size_t(l)].dqkv.middleCols(c, n).setZero();
    });
    nn::product_backward_inp<S>(par_, all(ws.dh), P(L_.Wu), all(ws.dlogits), false);
    nn::product_backward_weight<S>(par_, G(L_.Wu), all(ws.dlogits), all(ws.h));

    // exact: position t's d(L)/dh is complete once t + 1 is done
    for (Eigen::Index p1 = T; p1 > 0; p1 -= span) {
        stack_.backwardData(params.data(), ws, pos, p1 - span, p1);
        inputsBackward(ws, p1 - span, p1, exact);
    }
    stack_.backwardParams(grads.data(), ws);

    if (s_.feedback) {
        // in the forward pass this was: fz = [W_a; W_b] [e; h_{t-1}] + [b_a; b_b]
        // (kpass: h_{t-1} of the previous pass, a constant; exact: its gradient went into dh above)
        nn::product_backward_weight<S>(par_, G(L_.Wf).leftCols(d), all(ws.dfz), all(ws.emb));
        nn::product_backward_weight<S>(par_, G(L_.Wf).rightCols(d), all(ws.dfz), all(ws.hprev));
        nn::bias_backward<S>(Eigen::Map<V>(grads.data() + L_.bf.offset, 2 * d), all(ws.dfz));
        nn::product_backward_inp<S>(par_, all(ws.demb), P(L_.Wf).leftCols(d), all(ws.dfz), false);
    }
    // in the forward pass this was: e = scale * (E[tok] + W_obs obs)
    if (s_.embedScale) all(ws.demb) *= embScale_;  // now d(L)/d(E[tok] + W_obs obs)
    auto dE = G(L_.E);
    for (Eigen::Index n = 0; n < N; ++n) dE.col(batch.tokens[std::size_t(n)]) += ws.demb.col(n);
    if (s_.obsInputs > 0) {
        const Eigen::Map<const nn::Mat<float>> obs(batch.obs.data(), s_.obsInputs, N);
        nn::product<S>(par_, G(L_.Wobs), all(ws.demb), obs.transpose().template cast<S>(), true);
    }
}

template class TransformerNet<float>;
template class TransformerNet<double>;

} // namespace fb
