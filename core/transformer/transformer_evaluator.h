#pragma once
// The held-out side of a transformer training: the held-out set (drawn once from the held-out
// stream, seed + 1, as the reference's eval_gen), its losses, the probe forward pass behind each
// snapshot (attention maps, induction scores, the feedback gate), and after training the induction
// scores on fresh sequences and the length-generalisation table. Works in its own workspace, so that
// nothing it does touches the training's numbers. The held-out losses and the probe allocate
// nothing; the after-training functions do.
#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_report.h"
#include "core/transformer/transformer_tasks.h"

#include <functional>

namespace fb {

struct Ablation;

class TransformerEvaluator {
public:
    struct Losses {
        double loss = TransformerResult::nan;    // mean over every prediction
        double repeat = TransformerResult::nan;  // induction: over the repeat's predictions
        double first = TransformerResult::nan;   // induction: over the first copy's predictions
        // the answer tasks: share of the answer tokens whose argmax prediction is the answer
        double accuracy = TransformerResult::nan;
        // modular-addition (heldout() without ablation): the same on every training pair
        double trainAccuracy = TransformerResult::nan;
    };

    static constexpr int kProbeSequences = 8;

    // tables: the trained positional tables, covering transformerLongestEvaluation(config) positions.
    TransformerEvaluator(const TransformerConfig &config, const TransformerNet<float> &net, TransformerTasks &tasks,
                         const PositionTables<float> &tables);

    // Losses on the held-out set at T, in the given forward mode; ablation (may be null) switches
    // heads, FFNs or the feedback off (core/interpret/ablation.h). The held-out set of
    // modular-addition is every held-out pair once (unless evalSequences says otherwise).
    Losses heldout(FeedbackMode mode, int passes, const Ablation *ablation = nullptr);

    // The hook for what core/interpret reads: the forward pass (ablated when ablation is given)
    // over every held-out batch in turn, visit(batch, workspace) after each. Allocates nothing itself.
    using Visit = std::function<void(const TransformerBatch &, TransformerWorkspace<float> &)>;
    void forEachHeldout(FeedbackMode mode, int passes, const Ablation *ablation, const Visit &visit);
    // Adds the sums of batch's per-column losses (whole, repeat, first) after a forward pass (or a
    // readLayer) over it in the workspace forEachHeldout hands out; ignored targets are skipped.
    void accumulate(const TransformerBatch &batch, double sums[3], long long counts[3]) const;
    // Adds the induction-score sums ([layer * heads + head]) of the last forward pass over batch.
    void addScores(const TransformerBatch &batch, std::vector<double> &sums, std::vector<long long> &counts) const;

    bool hasRepeat() const { return tasks_.hasRepeat(); }
    const TransformerNet<float> &net() const { return net_; }
    const PositionTables<float> &tables() const { return tables_; }
    const TransformerConfig &config() const { return c_; }

    // Sizes a snapshot's buffers (allocates); probe() then fills them without allocating.
    void sizeSnapshot(TransformerSnapshot &out) const;
    // The probe batch's forward pass: attention maps of its first sequence, induction scores over
    // all of it, the mean feedback gate. mode and passes as trained.
    void probe(TransformerSnapshot &out, FeedbackMode mode, int passes);

    // After training (allocates): [layer][head] induction scores on `sequences` fresh held-out
    // sequences; the length table at T, 2T, 4T (fresh held-out sequences, 1/factor as many at factor
    // times T, so that each length averages as many predictions); the loss at `length` tokens with RoPE rescaled by
    // `scaling` (factor length / T).
    std::vector<std::vector<double>> inductionScores(int sequences, FeedbackMode mode, int passes);
    std::vector<LengthRow> lengthTable(FeedbackMode mode, int passes);
    Losses extended(int length, ScalingMethod scaling, FeedbackMode mode, int passes);
    // Mqar (allocates): the held-out accuracy at each of recallPairCounts(config), on fresh
    // sequences of exactly that many pairs (held-out-set size each, from a stream of each count's
    // own, so that nothing else measured changes and a model of more pairs reads the same
    // sequences, padded, as one of exactly P); empty for the other tasks. stop (may be empty) is
    // asked before each count: true ends the measurement there (the points so far are returned).
    std::vector<TransformerResult::RecallPoint> recallByPairs(FeedbackMode mode, int passes,
                                                              const std::function<bool()> &stop = {});

    const TransformerBatch &probeBatch() const { return probe_; }

private:
    Losses lossesOn(std::vector<TransformerBatch> &batches, const PositionTables<float> &pos, FeedbackMode mode,
                    int passes, const Ablation *ablation = nullptr);
    // Fresh held-out batches of `sequences` sequences of n tokens (chunks that fit the workspace),
    // drawn from rng (null: the evaluator's own held-out stream); empty when the held-out text is too short.
    std::vector<TransformerBatch> drawBatches(int sequences, int n, bool withTargets, Rng *rng = nullptr);
    PositionTables<float> rescaled(int length, ScalingMethod scaling) const;

    TransformerConfig c_;
    const TransformerNet<float> &net_;
    TransformerTasks &tasks_;
    const PositionTables<float> &tables_;
    Rng rng_;                                // the held-out stream
    TransformerWorkspace<float> ws_;
    std::vector<TransformerBatch> heldout_;  // the held-out set, in chunks of batch sequences
    std::vector<TransformerBatch> trainSet_; // modular-addition: every training pair, in chunks
    TransformerBatch probe_;                 // kProbeSequences held-out sequences of T tokens, no targets
    std::vector<double> scoreSums_;          // (L H) scratch of probe()
    std::vector<long long> scoreCounts_;
};

} // namespace fb
