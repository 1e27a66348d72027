#pragma once
// The tiny decoder-only transformer of the PyTorch reference (baselines/torch_tiny_transformer.py)
// with its latent feedback (000_031aadcae6604a46.txt, 218.6.2 and 218.6.4), forward and backward
// passes written by hand over whole batches:
//
//   e_t    = E[tok_t] (+ W_obs obs_t for the accumulator), times sqrt(d) with embedScale
//   x_t    = e_t                                                     feedback off
//   x_t    = (W_a u_t + b_a) * sigmoid(W_b u_t + b_b),  u_t = [e_t; h_{t-1}],  h_{-1} = 0   feedback on
//   x_t   += PE(t)                                                   sinusoidal positions
//   h      = Stack(x)                                                (TransformerStack: L blocks, LN_f)
//   logits = W_u h,  loss = mean cross entropy over the batch's targets
//
// Feedback modes (the reference's TinyTransformer.run):
//   kpass k: pass 1 reads h = 0, pass j > 1 the h of pass j-1 shifted by one position; passes
//            1..k-1 without gradient (their h is a constant), the loss and the gradient are pass
//            k's. h^(j)_t equals the exact h_t for t < j, so k >= T reproduces the exact forward.
//   exact:   T sequential one-position steps, the earlier positions' keys and values serving as the
//            KV cache, and backpropagation through time over all of them.
//
// Parameters live in one flat vector (params, grads the same layout: TransformerLayout). A forward
// pass reads its activations from and writes them to a TransformerWorkspace sized beforehand; no
// forward or backward pass allocates.
#include "core/numeric/rng.h"
#include "core/transformer/parallel_runner.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layout.h"
#include "core/transformer/transformer_stack.h"
#include "core/transformer/transformer_workspace.h"

namespace fb {

template <typename S>
class TransformerNet {
public:
    using M = nn::Mat<S>;
    using V = nn::Vec<S>;

    V params;  // every parameter, laid out as layout()
    V grads;   // d(loss)/d(params), same layout

    // threads: how many threads every pass may use (results do not depend on it).
    explicit TransformerNet(const TransformerShape &shape, int threads = 1);
    TransformerNet(const TransformerNet &) = delete;
    TransformerNet &operator=(const TransformerNet &) = delete;

    const TransformerShape &shape() const { return s_; }
    const TransformerLayout &layout() const { return L_; }
    Eigen::Index parameterCount() const { return L_.total; }

    // The reference's initialisation: N(0, 0.02) for every Linear and Embedding weight (and W_obs),
    // zero biases, LayerNorm weight 1 and bias 0. Draws in layout order from rng.
    void init(Rng &rng);
    void zeroGrad()
    {
        par_.forBlocks(grads.size(), Eigen::Index(1) << 16, [this](Eigen::Index b, Eigen::Index n) { grads.segment(b, n).setZero(); });
    }
    // the threads of the passes, for the optimiser's step over the same weights
    const ParallelRunner &runner() const { return par_; }

    // Forward pass over batch (its positions at most ws.maxLen, its columns at most ws.capacity).
    // Returns the mean cross entropy over the batch's targets, NaN for a probe without targets
    // (the logits are computed either way). mode and passes as trained (passes: k of kpass).
    // ablation (evaluation only, may be null): heads, FFNs and the feedback switched off
    // (core/interpret/ablation.h); null or empty changes nothing. Throws std::logic_error when it
    // names a head or layer the model does not have, or lacks the means of a mean-ablation.
    double forward(TransformerWorkspace<S> &ws, const TransformerBatch &batch, const PositionTables<S> &pos,
                   FeedbackMode mode, int passes, const Ablation *ablation = nullptr) const;

    // The logit lens, after a forward pass over batch: logits = W_u LN_f(the residual stream after
    // block `layer`, 0-based; looped depth: in the last loop); returns their mean cross entropy (NaN without targets), and
    // columnLoss reads them. layer = L - 1 repeats the forward's own readout bit for bit.
    double readLayer(TransformerWorkspace<S> &ws, const TransformerBatch &batch, int layer) const;

    // Backward pass of the last forward (same workspace, batch, tables, mode and passes):
    // grads += d(loss)/d(params). ws must have been reserved with gradients.
    void backward(TransformerWorkspace<S> &ws, const TransformerBatch &batch, const PositionTables<S> &pos,
                  FeedbackMode mode, int passes);

    // For gradient checks of the k-pass objective: the last pass alone, reading previousH (d, N),
    // the h of the pass before (a constant), shifted by one position. Backward as for kpass.
    double forwardFinalPass(TransformerWorkspace<S> &ws, const TransformerBatch &batch, const PositionTables<S> &pos,
                            const M &previousH) const;

    // Decoding: position t of ws.B sequences (ws.setBatch(B, maxLen) first), given positions 0..t-1
    // from earlier calls. tokens (B) are the inputs at t, obs (2, B) the accumulator's (or null).
    // Afterwards ws.logits.middleCols(t*B, B) holds the predictions for position t + 1.
    void forwardPosition(TransformerWorkspace<S> &ws, const int *tokens, const float *obs, Eigen::Index t,
                         const PositionTables<S> &pos) const;

    // Cross entropy (nats) of column n of the last forward, against target.
    double columnLoss(const TransformerWorkspace<S> &ws, Eigen::Index n, int target) const
    {
        return double(ws.logsum[n]) + double(ws.colmax[n]) - double(ws.logits(target, n));
    }

    // Named views of parameters and gradients.
    Eigen::Map<M> P(const TransformerLayout::Slot &s) { return Eigen::Map<M>(params.data() + s.offset, s.rows, s.cols); }
    Eigen::Map<const M> P(const TransformerLayout::Slot &s) const
    {
        return Eigen::Map<const M>(params.data() + s.offset, s.rows, s.cols);
    }
    Eigen::Map<M> G(const TransformerLayout::Slot &s) { return Eigen::Map<M>(grads.data() + s.offset, s.rows, s.cols); }

private:
    void check(const TransformerWorkspace<S> &ws, const TransformerBatch &batch, const PositionTables<S> &pos) const;
    void checkAblation(const Ablation &ablation) const;
    // e (and, with feedback, its part of the fusion) for the columns of positions [p0, p1)
    void embed(TransformerWorkspace<S> &ws, const int *tokens, const float *obs, Eigen::Index obsStride,
               Eigen::Index p0, Eigen::Index p1) const;
    // x = the stack's input for positions [p0, p1), from e and (feedback) hprev
    void inputs(TransformerWorkspace<S> &ws, const PositionTables<S> &pos, Eigen::Index p0, Eigen::Index p1) const;
    // hprev of a parallel pass: 0 for pass 1 (h null), else h shifted by one position
    void setFeedback(TransformerWorkspace<S> &ws, const M *h) const;
    double head(TransformerWorkspace<S> &ws, const TransformerBatch &batch) const;
    // d(L)/d(x) of the stack's input for [p0, p1) -> d(L)/d(fz) or d(L)/d(e); exact: into dh of p0 - 1
    void inputsBackward(TransformerWorkspace<S> &ws, Eigen::Index p0, Eigen::Index p1, bool exact);

    TransformerShape s_;
    TransformerLayout L_;
    ParallelRunner par_;
    TransformerStack<S> stack_;
    S embScale_;
};

extern template class TransformerNet<float>;
extern template class TransformerNet<double>;

} // namespace fb
