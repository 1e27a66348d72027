#pragma once
// The linear mixers' training form in chunks (Yang et al. 2024; the GPU papers' form, here on one
// core): a sequence is cut into chunks of kMixerChunk positions; inside a chunk the outputs are a
// few small matrix products, across chunks the state carries on. Only the state at each chunk's
// last position is written (the recurrent form writes every position's, d_head^2 values each), and
// the backward pass recomputes the rest of a chunk from the state before it.
//
// Linear attention, with F = phi(Q), G = phi(K) of the chunk and A = triu(G' F) (key i read at j >= i):
//   Y = (S0 F + V A) / (z0' F + 1' A) column by column,  S = S0 + V G',  z = z0 + G 1.
// The delta rule (DeltaNet; Gated DeltaNet with gamma_j = alpha_1 ... alpha_j inside the chunk, all 1
// for DeltaNet) with the keys K L2-normalised: the updates u_j = beta_j (v_j - S_{j-1} k_j) solve
//   U (I + A) = R,  A(i, j) = beta_j (gamma_{j-1} / gamma_{i-1}) k_i' k_j (i < j),  r_j = beta_j (v_j - gamma_{j-1} S0 k_j),
// one unit triangular solve; then y_j = gamma_j S0 q_j + sum_{i <= j} (gamma_j / gamma_{i-1}) (k_i' q_j) u_i and
//   S = gamma_C S0 + sum_i (gamma_C / gamma_{i-1}) u_i k_i'.
// Every decay is a ratio of gamma's no greater than 1 (an exp of a difference of log-decays), so no
// chunk divides by a small product; a log-decay is floored at the smallest normal number's log, so
// an alpha of exactly 0 empties the state as in the recurrent form instead of making NaN.
//
// Where it pays (bench_chunked_mixer, one core): in a whole training step at the text size (4
// layers, d 128, T 64, batch 12) the chunked form takes 0.78 to 0.83 of the recurrent kernels' time
// at d_head 64 in the AVX-512 build (0.86 to 0.88 in the AVX2 one), 0.92 to 0.98 at d_head 32 and
// 1.03 to 1.22 at d_head 16; for one head over T = 1024, 0.37 to 0.53 at d_head 64, where the
// recurrent form's states (16 KB a position) leave the cache. So training takes it from d_head
// kChunkedFromHead; linear_mixer.h's entry points choose, given a MixerHead with a `work` scratch.
// In float the two forms round differently: their gradients in a whole step differed by 1e-6
// relative, once by 1e-3 (DeltaNet, d_head 32: a chunk's triangular solve amplifies rounding when
// its keys are alike); in double they agree within 1e-11 (tst_mixer_kernels).
#include "core/transformer/linear_mixer.h"

namespace fb::nn {

inline constexpr Eigen::Index kMixerChunk = 16;
inline constexpr Eigen::Index kChunkedFromHead = 64;

// Scratch values reserved for the chunked passes of one (sequence, head) at d_head dh (the backward of
// the delta rule takes the most: 7 dh C + 8 C^2 + 5 C + 3).
inline Eigen::Index chunkedMixerWork(Eigen::Index dh)
{
    return 10 * dh * kMixerChunk + 8 * kMixerChunk * kMixerChunk + 8 * (kMixerChunk + 1);
}

// The forward pass over a whole sequence (positions 0 .. q.cols() - 1) in chunks: y as
// linear_mixer_forward, and S (and z, the denominator) at each chunk's last position only.
template <typename S>
void chunked_mixer_forward(const MixerHead<S> &m, Out<S> y, const In<S> &q, const In<S> &k, const In<S> &v);

// Its backward over the whole sequence: dq, dk, dv accumulate (+=), dbeta and dalpha are written,
// m.dS (and m.dz) are the carry between chunks.
template <typename S>
void chunked_mixer_backward(const MixerHead<S> &m, Out<S> dq, Out<S> dk, Out<S> dv, const In<S> &dy, const In<S> &q,
                            const In<S> &k, const In<S> &v);

extern template void chunked_mixer_forward<float>(const MixerHead<float> &, Out<float>, const In<float> &,
                                                  const In<float> &, const In<float> &);
extern template void chunked_mixer_forward<double>(const MixerHead<double> &, Out<double>, const In<double> &,
                                                   const In<double> &, const In<double> &);
extern template void chunked_mixer_backward<float>(const MixerHead<float> &, Out<float>, Out<float>, Out<float>,
                                                   const In<float> &, const In<float> &, const In<float> &,
                                                   const In<float> &);
extern template void chunked_mixer_backward<double>(const MixerHead<double> &, Out<double>, Out<double>, Out<double>,
                                                    const In<double> &, const In<double> &, const In<double> &,
                                                    const In<double> &);

} // namespace fb::nn
