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

#include <string>
#include <vector>

namespace fb {

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
    bool cache_ = true;
};

} // namespace fb
