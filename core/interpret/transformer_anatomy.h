#pragma once
// Takes a trained transformer apart after its run (issue 27), on the held-out set and in the forward
// pass it was trained with, through the evaluator's hook (TransformerEvaluator::forEachHeldout) and
// the forward pass's ablation (core/interpret/ablation.h):
//   - previous-token scores of every head, and on the induction tasks their induction scores on the
//     same held-out sequences (HeadScores);
//   - the ablation table: each head ablated alone, the held-out loss and (induction) the repeat loss;
//   - composition (induction): each head of an earlier layer ablated, the best induction score left
//     in the later layers (read from the same ablated passes as the table);
//   - the phase change (induction): PhaseChange over the held-out curve's repeat loss;
//   - the logit lens: the held-out loss read after each block through LN_f and W_u;
//   - the offset profile and, under RoPE, its split by frequency pair (OffsetProfile);
//   - config.ablate's heads switched off together: result.ablated.
//
// Cost, stated because it runs after every run: 1 + L*H forward passes over the held-out set (one
// more with config.ablate), L readouts (LN_f and W_u alone), the offset profile's
// L * S * H * P (P + 1) / 2 * d_head multiply-adds over S held-out sequences of P positions. At the
// defaults (L 2, H 4, 128 held-out sequences) that is 9 held-out evaluations, fewer than the 16 a
// 1500-step run makes while it trains, about a second on one core. Allocates (after training only).
#include "core/transformer/transformer_evaluator.h"
#include "core/transformer/transformer_report.h"

#include <vector>

namespace fb {

class TransformerAnatomy {
public:
    // Fills result's anatomy fields (prevTokenScore .. ablated) from evaluator's held-out set.
    // result.heldoutCurve is read for the phase change.
    static void compute(TransformerEvaluator &evaluator, FeedbackMode mode, int passes, TransformerResult &result);

    // [layer] the mean output of every head (atty, d values per layer) over the held-out set: what a
    // mean-ablated head reads. One forward pass over it.
    static std::vector<std::vector<double>> headMeans(TransformerEvaluator &evaluator, FeedbackMode mode, int passes);
};

} // namespace fb
