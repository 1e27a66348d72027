#pragma once
// Every activation of one forward pass of the transformer (and, for training, every gradient of
// them), laid out as in llm.c's ActivationTensors: allocated once by reserve() for up to `capacity`
// columns (sequences x positions) and sequences of up to maxLen positions, then reused by every
// forward and backward pass without allocating. Activations are (C, N), time-major (column
// n = t*B + b). A forward pass uses the first N = B*T columns; the attention weights of (sequence b,
// head h) are the (R, T) block at offset (b*H + h)*R*T of att, R = nn::attentionRows(T) >= T (rows
// padded to whole SIMD packets; rows >= T are zero), column i = query i, row j = key j.
#include "core/training/layers.h"
#include "core/transformer/transformer_layout.h"

#include <vector>

namespace fb {

template <typename S>
struct TransformerWorkspace {
    using M = nn::Mat<S>;
    using V = nn::Vec<S>;

    struct Layer {
        M x;            // (d, N)   input of the block (the residual stream)
        M ln1;          // (d, N)   LN1 x
        V ln1Mean, ln1Rstd;  // (N)
        M qkv;          // (d + 2 dkv, N)  W_qkv ln1: rows [0, d) q, [d, d + dkv) k (both rotated under RoPE),
                        //          [d + dkv, d + 2 dkv) v; dkv = kv_heads dh (= d without grouped-query attention)
        V att;          // (B H R T) softmax weights, see above
        M atty;         // (d, N)   every head's attention output, head h in rows [h dh, (h+1) dh)
        M mid;          // (d, N)   x + W_O atty
        M ln2;          // (d, N)   LN2 mid
        V ln2Mean, ln2Rstd;  // (N)
        M fc;           // (4d, N)  relu(W1 ln2 + b1)
        M qkRaw;        // QK-norm: (d + dkv, N) q and k before their RMSNorm; else empty
        M qkRstd;       // QK-norm: (N, H + KV) their 1 / rms, column r = head segment r of qkRaw
        M qkvRaw;       // short convolution: (d + 2 dkv, N) W_qkv ln1 before it (qkv is its output); else empty
        M sdpa, gate;   // gated attention: (d, N) the heads' outputs before the gate, sigmoid(W_theta ln1);
                        //          atty = sdpa * gate. Else empty
        // gradients (withGrad): d(L)/d of the tensor named; dqkNorm (QK-norm): of the normalised q and k
        M dx, dln1, dqkv, dmid, dln2, dfc, dqkNorm;
        M dgate;        // gated attention: d(L)/d(W_theta ln1)
        M dqkvRaw;      // short convolution: d(L)/d(qkvRaw); else empty
        // A linear mixer (core/transformer/linear_mixer.h) instead of softmax attention; else empty.
        // att is then filled only without gradients (evaluation: what each output reads).
        V state;        // (B H T dh dh): S_t of (sequence b, head h) at offset ((b H + h) T + t) dh dh
        V zden;         // linear: (B H T (dh + 1)): z_t and the denominator, same order
        M beta, alpha;  // deltanet: (H, N) beta = sigmoid(w_beta ln1); gated-deltanet: alpha too
        M dbeta, dalpha;  // d(L)/d of their pre-activations
        V carry;        // (B H (dh dh + dh)) the backward's d(L)/d(S_t) and d(L)/d(z_t) of each (b, h)
        V chunkWork;    // training from d_head nn::kChunkedFromHead (64): (B H nn::chunkedMixerWork(dh)), the
                        //          chunked form's scratch of each (b, h) (core/transformer/chunked_mixer.h)
    };

    Eigen::Index capacity = 0;  // columns
    Eigen::Index maxLen = 0;    // positions per sequence
    bool withGrad = false;
    int B = 0, T = 0;           // the batch of the last forward pass: B sequences of T positions

    M emb;          // (d, N)   input embedding e_t = E[tok_t] (+ W_obs obs_t), times sqrt(d) with embedScale
    M hprev;        // (d, N)   feedback: the h_{t-1} each column reads (0 at t = 0)
    M fzEmb;        // (2d, N)  feedback: [W_a; W_b][:, :d] e_t + [b_a; b_b], the part without h
    M fz;           // (2d, N)  feedback: [a; g], the GLU's pre-activations
    M gate;         // (d, N)   feedback: sigmoid(g)
    std::vector<Layer> layer;  // (L loops): one per block applied, the first L are the first loop's
    M xL;           // (d, N)   output of the last block
    M h;            // (d, N)   LN_f xL, the top hidden state h_t
    V lnfMean, lnfRstd;  // (N)
    M logits;       // (V, N)
    M probs;        // (V, N)   softmax of logits
    V colmax, logsum;  // (N)  cross-entropy workspaces
    // gradients (withGrad)
    M dlogits, dh, dxL, datty, dfz, demb;
    V datt;         // (B H R T) scratch of the attention backward, where the float kernel does not take the heads
    // TransformerStack::backwardParams' pieces, kGradientEntries a block: entry kGradientEntries wl + k
    // is the first piece of block wl's weight gradient k (k < kGradientEntries - 1), the block's last
    // entry its small gradients' piece; then LN_f's piece and the count
    static constexpr int kGradientEntries = 8;
    std::vector<Eigen::Index> gradientPieces;

    // Sequences of a batch whose backward the linear mixers' carry holds: capacity / maxLen.
    Eigen::Index carrySequences() const { return maxLen > 0 ? (capacity + maxLen - 1) / maxLen : 0; }

    // Allocates for up to capacity columns and maxLen positions. Call outside the step loop.
    void reserve(const TransformerShape &shape, Eigen::Index capacity, Eigen::Index maxLen, bool withGrad);
    // Sets the batch of the next forward pass (no allocation); B*T must fit the reserved sizes.
    void setBatch(int b, int t);
    Eigen::Index columns() const { return Eigen::Index(B) * T; }
    // Bytes reserve() allocates for these sizes (for the budget check).
    static double bytes(const TransformerShape &shape, Eigen::Index capacity, Eigen::Index maxLen, bool withGrad);
};

extern template struct TransformerWorkspace<float>;
extern template struct TransformerWorkspace<double>;

} // namespace fb
