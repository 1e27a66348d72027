#pragma once
// The sizes of the tiny decoder-only transformer and where each of its tensors sits in one flat
// parameter vector (and in the gradient vector of the same layout). The order is that of the PyTorch
// reference's model.parameters(): E, then per block ln1, ln2, W_qkv, W_O, W1, b1, W2, b2, then ln_f,
// W_u, and the fusion [W_a; W_b] with [b_a; b_b]; the accumulator's input weight W_obs comes last.
// Every weight is column-major (out, in) as in torch.nn.Linear; E keeps one token per column.
#include "core/transformer/mixer.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace fb {

struct TransformerShape {
    int vocab = 16;         // V: tokens the embedding reads and the unembedding scores
    int dModel = 64;        // d
    int layers = 2;         // L
    int heads = 4;          // H; d_head = d / H, even under RoPE
    int obsInputs = 0;      // accumulator: 2, the (cos, sin) of the increment read through W_obs
    bool feedback = false;  // latent feedback: the fusion x = GLU([e; h_prev]) of 218.6.2
    bool embedScale = false;  // e = sqrt(d) (E[tok] + W_obs obs)
    int window = 0;         // sliding-window attention: key j visible to query i iff i - window < j <= i (0 = off)
    int kvHeads = 0;        // grouped-query attention: key/value heads, dividing H (0 = H; 1 = multi-query)
    bool rmsNorm = false;   // LN1, LN2 and LN_f are RMSNorm (no mean, no bias) instead of LayerNorm
    bool qkNorm = false;    // RMSNorm of every head's q and k before RoPE, learned scales (dh) for q and for k
    bool attnGate = false;  // gated attention: o = SDPA(...) * sigmoid(W_theta LN1(x)), W_theta (d, d) per layer
    int loops = 1;          // looped depth: the L blocks applied `loops` times with the same weights
    std::vector<Mixer> mixers;  // per layer (of the weights); empty: softmax attention everywhere
    int shortConv = 0;      // short convolution: taps of the causal depthwise convolution on q, k, v (0 = off)

    Mixer mixer(int l) const { return mixers.empty() ? Mixer::Softmax : mixers[std::size_t(l % layers)]; }
    bool linear(int l) const { return mixer(l) != Mixer::Softmax; }
    bool anySoftmax() const
    {
        for (int l = 0; l < layers; ++l)
            if (!linear(l)) return true;
        return false;
    }

    int kv() const { return kvHeads > 0 ? kvHeads : heads; }
    int dKv() const { return kv() * dHead(); }            // rows of k, and of v
    int qkvRows() const { return dModel + 2 * dKv(); }   // q, k, v stacked: d + 2 kv d_head
    int group() const { return heads / kv(); }            // query heads per key/value head
    int depth() const { return layers * loops; }          // blocks applied: block l uses the weights of l % L

    int dHead() const { return dModel / heads; }
    int ffn() const { return 4 * dModel; }
};

struct TransformerLayout {
    struct Slot {
        Eigen::Index offset = 0, rows = 0, cols = 0;
        Eigen::Index size() const { return rows * cols; }
    };
    struct Block {
        Slot ln1w, ln1b, ln2w, ln2b;  // LayerNorm weight and bias, (d) each; RMSNorm: no bias (size 0)
        Slot Wqkv;                    // (d + 2 kv dh, d): W_Q (d, d), W_K, W_V (kv dh, d) each, stacked, no bias
        Slot Wo;                      // (d, d), no bias
        Slot W1, b1;                  // (4d, d), (4d)
        Slot W2, b2;                  // (d, 4d), (d)
        Slot qNorm, kNorm;            // QK-norm: the scales of the queries and of the keys, (dh) each; else size 0
        Slot Wg;                      // gated attention: W_theta (d, d); else size 0
        Slot Wbeta;                   // deltanet, gated-deltanet: w_beta of every head, (H, d); else size 0
        Slot Walpha, balpha;          // gated-deltanet: w_alpha (H, d) and b_alpha (H); else size 0
        Slot conv;                    // short convolution: (d + 2 kv dh, taps), one weight per row of qkv and tap; else size 0
    };
    Slot E;                   // (d, V)
    std::vector<Block> blocks;
    Slot lnfw, lnfb;          // final LayerNorm, (d) each (RMSNorm: no bias)
    Slot Wu;                  // (V, d), no bias
    Slot Wf, bf;              // feedback: (2d, 2d) = [W_a; W_b], columns [0, d) read e, [d, 2d) read h; (2d)
    Slot Wobs;                // accumulator: (d, 2)
    Eigen::Index total = 0;

    explicit TransformerLayout(const TransformerShape &s)
    {
        const int d = s.dModel, bias = s.rmsNorm ? 0 : d;
        add(E, d, s.vocab);
        blocks.resize(std::size_t(s.layers));
        for (int l = 0; l < s.layers; ++l) {
            Block &b = blocks[std::size_t(l)];
            const Mixer m = s.mixer(l);
            add(b.ln1w, d, 1);
            add(b.ln1b, bias, 1);
            add(b.ln2w, d, 1);
            add(b.ln2b, bias, 1);
            add(b.Wqkv, s.qkvRows(), d);
            add(b.Wo, d, d);
            add(b.W1, s.ffn(), d);
            add(b.b1, s.ffn(), 1);
            add(b.W2, d, s.ffn());
            add(b.b2, d, 1);
            add(b.qNorm, s.qkNorm ? s.dHead() : 0, 1);
            add(b.kNorm, s.qkNorm ? s.dHead() : 0, 1);
            add(b.Wg, s.attnGate ? d : 0, d);
            const bool delta = m == Mixer::DeltaNet || m == Mixer::GatedDeltaNet, gated = m == Mixer::GatedDeltaNet;
            add(b.Wbeta, delta ? s.heads : 0, d);
            add(b.Walpha, gated ? s.heads : 0, d);
            add(b.balpha, gated ? s.heads : 0, 1);
            add(b.conv, s.shortConv > 0 ? s.qkvRows() : 0, s.shortConv);
        }
        add(lnfw, d, 1);
        add(lnfb, bias, 1);
        add(Wu, s.vocab, d);
        if (s.feedback) {
            add(Wf, 2 * d, 2 * d);
            add(bf, 2 * d, 1);
        }
        if (s.obsInputs > 0) add(Wobs, d, s.obsInputs);
    }

    // Every slot with its name, for gradient checks and reports: ("E", E), ("block0.Wqkv", ...), ...
    template <typename F>
    void forEachSlot(F &&f) const
    {
        f("E", E);
        for (std::size_t l = 0; l < blocks.size(); ++l) {
            const Block &b = blocks[l];
            const std::string p = "block" + std::to_string(l) + ".";
            f(p + "ln1.weight", b.ln1w);
            if (b.ln1b.size()) f(p + "ln1.bias", b.ln1b);
            f(p + "ln2.weight", b.ln2w);
            if (b.ln2b.size()) f(p + "ln2.bias", b.ln2b);
            f(p + "W_qkv", b.Wqkv);
            f(p + "W_O", b.Wo);
            f(p + "W1", b.W1);
            f(p + "b1", b.b1);
            f(p + "W2", b.W2);
            f(p + "b2", b.b2);
            if (b.qNorm.size()) {
                f(p + "q_norm", b.qNorm);
                f(p + "k_norm", b.kNorm);
            }
            if (b.Wg.size()) f(p + "W_theta", b.Wg);
            if (b.Wbeta.size()) f(p + "w_beta", b.Wbeta);
            if (b.Walpha.size()) {
                f(p + "w_alpha", b.Walpha);
                f(p + "b_alpha", b.balpha);
            }
            if (b.conv.size()) f(p + "conv", b.conv);
        }
        f("ln_f.weight", lnfw);
        if (lnfb.size()) f("ln_f.bias", lnfb);
        f("W_u", Wu);
        if (Wf.size()) {
            f("W_ab", Wf);
            f("b_ab", bf);
        }
        if (Wobs.size()) f("W_obs", Wobs);
    }

private:
    void add(Slot &slot, Eigen::Index rows, Eigen::Index cols)
    {
        slot = { total, rows, cols };
        total += rows * cols;
    }
};

} // namespace fb
