#pragma once
// The linear mixers of one (sequence, head) (core/transformer/mixer.h): linear attention, DeltaNet
// and Gated DeltaNet, in their recurrent form. Every position's state S_t (d_head x d_head, value
// features by key features, column-major) is kept, so that a pass over positions [p0, p1) starts
// from S_{p0 - 1} (the whole sequence, or one new position during decoding and the exact
// recurrence: the state is the mixer's whole cache) and the backward pass reads S_t and S_{t-1}
// without recomputing. Forward/backward pairs in the style of transformer_layers.h: the backward
// quotes the forward line it differentiates and gradients accumulate with +=.
//
// The backward runs from the last position down and carries d(L)/d(S_t) (and, for linear
// attention, d(L)/d(z_t)) in a scratch of its own (MixerHead::dS, dz), so it may be called for all
// positions at once or one position at a time from T - 1 down to 0 (backpropagation through time);
// `fresh` (the call that holds position T - 1) clears the carry.
//
// Training at d_head 64 and above takes the chunked form instead (core/transformer/chunked_mixer.h),
// through the same entry points: given a MixerHead with a `work` scratch, a pass over a whole
// sequence runs in chunks and keeps only each chunk's last state, which the chunked backward reads.
// A forward pass in chunks must be followed by a backward pass in chunks (the whole sequence, p0 = 0
// and fresh): the positions inside a chunk have no state to read. Every caller keeps to it: training
// passes its feedback mode to both passes, and the exact recurrence runs both position by position
// (its position 0 is a chunk of one, whose state is written); evaluation and decoding have no scratch.
#include "core/training/layers.h"
#include "core/transformer/mixer.h"

namespace fb::nn {

// Where the tensors of one (sequence, head) are. beta and alpha are read at beta[t * gateStride]
// (sigmoid outputs), their gradients written at dbeta[t * gateStride] (with respect to the
// pre-activations, one write per position).
template <typename S>
struct MixerHead {
    Mixer kind = Mixer::Linear;
    Eigen::Index dh = 0;
    S *states = nullptr;        // (dh * dh, T): column t = S_t (in chunks: at each chunk's last t only)
    S *zden = nullptr;          // linear: (dh + 1, T): z_t = sum of phi(k_j), j <= t, then the denominator
    const S *beta = nullptr, *alpha = nullptr;
    S *dbeta = nullptr, *dalpha = nullptr;
    Eigen::Index gateStride = 0;
    S *dS = nullptr, *dz = nullptr;  // the backward's carry: (dh * dh) and, linear, (dh)
    // Scratch of the chunked form (core/transformer/chunked_mixer.h: nn::chunkedMixerWork(dh) values),
    // or null. With it, a pass over a whole sequence (p0 = 0, no map; the backward's `fresh` call)
    // runs in chunks and writes the state at each chunk's last position only: training.
    S *work = nullptr;
};

// y is (dh, nq): the outputs of positions [p0, p0 + nq); q is (dh, nq), k and v are (dh, >= p1).
// att (may be null): the (attRows, T) map of this head, whose columns [p0, p1) receive what each
// output reads of every earlier value, out_i = sum_j att(j, i) v_j: linear attention's weights
// (they sum to 1), the delta rule's coefficients (of either sign); rows past the query are 0.
// d_head 16 (the induction defaults) and 32 (the text defaults) run a kernel of that fixed size (at
// d_head 16 a step of the induction defaults' mixers took about half the time of the dynamic-size
// kernel); any other d_head the dynamic-size one. Each fixed size costs about 20 s of every build's
// compile, so only the defaults' sizes have one. Defined in linear_mixer.cpp for float and double,
// so the kernels are compiled once.
template <typename S>
void linear_mixer_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v,
                          Eigen::Index p0, S *att, Eigen::Index attRows);

// The backward of linear_mixer_forward over the same positions: dq (dh, nq) and dk, dv (dh, >= p1)
// accumulate; `fresh` (the call that holds position T - 1) clears the carry.
template <typename S>
void linear_mixer_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                           const In<S> &k, const In<S> &v, Eigen::Index p0, bool fresh);

extern template void linear_mixer_forward<float>(const MixerHead<float> &, Out<float>, const In<float> &,
                                                 const In<float> &, const In<float> &, Eigen::Index, float *,
                                                 Eigen::Index);
extern template void linear_mixer_forward<double>(const MixerHead<double> &, Out<double>, const In<double> &,
                                                  const In<double> &, const In<double> &, Eigen::Index, double *,
                                                  Eigen::Index);
extern template void linear_mixer_backward<float>(const MixerHead<float> &, Out<float>, Out<float>, Out<float>,
                                                  const In<float> &, const In<float> &, const In<float> &,
                                                  const In<float> &, Eigen::Index, bool);
extern template void linear_mixer_backward<double>(const MixerHead<double> &, Out<double>, Out<double>, Out<double>,
                                                   const In<double> &, const In<double> &, const In<double> &,
                                                   const In<double> &, Eigen::Index, bool);

} // namespace fb::nn
