#pragma once
// Samples characters from a transformer trained on the text task, one position at a time with the
// KV cache of core/transformer/transformer_net.h (forwardPosition), so that a feedback model decodes
// exactly as its recurrence says (x_t reads h_{t-1}). The context is the trained length T: when it is
// full, the last T/2 characters are fed again from position 0 and sampling continues.
// Without the cache (setCache(false)) every character recomputes its whole context in one parallel
// forward pass (the exact recurrence with feedback), as a decoder without a KV cache must: the same
// characters, and the measure of what the cache saves.
#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/text_corpus.h"
#include "core/transformer/transformer_net.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fb {

// The random stream of the samples ("samp"), XORed into the seed: the trainer's samples and
// `fullband generate` (core/transformer/text_writer.h) draw the same characters from the same seed.
inline constexpr std::uint64_t kSampleStream = 0x73616d7000000000ULL;


class TextSampler {
public:
    // context: positions the cache holds (the trained T). Allocates.
    TextSampler(const TransformerShape &shape, int context);

    // Draw only among the k most likely characters (nanoGPT's top_k: every logit below the k-th
    // largest is dropped); 0 = all.
    void setTopK(int k) { topK_ = k; }
    // false: recompute the whole context for every character instead of reading the KV cache.
    void setCache(bool useCache) { cache_ = useCache; }

    // Appends `chars` characters, sampled after the prompt ids (at least one; only the last
    // `context` are read), to out as UTF-8. temperature 0 takes the most likely character.
    // Allocates nothing when out has the capacity (4 bytes a character).
    void sample(const TransformerNet<float> &net, const PositionTables<float> &pos, const TextCorpus &corpus,
                const int *prompt, std::size_t promptLength, int chars, double temperature, Rng &rng,
                std::string &out);

    // One character at a time (what sample() does, for a writer that shows each character):
    // start() feeds the prompt ids (at least one; only the last `context` are read); draw() picks the
    // next id from the last fed position's logits; push() feeds an id (when the context is full its
    // last half is fed again from position 0 first). Allocate nothing.
    void start(const TransformerNet<float> &net, const PositionTables<float> &pos, const int *prompt,
               std::size_t promptLength);
    int drawNext(double temperature, Rng &rng) { return draw(length_ - 1, temperature, rng); }
    void push(const TransformerNet<float> &net, const PositionTables<float> &pos, int id);
    // Positions fed (the newest is length() - 1) and the workspace holding their activations: with
    // the cache, layer l's K and V of position t are rows [d, 3d) of ws.layer[l].qkv, column t, and
    // the attention of the newest position is column length() - 1 of each head's block of att
    // (core/transformer/transformer_workspace.h, B = 1, T = context()).
    int length() const { return length_; }
    int context() const { return context_; }
    bool cached() const { return cache_; }
    const TransformerWorkspace<float> &workspace() const { return ws_; }

private:
    // Feeds window_[0 .. length) from position 0.
    void feed(const TransformerNet<float> &net, const PositionTables<float> &pos, int length);
    int draw(int column, double temperature, Rng &rng);
    // Without the cache: the whole window_[0 .. length) in one forward pass (its logits in column length - 1).
    void recompute(const TransformerNet<float> &net, const PositionTables<float> &pos, int length);

    int context_;
    TransformerWorkspace<float> ws_;
    std::vector<int> window_;  // the tokens at positions 0 .. context-1
    TransformerBatch batch_;   // without the cache: the window as one sequence
    std::vector<float> sorted_;  // top-k: the logits, partially sorted
    FeedbackMode mode_;        // without the cache: exact with feedback, off otherwise
    int topK_ = 0;
    int length_ = 0;           // positions fed
    bool cache_ = true;
};

} // namespace fb
