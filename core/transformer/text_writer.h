#pragma once
// Writes with a model trained on the text task one character at a time, and shows its KV cache at
// work: after each character, every head's attention of the newest character over the positions
// the cache holds, the bytes the cache holds (K and V, counted from the workspace; a linear
// mixer's state) beside the costs lab's formula 2 · L · t · d · bytes (core/costs/costs.h), and how long the character took
// with the cache and recomputing the whole context (the same character fed to a second sampler
// without a cache, core/transformer/text_sampler.h), so that what the cache saves is measured.
// The writer owns its own network: a copy of the weights it was given (the GUI keeps training or
// drawing meanwhile). Callable from any thread; one writer is used by one thread at a time.
#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/text_sampler.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_report.h"

#include <memory>
#include <string>
#include <vector>

namespace fb {

// One character written, and the cache after it.
struct WrittenCharacter {
    std::string text;               // the character itself, UTF-8 (never escaped)
    int written = 0;                // characters written so far, this one included
    int cachedPositions = 0;        // t: positions whose K and V the cache holds (the newest is t - 1)
    int context = 0;                // the trained length T, the most the cache holds
    int layers = 0, heads = 0;
    // [layer * heads + head]: the newest character's attention over the cached positions 0 .. t-1
    // (t weights, summing to 1)
    std::vector<std::vector<float>> attention;
    // What the next character reads of the past, counted from the workspace: K and V of the softmax
    // layers for the t positions (the window's at most; kv heads of them), the linear mixers' states,
    // the short convolution's last positions, for every block applied
    double cacheBytes = 0.0;
    // the same from the model's settings: the costs lab's 2 · L · t · d_kv · bytes for softmax
    // layers (core/costs/costs.h), as the comparison counts it (transformerStateBytes)
    double formulaBytes = 0.0;
    // softmax attention in every layer, no window, grouped-query attention, looped depth or short
    // convolution: formulaBytes is then the costs lab's 2 · L · t · d · 4 of the chapter
    bool plainAttention = true;
    double secondsCached = 0.0;     // compute time of the characters so far, with the cache
    double secondsRecomputed = 0.0; // the same characters recomputing the whole context (0 when not measured)

    double charsPerSecond() const { return secondsCached > 0.0 ? written / secondsCached : 0.0; }
    double charsPerSecondWithoutCache() const { return secondsRecomputed > 0.0 ? written / secondsRecomputed : 0.0; }
    // How many times faster the cache writes (0 when not measured).
    double cacheSpeedup() const { return secondsCached > 0.0 && secondsRecomputed > 0.0 ? secondsRecomputed / secondsCached : 0.0; }
};

class TextWriter {
public:
    // model: trained on the text task (throws std::invalid_argument otherwise). prompt: UTF-8,
    // characters outside the vocabulary read as <unk>, empty starts from a newline (as
    // sampleTransformerText). measureWithoutCache: also feed every character to a sampler without a
    // cache and time it. Allocates everything here.
    TextWriter(std::shared_ptr<const TrainedTransformer> model, const std::string &prompt, double temperature,
               int topK, std::uint64_t seed, bool measureWithoutCache = true);

    // Writes the next character into out (its buffers reused: no allocation once they have the size).
    void next(WrittenCharacter &out);

    const TrainedTransformer &model() const { return *model_; }

private:
    std::shared_ptr<const TrainedTransformer> model_;
    TransformerNet<float> net_;
    PositionTables<float> tables_;
    TextSampler cached_;
    std::unique_ptr<TextSampler> recomputed_;  // null when not measured
    Rng rng_;
    double temperature_;
    bool plainAttention_ = true;  // WrittenCharacter::plainAttention, a property of the model
    int written_ = 0;
    double secondsCached_ = 0.0, secondsRecomputed_ = 0.0;
};

} // namespace fb
