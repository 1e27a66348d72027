#pragma once
// What a transformer training reports (core/transformer/transformer_trainer.h): the per-step
// progress, the periodic snapshots the lab draws live, and the result.
#include "core/rope/context_extension.h"
#include "core/training/trainer.h"
#include "core/transformer/text_corpus.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layout.h"

#include <Eigen/Core>

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace fb {

// After every training step (on the training thread).
struct TransformerProgress {
    int step = 0;                 // 1-based, the step just finished
    int steps = 0;
    double loss = 0.0;            // training cross entropy of that step (nats)
    double elapsedSeconds = 0.0;  // since the start, pauses excluded (evaluations and snapshots included)
    double trainSeconds = 0.0;    // the training steps alone (data, forward, backward, Adam)
    double gradNorm = 0.0;        // 2-norm of that step's gradient, before clipping
};

struct TrainedTransformer;

// Taken every probeEvery steps and whenever probeSeconds passed since the last one, and once before
// the first step and once after the last (with the final held-out figures). Taking one changes none
// of the training's numbers. Passed by const reference: copy what you keep.
struct TransformerSnapshot {
    static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    int step = 0;                  // steps finished when it was taken
    double elapsedSeconds = 0.0;
    int seqLen = 0, layers = 0, heads = 0;
    std::vector<int> probeTokens;  // the probe sequence: T tokens of one held-out sequence (its inputs)
    // [layer * heads + head]: (T, T), row = query i, column = key j, zero for j > i, rows sum to 1
    std::vector<Eigen::MatrixXf> attention;
    // induction tasks: [layer][head] mean attention of each query i in the repeat on key i - s + 1,
    // on the probe batch (the probe sequence and 7 more); empty for the other tasks
    std::vector<std::vector<double>> inductionScore;
    // The linear mixers (core/transformer/mixer.h): the state S_t of the probe sequence after each
    // position of statePositions (every position up to kStatePositions of them, else that many evenly
    // spread, the last always kept), [layer * heads + head][i] (d_head x d_head: value features by key
    // features); empty for a softmax layer's heads, and both empty when no layer is linear.
    static constexpr int kStatePositions = 32;
    std::vector<int> statePositions;
    std::vector<std::vector<Eigen::MatrixXf>> states;
    double gateMean = nan;         // feedback: mean of the GLU gate sigmoid(W_b u + b_b) on the probe sequence
    int heldoutStep = -1;          // step of the last held-out evaluation (-1: none yet)
    double heldoutLoss = nan;      // mean cross entropy on the held-out set at heldoutStep
    double secondHalfLoss = nan;   // induction: on the repeat's predictions
    double accuracy = nan;         // tasks with exact answers: the held-out answer tokens' accuracy at heldoutStep
    double trainAccuracy = nan;    // modular-addition: the same on every training pair
    std::string sample;            // text task: the prompt (the start of the held-out text) and a sample
    // text task with config.snapshotWeights: the weights at this step (a copy; shared, never changed)
    std::shared_ptr<const TrainedTransformer> weights;
};

// One row of the length-generalisation table: a positional scheme (and, under RoPE, a rescaling with
// factor = length / T) evaluated on fresh held-out sequences of T, 2T and 4T tokens.
struct LengthRow {
    std::string label;             // "rope", "rope+pi", "rope+ntk", "rope+yarn", "sinusoidal", "none"
    ScalingMethod scaling = ScalingMethod::None;
    std::vector<int> lengths;      // T, 2T, 4T (tokens)
    std::vector<double> loss;      // mean cross entropy over every prediction
    std::vector<double> repeatLoss;  // induction: on the repeat (the reference's second_half_loss_at); NaN otherwise
};

// The length table's columns: T, 2T and 4T tokens (up to the longest attention accepts)
constexpr int kLengthFactors[] = { 1, 2, 4 };

// The length table's rows before any loss is measured: each positional scheme's label (RoPE with its
// three rescalings) and the lengths T, 2T, 4T up to the longest attention accepts; none for the tasks
// of one sequence length. TransformerEvaluator::lengthTable (transformer_evaluator.h) fills their losses; a view shows them
// while a run trains, so that the table keeps its place when the numbers come.
std::vector<LengthRow> transformerLengthRows(const TransformerConfig &c);

// The weights a training ended with, to sample from after it (text) or to inspect.
struct TrainedTransformer {
    TransformerConfig config;      // without its text
    TransformerShape shape;
    Eigen::VectorXf params;        // laid out as TransformerLayout(shape)
    std::shared_ptr<const TextCorpus> corpus;  // the text task's vocabulary and text; null otherwise
};

struct TransformerResult {
    static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    TrainStatus status = TrainStatus::Finished;  // finished | cancelled | diverged
    std::string message;           // why it stopped early, for people
    long long params = 0;
    int vocab = 0;                 // the model's vocabulary (text: the text's characters, <unk> included)
    double flopsPerStep = 0.0;     // transformerFlopsPerStep
    int stepsDone = 0;
    // The step whose weights the model holds and the held-out figures describe: the held-out
    // evaluation with the lowest loss (text task), otherwise the last step; -1 when no step finished.
    int bestStep = -1;
    double seconds = 0.0;          // the training steps only (data, forward, backward, Adam)
    double msPerStep = 0.0;        // 1000 seconds / stepsDone
    double wallSeconds = 0.0;      // everything, evaluations included, pauses excluded
    std::vector<double> curve;     // training loss of every finished step
    struct HeldoutPoint {
        int step = 0;
        double loss = nan;            // on the held-out set
        double secondHalfLoss = nan;  // induction: on its repeats
        double accuracy = nan;        // tasks with exact answers: share of held-out answer tokens predicted (argmax)
        double trainAccuracy = nan;   // modular-addition: the same on every training pair (grokking)
    };
    std::vector<HeldoutPoint> heldoutCurve;  // at step 0 and every evalEvery steps (as the reference prints them)
    // On the held-out set (evalSequences sequences), with the final (or last good) weights, in the
    // forward pass the model was trained with:
    double heldoutLoss = nan;
    double secondHalfLoss = nan;   // induction: the repeat's predictions (ideal 0)
    double firstHalfLoss = nan;    // induction: the first copy's predictions (ideal ln V)
    // The tasks with exact answers (copy, reverse, sort, modular-addition, mqar, parity): the share of
    // held-out answer tokens whose most likely prediction is the answer; NaN for the other tasks.
    double accuracy = nan;
    double trainAccuracy = nan;    // modular-addition: the accuracy on every training pair
    // mqar: the held-out accuracy of sequences holding exactly that many pairs, for the counts of
    // recallPairCounts(config) (every count from 1 to pairs, or a ladder of them above 16 pairs),
    // each on its own fresh held-out sequences; empty for the other tasks
    struct RecallPoint {
        int pairs = 0;
        double accuracy = nan;
    };
    std::vector<RecallPoint> recallByPairs;
    double exactHeldoutLoss = nan; // kpass: the same held-out loss decoded exactly (h_{t-1} of the same pass)
    std::vector<std::vector<double>> inductionScore;  // [layer][head] on 4 x batch fresh sequences (induction)
    std::vector<LengthRow> lengths;  // the length-generalisation table
    int extendedLength = 0;        // round(factor * T) tokens, evaluated with config.scaling (RoPE)
    double extendedLoss = nan;     // its loss (induction: on the repeat)
    TransformerSnapshot finalSnapshot;
    std::shared_ptr<const TrainedTransformer> model;  // null when the run was abandoned

    // The trained model taken apart (core/interpret/transformer_anatomy.h), on the held-out set, in
    // the forward pass it was trained with. Empty (NaN, -1) when the run was abandoned.
    std::vector<std::vector<double>> prevTokenScore;   // [layer][head] mean attention of query i on key i - 1
    // the attention sink: the mean weight the queries after the first put on position 0, [layer][head]
    // and over every head of every layer
    std::vector<std::vector<double>> sinkShareByHead;
    double sinkShare = nan;
    std::vector<std::vector<double>> heldoutInductionScore;  // induction: [layer][head], unablated
    bool meanAblation = false;     // the table's (and ablated's) heads read their mean output, else 0
    std::vector<std::vector<double>> ablationHeldoutLoss;     // [layer][head] that head alone ablated
    std::vector<std::vector<double>> ablationSecondHalfLoss;  // induction: its repeat loss
    std::vector<double> ablationFfnHeldoutLoss;     // [layer] that layer's FFN alone switched off (out = mid)
    std::vector<double> ablationFfnSecondHalfLoss;  // induction: its repeat loss
    double ablationFeedbackHeldoutLoss = nan;       // feedback on: the gate on h_{t-1} forced shut
    double ablationFeedbackSecondHalfLoss = nan;    // induction: its repeat loss
    // induction: [layer][head] the best induction score of the later layers' heads with that head
    // ablated (NaN for the last layer); compare with heldoutInductionScore's best of those layers
    std::vector<std::vector<double>> composition;
    int phaseChangeStep = -1;      // induction: where heldoutCurve's repeat loss falls fastest; -1 none
    std::vector<double> logitLens;             // [layer] held-out loss read after that block through LN_f
    std::vector<double> logitLensSecondHalf;   // induction: [layer] the same on the repeat
    // [layer][position] the same per input position t (the prediction of token t + 1), averaged over
    // the held-out sequences; every position has as many, so the last layer's mean is heldoutLoss
    std::vector<std::vector<double>> logitLensPositions;
    // [layer][head][delta] the mean pre-softmax logit at offset delta = i - j, delta = 0 .. P - 1
    // (P the held-out sequences' input positions: T - 1 on the induction tasks, T otherwise)
    std::vector<std::vector<std::vector<double>>> offsetProfile;
    // RoPE: [layer][head][pair][delta] each frequency pair's share (theta_p = base^(-2p/d_head))
    std::vector<std::vector<std::vector<std::vector<double>>>> offsetPairs;
    // RoPE: [delta] the decay bound of Figure 218.1 (core/rope/decay_bound.h) at d_head and base, the
    // envelope the pairs' shares are drawn against; NaN at delta 0 (the bound starts at distance 1)
    std::vector<double> offsetDecayBound;
    // RoPE: [layer][head][delta] that bound drawn on the head's scale: times the head's largest
    // |offsetProfile| over the bound's largest (its shape against the profile, one axis for both)
    std::vector<std::vector<std::vector<double>>> offsetDecayBoundScaled;
    struct Ablated {
        std::vector<std::string> heads;  // "L2H1", "F1", "feedback" ... (config.ablate); empty: no such evaluation
        double heldoutLoss = nan;
        double secondHalfLoss = nan;
    };
    Ablated ablated;
    double anatomySeconds = 0.0;   // what taking it apart cost (inside wallSeconds)
};

} // namespace fb
