#pragma once
// The layer stack of the tiny decoder-only transformer: L pre-LayerNorm blocks and the final
// LayerNorm, as in the reference's Block.forward and TinyTransformer.trunk:
//   x_mid = x + W_O Attn(LN1 x)                (H heads, causal, scores / sqrt(d_head), RoPE on q, k)
//   x_out = x_mid + W2 relu(W1 LN2 x_mid + b1) + b2
//   h     = LN_f(x_L)
// With looped depth the L blocks run `loops` times with the same weights (block l uses weights l % L,
// each application with its own activations), and their gradients add up over the applications.
// Every pass works on the positions [p0, p1) of the workspace's B sequences: the whole sequence at
// once (p0 = 0, p1 = T: teacher forcing, the k-pass objective) or one position at a time
// (p1 = p0 + 1: the exact recurrence and decoding, the earlier positions' keys and values serving as
// the KV cache, since time-major columns of earlier positions are never rewritten).
//
// The backward pass is split in two, as in the toy trainer's BPTT: backwardData runs the data
// gradients for [p0, p1) (from d(L)/dh of those columns down to d(L)/dx of the stack's input, and
// deposits the key and value gradients of the earlier positions those queries read); backwardParams
// then computes every parameter gradient in one product over all columns. Called once over [0, T)
// it is the ordinary backward pass; called for t = T-1 down to 0 it is backpropagation through time.
#include "core/transformer/parallel_runner.h"
#include "core/transformer/linear_mixer.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_layout.h"
#include "core/transformer/transformer_workspace.h"

namespace fb {

struct Ablation;

template <typename S>
class TransformerStack {
public:
    using M = nn::Mat<S>;
    using V = nn::Vec<S>;

    TransformerStack(const TransformerShape &shape, const TransformerLayout &layout, const ParallelRunner &par)
        : s_(shape), L_(layout), par_(par)
    {
    }

    // ws.layer[0].x holds the stack's input for the columns of [p0, p1); fills every activation of
    // those columns up to ws.h. With p0 > 0 the positions before p0 are those of earlier calls on
    // the same workspace: softmax attention reads their k and v, a linear mixer their state, the
    // short convolution their raw q, k, v (qkvRaw). params is laid out as L_. ablation (evaluation only, may be null):
    // the heads replaced where their output enters W_O and the FFNs left out (core/interpret/ablation.h);
    // atty then holds the replaced outputs.
    void forward(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos, Eigen::Index p0,
                 Eigen::Index p1, const Ablation *ablation = nullptr) const;

    // h = LN_f(the residual stream after applied block `layer`, 0 .. L loops - 1) for the columns of
    // [p0, p1), after a forward pass: the logit lens. The last block repeats the forward's own h.
    void readout(const S *params, TransformerWorkspace<S> &ws, int layer, Eigen::Index p0, Eigen::Index p1) const;

    // ws.dh holds d(L)/dh for the columns of [p0, p1), complete (every later use of h added in);
    // writes d(L)/dx of the stack's input into ws.layer[0].dx for those columns. The dqkv of every
    // layer l must be zero before the first call of a backward pass (keys and values accumulate),
    // unless writesQkvGradient(l, p0, p1, T) for that call's range.
    void backwardData(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos, Eigen::Index p0,
                      Eigen::Index p1) const;

    // Whether backwardData over [p0, p1) of sequences of T positions writes applied block l's dq, dk and
    // dv for those columns instead of adding to them (softmax attention over the whole sequence at once).
    bool writesQkvGradient(int l, Eigen::Index p0, Eigen::Index p1, Eigen::Index T) const;

    // grads += d(L)/d(every stack parameter), from the data gradients of all N = B*T columns.
    void backwardParams(S *grads, TransformerWorkspace<S> &ws) const;

private:
    void blockForward(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos, int l,
                      Eigen::Index p0, Eigen::Index p1, const Ablation *ablation) const;
    void blockBackwardData(const S *params, TransformerWorkspace<S> &ws, const PositionTables<S> &pos, int l,
                           Eigen::Index p0, Eigen::Index p1) const;

    // The linear mixer's tensors of (sequence b, head h) in applied block l of ws's batch.
    nn::MixerHead<S> mixerHead(TransformerWorkspace<S> &ws, int l, Eigen::Index b, Eigen::Index h) const;
    // A weight gradient of backwardParams: G(slot) += dout inp' over all columns
    struct WeightGradient {
        const TransformerLayout::Slot *slot;
        const M *dout, *inp;
    };
    // (with the small gradients: TransformerWorkspace::kGradientEntries entries a block in backwardParams' table)
    static constexpr int kMostWeightGradients = 7;
    // d(L)/d(out) of applied block l: the next block's d(L)/d(x), or d(L)/d(x_L) for the last
    const M &outputGradient(const TransformerWorkspace<S> &ws, int l) const;
    // the weight gradients of applied block l (its weights are block l % L's), at most 7; their count
    int weightGradients(TransformerWorkspace<S> &ws, int l, WeightGradient *out) const;
    // the biases', gains' and short convolution's gradients of applied block l
    void smallGradients(S *grads, TransformerWorkspace<S> &ws, int l) const;

    TransformerShape s_;
    const TransformerLayout &L_;
    const ParallelRunner &par_;
};

extern template class TransformerStack<float>;
extern template class TransformerStack<double>;

} // namespace fb
