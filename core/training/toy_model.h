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
    void init(Rng &rng);

    // Sizes the workspaces for batches of up to maxBatch sequences. Allocates: call it before the
    // training loop; forward and backward themselves never allocate.
    void reserve(int maxBatch);

    void zero_grad() { grads.setZero(); }

    // Forward pass over one batch; returns the mean cross entropy over its B*T positions.
    // passes (latent arm only, ignored by token-only): 0 = exact recurrence, k >= 1 = k-pass.
    double forward(const ToyBatch &batch, int passes);

    // For gradient checks of the k-pass objective: the last pass alone, with the previous pass's
    // top hidden states given (a constant), or null for pass 1 (h0 everywhere).
    // feedback is (D_HID, T*B), e.g. hidden() after forward(batch, k - 1).
    double forward_final_pass(const ToyBatch &batch, const M *feedback);

    // Backward pass of the last forward (same batch, same passes): grads += d(loss)/d(params).
    void backward(const ToyBatch &batch, int passes);

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

    void initLinear(Rng &rng, const ToyLayout::Slot &w, const ToyLayout::Slot &b);

    // The fed-back state of one k-pass pass over all N = T*B columns: h0 for t = 0 (and for every
    // t when feedback is null), otherwise feedback's column block of position t-1. With the
    // time-major layout that shift by one position is one block copy.
    void set_feedback(Eigen::Index B, Eigen::Index N, const M *feedback);

    // Token-only: the stack over all N columns (no recurrence).
    void token_stack_forward(Eigen::Index N, const int *yPrev);

    // Latent: the token part of the fusion for all N columns, fz = Wf[:, :E] E[y_{t-1}] + bf.
    void fusion_token_part(Eigen::Index N, const int *yPrev);

    // Latent: the rest of the fusion and the two tanh layers over columns [c0, c0 + n), reading the
    // fed-back state from hp_ and the fusion's token part from fz_.
    void latent_stack_forward(Eigen::Index c0, Eigen::Index n);

    // Latent: parameter gradients of the fusion from dfz over all N columns.
    void fusion_backward_params(Eigen::Index N, const int *yPrev);

    // Latent: dh0 += the gradient reaching h0 through the first `direct` columns of hp_, which hold h0.
    void add_dh0(Eigen::Index direct);

    double head_forward(const ToyBatch &batch, Eigen::Index N);

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

// The passes are compiled once, in toy_model.cpp, for float (training) and double (gradient checks).
extern template class ToyNet<float>;
extern template class ToyNet<double>;

} // namespace fb
