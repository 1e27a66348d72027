#pragma once
// The two models of Figure 218.2 (000_031aadcae6604a46.txt, 218.6.5, classes TokenOnly and
// LatentFeedback), with hand-written forward and backward passes over whole batches.
//
//   token-only:       x_t = E[y_{t-1}]
//   latent-feedback:  u_t = [E[y_{t-1}]; h_{t-1}],  x_t = (W_a u_t + b_a) * sigmoid(W_b u_t + b_b),
//                     h_{-1} = h0 (a learned vector, initialised to zeros as in the chapter)
//   both:             h1_t = tanh(W1 [x_t; obs_t] + b1),  h_t = tanh(W2 h1_t + b2),
//                     logits_t = Wh h_t + bh,  loss = mean over B*T positions of cross entropy
//
// Latent arm, two training modes (passes):
//   0      exact: the serial recurrence over t = 0..T-1 (B columns per step), backpropagation
//          through time over all T steps.
//   k >= 1 the k-pass objective of Section 218.6.4. Every pass runs all T positions at once, one
//          (C, T*B) matrix product per layer:
//            pass 1:      u^(1)_t = [E[y_{t-1}]; h0]                       for every t
//            pass p > 1:  u^(p)_t = [E[y_{t-1}]; h^(p-1)_{t-1}],  h^(p-1)_{-1} = h0
//          Passes 1..k-1 run without gradient (their h is a constant, a stop-gradient); the loss is
//          that of pass k and backpropagation runs through pass k only (h0 gets the gradient of the
//          places where pass k reads it directly). h^(p)_t equals the exact h_t for t < p, so k = T
//          reproduces the exact forward pass.
//          Design choice: the chapter's pass 1 is x^(1)_t = E[y_{t-1}], written for a transformer
//          whose input width is the embedding width. Here the stack reads the fused vector (width
//          D_FUSE, not D_EMB), so pass 1 feeds x^(1)_t = GLU(E[y_{t-1}], h0): the same model with the
//          feedback held at its initial state. This is what makes k = T exact.
//
// Parameters live in one flat vector (params, and grads with the same layout) in the order of the
// chapter's modules: emb, W_a/W_b, stack.body[0], stack.body[2], stack.head, h0. W_a and W_b are
// stored as the two row blocks of one (2*D_FUSE, D_EMB + D_HID) matrix Wf = [W_a; W_b] so that a
// and g come out of the same products. Initialisation follows PyTorch's defaults: Linear weight and bias
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)), Embedding N(0, 1), h0 zeros.
//
// Concatenated inputs are never built: W [a; b] is computed as W[:, :A] a + W[:, A:] b. Where the
// part is a token embedding (token-only layer 1, the fusion's E[y_{t-1}] half) the product is folded
// into a (rows, V_b) table first (nn::embedding_linear_*), the same function at V_b/N of the cost.
#include "core/numeric/rng.h"
#include "core/training/layers.h"
#include "core/training/toy_task.h"
#include "core/training/trainer.h"

#include <cmath>
#include <stdexcept>

namespace fb {

struct ToySizes {
    int buckets = 4;  // V_b
    int dEmb = 16;
    int dHid = 64;
    int dFuse = 16;
    int seqLen = 16;  // T
};

inline ToySizes toySizes(const TrainConfig &c) { return { c.buckets, c.dEmb, c.dHid, c.dFuse, c.seqLen }; }

// Where each tensor sits in the flat parameter vector.
struct ToyLayout {
    struct Slot {
        Eigen::Index offset = 0, rows = 0, cols = 0;
        Eigen::Index size() const { return rows * cols; }
    };
    Slot E, Wf, bf, W1, b1, W2, b2, Wh, bh, h0;  // Wf, bf, h0 empty for the token-only arm
    Eigen::Index total = 0;

    ToyLayout(Arm arm, const ToySizes &s)
    {
        const bool latent = arm == Arm::LatentFeedback;
        const int cx = latent ? s.dFuse : s.dEmb;  // width of x_t, the stack's input besides obs
        add(E, s.dEmb, s.buckets);                 // one embedding per column
        if (latent) {
            add(Wf, 2 * s.dFuse, s.dEmb + s.dHid);  // columns [0, D_EMB) read E[y], the rest h
            add(bf, 2 * s.dFuse, 1);
        }
        add(W1, s.dHid, cx + 2);  // columns [0, cx) read x_t, the last two obs_t
        add(b1, s.dHid, 1);
        add(W2, s.dHid, s.dHid);
        add(b2, s.dHid, 1);
        add(Wh, s.buckets, s.dHid);
        add(bh, s.buckets, 1);
        if (latent) add(h0, s.dHid, 1);
    }

private:
    void add(Slot &slot, Eigen::Index rows, Eigen::Index cols)
    {
        slot = { total, rows, cols };
        total += rows * cols;
    }
};

template <typename S>
class ToyNet {
public:
    using M = nn::Mat<S>;
    using V = nn::Vec<S>;
    using MapM = Eigen::Map<M>;
    using MapV = Eigen::Map<V>;

    V params;  // every parameter, layout as in ToyLayout
    V grads;   // d(loss)/d(params), same layout

    ToyNet(Arm arm, const ToySizes &sizes)
        : s_(sizes), L_(arm, sizes), latent_(arm == Arm::LatentFeedback)
    {
        params = V::Zero(L_.total);
        grads = V::Zero(L_.total);
    }

    const ToySizes &sizes() const { return s_; }
    const ToyLayout &layout() const { return L_; }
    Eigen::Index parameterCount() const { return L_.total; }

    // PyTorch's default initialisation, drawn in the order of the flat layout.
    void init(Rng &rng)
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

    // Sizes the workspaces for batches of up to maxBatch sequences. Allocates: call it before the
    // training loop; forward and backward themselves never allocate.
    void reserve(int maxBatch)
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

    void zero_grad() { grads.setZero(); }

    // Forward pass over one batch; returns the mean cross entropy over its B*T positions.
    // passes (latent arm only, ignored by token-only): 0 = exact recurrence, k >= 1 = k-pass.
    double forward(const ToyBatch &batch, int passes)
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

    // For gradient checks of the k-pass objective: the last pass alone, with the previous pass's
    // top hidden states given (a constant), or null for pass 1 (h0 everywhere).
    // feedback is (D_HID, T*B), e.g. hidden() after forward(batch, k - 1).
    double forward_final_pass(const ToyBatch &batch, const M *feedback)
    {
        const Eigen::Index B = batch.batch, N = check(batch, 1);
        if (!latent_) throw std::logic_error("forward_final_pass: latent arm only");
        in1_.bottomRows(2).leftCols(N) = batch.obs.cast<S>();
        set_feedback(B, N, feedback);
        fusion_token_part(N, batch.yPrev.data());
        latent_stack_forward(0, N);
        return head_forward(batch, N);
    }

    // Backward pass of the last forward (same batch, same passes): grads += d(loss)/d(params).
    void backward(const ToyBatch &batch, int passes)
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

    // Results of the last forward, over its N = T*B columns.
    auto logits(Eigen::Index n) const { return logits_.leftCols(n); }  // (V_b, n)
    auto hidden(Eigen::Index n) const { return h2_.leftCols(n); }      // (D_HID, n): h_t

    // Named views of parameters and gradients.
    MapM P(const ToyLayout::Slot &s) { return MapM(params.data() + s.offset, s.rows, s.cols); }
    MapM G(const ToyLayout::Slot &s) { return MapM(grads.data() + s.offset, s.rows, s.cols); }
    MapV PV(const ToyLayout::Slot &s) { return MapV(params.data() + s.offset, s.rows * s.cols); }
    MapV GV(const ToyLayout::Slot &s) { return MapV(grads.data() + s.offset, s.rows * s.cols); }

private:
    Eigen::Index check(const ToyBatch &batch, int passes) const
    {
        const Eigen::Index n = batch.columns();
        if (batch.seqLen != s_.seqLen || n > capacity_ || passes < 0 || passes > s_.seqLen)
            throw std::logic_error("ToyNet: batch does not match reserve() or passes out of [0, T]");
        return n;
    }

    void initLinear(Rng &rng, const ToyLayout::Slot &w, const ToyLayout::Slot &b)
    {
        const double bound = 1.0 / std::sqrt(double(w.cols));  // fan_in
        for (Eigen::Index i = 0; i < w.size(); ++i) params[w.offset + i] = S(rng.uniform(-bound, bound));
        for (Eigen::Index i = 0; i < b.size(); ++i) params[b.offset + i] = S(rng.uniform(-bound, bound));
    }

    // The fed-back state of one k-pass pass over all N = T*B columns: h0 for t = 0 (and for every
    // t when feedback is null), otherwise feedback's column block of position t-1. With the
    // time-major layout that shift by one position is one block copy.
    void set_feedback(Eigen::Index B, Eigen::Index N, const M *feedback)
    {
        if (!feedback) {
            hp_.leftCols(N).colwise() = PV(L_.h0);
            return;
        }
        hp_.leftCols(B).colwise() = PV(L_.h0);
        hp_.middleCols(B, N - B) = feedback->leftCols(N - B);
    }

    // Token-only: the stack over all N columns (no recurrence).
    void token_stack_forward(Eigen::Index N, const int *yPrev)
    {
        auto cols = [N](M &m) { return m.leftCols(N); };
        // pre1 = W1 [E[y_{t-1}]; obs_t] + b1: the folded token part, then the observation part
        nn::embedding_linear_forward<S>(cols(h1_), proj_, P(L_.E), P(L_.W1).leftCols(s_.dEmb), PV(L_.b1), yPrev);
        nn::matmul_forward<S>(cols(h1_), cols(obs_), P(L_.W1).rightCols(2));
        nn::tanh_forward<S>(cols(h1_), cols(h1_));
        nn::linear_forward<S>(cols(h2_), cols(h1_), P(L_.W2), PV(L_.b2));
        nn::tanh_forward<S>(cols(h2_), cols(h2_));
    }

    // Latent: the token part of the fusion for all N columns, fz = Wf[:, :E] E[y_{t-1}] + bf.
    void fusion_token_part(Eigen::Index N, const int *yPrev)
    {
        nn::embedding_linear_forward<S>(fz_.leftCols(N), proj_, P(L_.E), P(L_.Wf).leftCols(s_.dEmb), PV(L_.bf),
                                        yPrev);
    }

    // Latent: the rest of the fusion and the two tanh layers over columns [c0, c0 + n), reading the
    // fed-back state from hp_ and the fusion's token part from fz_.
    void latent_stack_forward(Eigen::Index c0, Eigen::Index n)
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

    // Latent: parameter gradients of the fusion from dfz over all N columns.
    void fusion_backward_params(Eigen::Index N, const int *yPrev)
    {
        const Eigen::Index E = s_.dEmb;
        // in the forward pass this was: fz = (Wf[:, :E] E + bf)[:, y_{t-1}] + Wf[:, E:] h_{t-1}
        nn::matmul_backward_weight<S>(G(L_.Wf).rightCols(s_.dHid), dfz_.leftCols(N), hp_.leftCols(N));
        nn::embedding_linear_backward<S>(G(L_.E), G(L_.Wf).leftCols(E), GV(L_.bf), dproj_, dfz_.leftCols(N),
                                         P(L_.E), P(L_.Wf).leftCols(E), yPrev);
    }

    // Latent: dh0 += the gradient reaching h0 through the first `direct` columns of hp_, which hold h0.
    void add_dh0(Eigen::Index direct)
    {
        auto d = dh0_.leftCols(direct);
        d.setZero();
        nn::linear_backward_inp<S>(d, dfz_.leftCols(direct), P(L_.Wf).rightCols(s_.dHid));
        GV(L_.h0) += d.rowwise().sum();
    }

    double head_forward(const ToyBatch &batch, Eigen::Index N)
    {
        nn::linear_forward<S>(logits_.leftCols(N), h2_.leftCols(N), P(L_.Wh), PV(L_.bh));
        return nn::crossentropy_forward<S>(logits_.leftCols(N), batch.y.data(), probs_.leftCols(N), colmax_.head(N),
                                           logsum_.head(N)) / double(N);
    }

    ToySizes s_;
    ToyLayout L_;
    bool latent_;
    Eigen::Index capacity_ = 0;
    // Workspaces, (rows, capacity) each; a batch uses the first N = T*B columns.
    M obs_;      // (2, N)             observations obs_t                          (token-only)
    M hp_;       // (D_HID, N)         fed-back state h_{t-1} of every column      (latent)
    M fz_;       // (2 D_FUSE, N)      fusion pre-activations [a; g]               (latent)
    M sig_;      // (D_FUSE, N)        sigmoid(g), the GLU gate                    (latent)
    M in1_;      // (D_FUSE + 2, N)    stack input [x_t; obs_t]                    (latent)
    M h1_;       // (D_HID, N)         first tanh output
    M h2_;       // (D_HID, N)         second tanh output, h_t
    M logits_;   // (V_b, N)
    M probs_;    // (V_b, N)           softmax of logits
    V colmax_, logsum_;  // (N)        cross-entropy workspaces
    M proj_;     // (D_HID or 2 D_FUSE, V_b)  folded token table of embedding_linear
    // Gradients of the above (dh2_/dh1_ also hold the pre-activation gradients); dh0_ a scratch.
    M dlogits_, dh2_, dh1_, dx_, dfz_, dproj_, dh0_;
};

} // namespace fb
