#pragma once
// The data of a transformer training, one batch at a time (no allocation once the batch is sized):
//   induction-fixed  T/2 uniform tokens, then the same T/2 again (a = 0, s = T/2), as the reference's
//                    induction_batch(random_offset=False)
//   induction        s ~ U{T/4..T/2} tokens at a ~ U{0..T-2s} repeated right after themselves, the
//                    rest uniform (induction_batch(random_offset=True))
//   accumulator      the phase accumulator of 218.6.5: z_{-1} ~ U[0,1), a_t ~ U[0,1),
//                    z_t = (z_{t-1} + a_t) mod 1, y_t = floor(V_b z_t); position t reads the token
//                    y_{t-1} and the observation (cos 2 pi a_t, sin 2 pi a_t) and predicts y_t
//   text             windows of the text: T + 1 characters give T inputs and T next characters;
//                    training windows start anywhere in the first 90%, held-out windows are spread
//                    evenly over the last 10%
//   copy, reverse, sort, modular-addition, mqar, parity: the tasks with exact answers
//                    (core/transformer/answer_tasks.h); only their answer tokens are targets, the other
//                    positions' targets are nn::kIgnoreTarget
// The induction and answer tasks' sequences of n tokens give n - 1 input positions (the last token is
// only a target); a probe (a batch without targets, for attention maps) reads all n.
#include "core/numeric/rng.h"
#include "core/transformer/answer_tasks.h"
#include "core/transformer/text_corpus.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_config.h"

#include <memory>

namespace fb {

class TransformerTasks {
public:
    // corpus: the text task's (kept by reference), null otherwise. maxTokens: the longest sequence
    // that will be drawn (sizes a scratch buffer).
    TransformerTasks(const TransformerConfig &config, const TextCorpus *corpus, int maxTokens);

    int vocab() const;
    bool hasRepeat() const;  // the induction tasks: offset and span say where the repeat is
    bool hasAnswers() const { return bool(answers_); }  // the tasks with exact answers
    // Input positions of a sequence of n tokens (with targets), or of a probe of n tokens.
    int positions(int n, bool withTargets) const;

    // Allocates out for B sequences of n tokens (with or without targets).
    void resize(TransformerBatch &out, int B, int n, bool withTargets) const;

    // Fills out with fresh training sequences (text: windows of the training part) from rng.
    void drawTraining(Rng &rng, TransformerBatch &out);
    // Fills out with held-out sequences: fresh draws from rng (the held-out stream) for the synthetic
    // tasks; for text, windows first .. first + B - 1 of `count` windows spread over the held-out
    // part. Returns false when the held-out text is too short for windows of this length.
    bool drawHeldout(Rng &rng, TransformerBatch &out, int first, int count);
    // Modular-addition: sequences first .. first + B - 1 are the held-out pairs of those indices (mod
    // their count; drawHeldout does the same), or with drawTrainingPairs the training pairs'.
    // pairCount: how many there are (0 for the other tasks).
    void drawTrainingPairs(TransformerBatch &out, int first);
    int pairCount(bool training) const { return answers_ ? answers_->pairCount(training) : 0; }
    // Mqar: the following draws hold exactly this many pairs (0: the configuration's counts again).
    void setMqarPairs(int pairs) { answers_->setPairs(pairs); }

private:
    // Writes sequence b of out from the tokens seq_[0 .. tokens) (inputs, targets when out has them).
    void store(TransformerBatch &out, int b, int tokens) const;
    int tokensOf(const TransformerBatch &out) const;
    void drawSynthetic(Rng &rng, TransformerBatch &out, bool training);
    // The answer tasks: sequence b from seq_ and answer_ (targets only at the answers).
    void storeAnswers(TransformerBatch &out, int b) const;
    void drawAnswers(Rng *rng, TransformerBatch &out, bool training, int first);
    void window(TransformerBatch &out, int b, std::size_t start) const;

    TransformerConfig c_;  // without its text (the corpus holds it)
    const TextCorpus *corpus_;
    std::vector<int> seq_;  // one sequence's tokens
    std::unique_ptr<AnswerTasks> answers_;  // the answer tasks; null otherwise
    std::vector<unsigned char> answer_;     // one sequence's answer flags
};

} // namespace fb
