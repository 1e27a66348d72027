// ToyNet's initialisation, forward and backward passes (toy_model.h), compiled once for float and
// double.
#include "core/training/toy_model.h"

namespace fb {

template <typename S>
void ToyNet<S>::init(Rng &rng)
{
    for (Eigen::Index i = 0; i < L_.E.size(); ++i) params[L_.E.offset + i] = S(rng.normal());
    if (latent_) {
        // W_a (weight, bias) then W_b (weight, bias), like the two nn.Linear modules.
        const Eigen::Index f = s_.dFuse;
        auto wf = P(L_.Wf);
        auto bf = PV(L_.bf);
        const double bound = 1.0 / std::sqrt(double(L_.Wf.cols));
        for (Eigen::Index half = 0; half < 2; ++half) {
            for (Eigen::Index c = 0; c < wf.cols(); ++c)
                for (Eigen::Index r = 0; r < f; ++r) wf(half * f + r, c) = S(rng.uniform(-bound, bound));
            for (Eigen::Index r = 0; r < f; ++r) bf[half * f + r] = S(rng.uniform(-bound, bound));
        }
    }
    initLinear(rng, L_.W1, L_.b1);
    initLinear(rng, L_.W2, L_.b2);
    initLinear(rng, L_.Wh, L_.bh);
    if (latent_) P(L_.h0).setZero();
}

template <typename S>
void ToyNet<S>::reserve(int maxBatch)
{
    const Eigen::Index n = Eigen::Index(maxBatch) * s_.seqLen;
    if (n <= capacity_) return;
    capacity_ = n;
    const Eigen::Index H = s_.dHid, Vb = s_.buckets, F = s_.dFuse;
    h1_.resize(H, n);
    h2_.resize(H, n);
    logits_.resize(Vb, n);
    probs_.resize(Vb, n);
    colmax_.resize(n);
    logsum_.resize(n);
    dlogits_.resize(Vb, n);
    dh2_.resize(H, n);
    dh1_.resize(H, n);
    proj_.resize(latent_ ? 2 * F : H, Vb);
    dproj_.resize(latent_ ? 2 * F : H, Vb);
    if (!latent_) {
        obs_.resize(2, n);
        return;
    }
    hp_.resize(H, n);
    fz_.resize(2 * F, n);
    sig_.resize(F, n);
    in1_.resize(F + 2, n);
    dfz_.resize(2 * F, n);
    dx_.resize(F, n);
    dh0_.resize(H, n);
}

template <typename S>
double ToyNet<S>::forward(const ToyBatch &batch, int passes)
{
    const Eigen::Index B = batch.batch, N = check(batch, passes);
    const int *yPrev = batch.yPrev.data();
    if (!latent_) {
        obs_.leftCols(N) = batch.obs.cast<S>();
        token_stack_forward(N, yPrev);
        return head_forward(batch, N);
    }
    // in1 is (D_FUSE + 2, N): rows [0, D_FUSE) are x_t (written by the GLU), then obs_t
    in1_.bottomRows(2).leftCols(N) = batch.obs.cast<S>();
    if (passes == 0) {
        fusion_token_part(N, yPrev);
        for (Eigen::Index t = 0; t < s_.seqLen; ++t) {
            auto hp = hp_.middleCols(t * B, B);
            if (t == 0) hp.colwise() = PV(L_.h0);
            else hp = h2_.middleCols((t - 1) * B, B);  // h_{t-1}
            latent_stack_forward(t * B, B);
        }
    } else {
        for (int p = 1; p <= passes; ++p) {
            set_feedback(B, N, p == 1 ? nullptr : &h2_);
            fusion_token_part(N, yPrev);
            latent_stack_forward(0, N);
        }
    }
    return head_forward(batch, N);
}

template <typename S>
double ToyNet<S>::forward_final_pass(const ToyBatch &batch, const M *feedback)
{
    const Eigen::Index B = batch.batch, N = check(batch, 1);
    if (!latent_) throw std::logic_error("forward_final_pass: latent arm only");
    in1_.bottomRows(2).leftCols(N) = batch.obs.cast<S>();
    set_feedback(B, N, feedback);
    fusion_token_part(N, batch.yPrev.data());
    latent_stack_forward(0, N);
    return head_forward(batch, N);
}

template <typename S>
void ToyNet<S>::backward(const ToyBatch &batch, int passes)
{
    const Eigen::Index B = batch.batch, N = check(batch, passes);
    const int *yPrev = batch.yPrev.data();
    const Eigen::Index H = s_.dHid, E = s_.dEmb, F = s_.dFuse;
    auto cols = [N](M &m) { return m.leftCols(N); };

    // loss = mean cross entropy of logits; logits = Wh h + bh
    cols(dlogits_).setZero();
    nn::crossentropy_backward<S>(cols(dlogits_), cols(probs_), batch.y.data(), S(1));
    cols(dh2_).setZero();
    nn::linear_backward<S>(cols(dh2_), G(L_.Wh), GV(L_.bh), cols(dlogits_), cols(h2_), P(L_.Wh));

    if (!latent_ || passes >= 1) {
        // No recurrence in the gradient: every layer is one product over all N columns.
        nn::tanh_backward_inplace<S>(cols(dh2_), cols(h2_));  // dh2 now holds d(pre2)
        cols(dh1_).setZero();
        nn::linear_backward<S>(cols(dh1_), G(L_.W2), GV(L_.b2), cols(dh2_), cols(h1_), P(L_.W2));
        nn::tanh_backward_inplace<S>(cols(dh1_), cols(h1_));  // dh1 now holds d(pre1)
        if (!latent_) {
            // in the forward pass this was: pre1 = (W1[:, :E] E + b1)[:, y_{t-1}] + W1[:, E:] obs_t
            nn::matmul_backward_weight<S>(G(L_.W1).rightCols(2), cols(dh1_), cols(obs_));
            nn::embedding_linear_backward<S>(G(L_.E), G(L_.W1).leftCols(E), GV(L_.b1), dproj_, cols(dh1_),
                                             P(L_.E), P(L_.W1).leftCols(E), yPrev);
            return;
        }
        // in the forward pass this was: pre1 = W1 [x_t; obs_t] + b1, x_t = GLU(fz_t)
        nn::linear_backward_params<S>(G(L_.W1), GV(L_.b1), cols(dh1_), cols(in1_));
        cols(dx_).setZero();  // only the x rows of in1: obs needs no gradient
        nn::linear_backward_inp<S>(cols(dx_), cols(dh1_), P(L_.W1).leftCols(F));
        cols(dfz_).setZero();
        nn::glu_backward<S>(cols(dfz_), cols(dx_), cols(fz_), cols(sig_));
        fusion_backward_params(N, yPrev);
        // h0 is read directly by every column in pass 1 and by the t = 0 columns in later
        // passes; the other columns read h^(k-1), a constant of the stop-gradient objective.
        add_dh0(passes == 1 ? N : B);
        return;
    }

    // Exact recurrence: backpropagation through time, the data gradients step by step from
    // t = T-1 down to 0 (B columns each), the parameter gradients afterwards in one product
    // over all N columns.
    cols(dh1_).setZero();
    cols(dx_).setZero();
    cols(dfz_).setZero();
    for (Eigen::Index t = s_.seqLen - 1; t >= 0; --t) {
        auto blk = [t, B](M &m) { return m.middleCols(t * B, B); };
        if (t + 1 < s_.seqLen) {
            // in the forward pass this was: fz_{t+1} = (token part) + Wf[:, E:] h_t
            nn::linear_backward_inp<S>(blk(dh2_), dfz_.middleCols((t + 1) * B, B), P(L_.Wf).rightCols(H));
        }
        nn::tanh_backward_inplace<S>(blk(dh2_), blk(h2_));
        nn::linear_backward_inp<S>(blk(dh1_), blk(dh2_), P(L_.W2));
        nn::tanh_backward_inplace<S>(blk(dh1_), blk(h1_));
        nn::linear_backward_inp<S>(blk(dx_), blk(dh1_), P(L_.W1).leftCols(F));
        nn::glu_backward<S>(blk(dfz_), blk(dx_), blk(fz_), blk(sig_));
    }
    add_dh0(B);  // h_{-1} = h0 for every sequence
    nn::linear_backward_params<S>(G(L_.W2), GV(L_.b2), cols(dh2_), cols(h1_));
    nn::linear_backward_params<S>(G(L_.W1), GV(L_.b1), cols(dh1_), cols(in1_));
    fusion_backward_params(N, yPrev);
}

template <typename S>
void ToyNet<S>::initLinear(Rng &rng, const ToyLayout::Slot &w, const ToyLayout::Slot &b)
{
    const double bound = 1.0 / std::sqrt(double(w.cols));  // fan_in
    for (Eigen::Index i = 0; i < w.size(); ++i) params[w.offset + i] = S(rng.uniform(-bound, bound));
    for (Eigen::Index i = 0; i < b.size(); ++i) params[b.offset + i] = S(rng.uniform(-bound, bound));
}

template <typename S>
void ToyNet<S>::set_feedback(Eigen::Index B, Eigen::Index N, const M *feedback)
{
    if (!feedback) {
        hp_.leftCols(N).colwise() = PV(L_.h0);
        return;
    }
    hp_.leftCols(B).colwise() = PV(L_.h0);
    hp_.middleCols(B, N - B) = feedback->leftCols(N - B);
}

template <typename S>
void ToyNet<S>::token_stack_forward(Eigen::Index N, const int *yPrev)
{
    auto cols = [N](M &m) { return m.leftCols(N); };
    // pre1 = W1 [E[y_{t-1}]; obs_t] + b1: the folded token part, then the observation part
    nn::embedding_linear_forward<S>(cols(h1_), proj_, P(L_.E), P(L_.W1).leftCols(s_.dEmb), PV(L_.b1), yPrev);
    nn::matmul_forward<S>(cols(h1_), cols(obs_), P(L_.W1).rightCols(2));
    nn::tanh_forward<S>(cols(h1_), cols(h1_));
    nn::linear_forward<S>(cols(h2_), cols(h1_), P(L_.W2), PV(L_.b2));
    nn::tanh_forward<S>(cols(h2_), cols(h2_));
}

template <typename S>
void ToyNet<S>::fusion_token_part(Eigen::Index N, const int *yPrev)
{
    nn::embedding_linear_forward<S>(fz_.leftCols(N), proj_, P(L_.E), P(L_.Wf).leftCols(s_.dEmb), PV(L_.bf),
                                    yPrev);
}

template <typename S>
void ToyNet<S>::latent_stack_forward(Eigen::Index c0, Eigen::Index n)
{
    auto blk = [c0, n](M &m) { return m.middleCols(c0, n); };
    // fz = [W_a; W_b] [E[y_{t-1}]; h_{t-1}] + [b_a; b_b]: add the state part to the token part
    nn::matmul_forward<S>(blk(fz_), blk(hp_), P(L_.Wf).rightCols(s_.dHid));
    nn::glu_forward<S>(in1_.topRows(s_.dFuse).middleCols(c0, n), blk(sig_), blk(fz_));
    nn::linear_forward<S>(blk(h1_), blk(in1_), P(L_.W1), PV(L_.b1));
    nn::tanh_forward<S>(blk(h1_), blk(h1_));
    nn::linear_forward<S>(blk(h2_), blk(h1_), P(L_.W2), PV(L_.b2));
    nn::tanh_forward<S>(blk(h2_), blk(h2_));
}

template <typename S>
void ToyNet<S>::fusion_backward_params(Eigen::Index N, const int *yPrev)
{
    const Eigen::Index E = s_.dEmb;
    // in the forward pass this was: fz = (Wf[:, :E] E + bf)[:, y_{t-1}] + Wf[:, E:] h_{t-1}
    nn::matmul_backward_weight<S>(G(L_.Wf).rightCols(s_.dHid), dfz_.leftCols(N), hp_.leftCols(N));
    nn::embedding_linear_backward<S>(G(L_.E), G(L_.Wf).leftCols(E), GV(L_.bf), dproj_, dfz_.leftCols(N),
                                     P(L_.E), P(L_.Wf).leftCols(E), yPrev);
}

template <typename S>
void ToyNet<S>::add_dh0(Eigen::Index direct)
{
    auto d = dh0_.leftCols(direct);
    d.setZero();
    nn::linear_backward_inp<S>(d, dfz_.leftCols(direct), P(L_.Wf).rightCols(s_.dHid));
    GV(L_.h0) += d.rowwise().sum();
}

template <typename S>
double ToyNet<S>::head_forward(const ToyBatch &batch, Eigen::Index N)
{
    nn::linear_forward<S>(logits_.leftCols(N), h2_.leftCols(N), P(L_.Wh), PV(L_.bh));
    return nn::crossentropy_forward<S>(logits_.leftCols(N), batch.y.data(), probs_.leftCols(N), colmax_.head(N),
                                       logsum_.head(N)) / double(N);
}

template class ToyNet<float>;
template class ToyNet<double>;

} // namespace fb
