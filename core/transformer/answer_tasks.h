#pragma once
// The transformer's tasks with exact answers (issue 29). Each draws whole sequences of
// answerSequenceLength(config) tokens; the model reads tokens 0 .. n-2 and input position t predicts
// token t + 1, but only the answer tokens are targets (the others are nn::kIgnoreTarget), so that the
// loss and the accuracy count the answers alone. Special tokens sit at the top of the vocabulary:
//   copy, reverse, sort  x_0 .. x_{k-1} SEP y_0 .. y_{k-1}: k = items tokens uniform in [0, vocab),
//                        SEP = vocab; y = x (copy), x reversed (reverse), x sorted ascending (sort).
//                        Answers: the k tokens after SEP (predicted from SEP and the answers before).
//   parity               b_0 .. b_{k-1} SEP r_0 .. r_{k-1}: k = items bits (tokens 0, 1), SEP = 2,
//                        r_i = b_0 xor .. xor b_i the running parity. Answers: r_0 .. r_{k-1}.
//   mqar                 k_1 v_1 .. k_P v_P SEP q_1 a_1 .. q_P a_P (Arora et al. 2023, "Zoology"):
//                        P = pairs distinct keys from [0, vocab/2), values uniform in [vocab/2, vocab),
//                        SEP = vocab; the queries are every key once in random order, a_i the value
//                        stored with q_i. Answers: the a_i (predicted at their query). With pairs_min
//                        each sequence draws P from pairs_min .. pairs and ends in separators.
//   modular-addition     a b = c with c = (a + b) mod p, a, b in [0, p), "=" = p. The p^2 pairs are
//                        split once, seeded by seed alone, into round(train_fraction p^2) training
//                        pairs and held-out pairs. Training draws training pairs uniformly; held-out
//                        sequence i is held-out pair i (mod their count), in the split's order.
//                        Answer: c (predicted at "="), one per sequence.
// Every draw takes its randomness from the Rng it is given (training: the seed's data stream;
// held-out: seed + 1), in the order written above.
#include "core/numeric/rng.h"
#include "core/transformer/transformer_config.h"

#include <vector>

namespace fb {

class AnswerTasks {
public:
    explicit AnswerTasks(const TransformerConfig &config);  // modular-addition: the split (allocates)

    int vocab() const { return transformerVocabulary(c_); }
    int tokens() const { return answerSequenceLength(c_); }  // n
    int separator() const;                                   // SEP, or "=" for modular-addition

    // One fresh sequence: seq[0 .. n) its tokens, answer[0 .. n) whether each token is an answer.
    // Modular-addition: a training pair when training, else a held-out pair (uniform either way).
    // Mqar: P pairs, P = pairs, or drawn uniformly from pairs_min .. pairs when 0 < pairs_min < pairs
    // (one draw before the keys; pairs_min = pairs draws as 0 does), or the count setPairs fixed; the n - (4 P + 1) tokens after the last
    // answer are separators without answers. Allocates nothing.
    void draw(Rng &rng, bool training, int *seq, unsigned char *answer);
    // Mqar: every following draw holds exactly this many pairs (1 .. pairs); 0 returns to the
    // configuration's counts.
    void setPairs(int pairs);
    // Modular-addition: the sequence of pair i (mod the count) of the training or the held-out part.
    void pairSequence(int i, bool training, int *seq, unsigned char *answer) const;
    int pairCount(bool training) const;  // 0 for the other tasks

private:
    TransformerConfig c_;
    std::vector<int> split_;  // modular-addition: a p + b of every pair, the training ones first
    int trainPairs_ = 0;
    std::vector<int> keyPool_, order_;  // mqar: scratch of the key draw and of the query order
    int fixedPairs_ = 0;                // mqar: setPairs' count (0: the configuration's)
};

} // namespace fb
