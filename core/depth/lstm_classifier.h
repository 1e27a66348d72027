#pragma once
// The chapter's second cell (section 218.2.1): is the mean token of a sequence above vocab / 2?
//   arm "lstm":         embedding -> LSTM (hand-written forward and backward through time) -> linear on h_T
//   arm "mean-pooling": embedding -> mean over the sequence -> linear
// trained with Adam on a fixed training set of `batch` sequences (the chapter's X, used at every
// step), cross entropy over two classes, and scored on the training set (as the chapter prints) and
// on `heldout` fresh sequences (an honest accuracy; 8 sequences are easy to memorise).
//
// The chapter's PyTorch cell computes emb = embedding(X) once per step and backpropagates both
// losses through it: loss_lstm.backward() frees the graph behind emb, so loss_avg.backward() fails
// ("Trying to backward through the graph a second time"); and with retain_graph=True both optimisers
// would update one shared embedding, so neither arm would be a model on its own. FullBand trains each
// arm on its own graph with its own embedding; both embeddings start from the same values.
//
// Note the task: label = [sum of tokens > T vocab / 2] is a linear function of the token counts, so
// mean pooling followed by a linear layer can represent it exactly. Nothing here favours the LSTM.
#include "core/run/budget.h"
#include "core/optim/adam.h"
#include "core/depth/lstm.h"
#include "core/training/trainer.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fb {

enum class ClassifierArm { Lstm, MeanPooling };
std::string classifierArmName(ClassifierArm arm);  // "lstm" | "mean-pooling"
std::string classifierStatusName(TrainStatus s);   // "finished" | "cancelled" | "diverged"

struct ClassifierConfig {
    int vocab = 20;          // the chapter's vocab_size
    int seqLen = 10;         // seq_len
    int embed = 16;          // embed_dim
    int hidden = 32;         // hidden_dim
    int batch = 8;           // batch_size: the size of the fixed training set
    int steps = 200;
    double lr = 1e-2;        // Adam, betas (0.9, 0.999), eps 1e-8
    std::uint64_t seed = 0;  // initialisation and the training set
    int heldout = 512;       // fresh sequences for the held-out accuracy (their own stream)
    int evalEvery = 0;       // held-out accuracy every evalEvery steps too (0: only at the end)
    // A training loss above this many nats, at any step, stops the run as Diverged. 0 = automatic:
    // 10 ln 2, ten times the loss of a fair coin (6.93 nats).
    double divergeLoss = 0.0;
    // The last update is judged by the held-out loss: above this many nats the run diverged on it.
    // 0 = automatic: 100 ln 2 (69.3 nats). Higher than the training limit: a model that memorised a
    // few training sequences is honestly overconfident on fresh ones (held-out losses of 3 to 20 nats
    // at lr 0.01 to 0.3), which is not divergence; thousands of nats are.
    double heldoutDivergeLoss = 0.0;
};

// The memory and the work of training one arm of config (the training set's forward and backward
// pass every step, the held-out passes), for the budget of core/run/budget.h.
Cost classifierCost(const ClassifierConfig &config, ClassifierArm arm);
// Empty when the arms of config may train one after the other; otherwise one sentence naming the
// figure over the budget (memory: the larger arm's, work: the sum).
std::string checkClassifierConfig(const ClassifierConfig &config, const std::vector<ClassifierArm> &arms);

// Sequences of token ids and their labels.
struct SequenceSet {
    Eigen::MatrixXi tokens;   // (T, N): tokens(t, n) is token t of sequence n
    std::vector<int> labels;  // N labels, 1 when the mean token is above vocab / 2
    int count() const { return int(tokens.cols()); }
};
// count sequences of uniform tokens in [0, vocab); label = (mean > vocab / 2), as the chapter's y.
SequenceSet makeMeanThresholdSet(int count, int seqLen, int vocab, std::uint64_t seed);
// The larger class's share: what always guessing it scores.
double majorityRate(const SequenceSet &set);

// One arm's parameters. Also used for its gradients (same shapes).
struct ClassifierModel {
    ClassifierArm arm = ClassifierArm::Lstm;
    Eigen::MatrixXd embedding;  // (E, V): column v is token v's vector
    LstmWeights lstm;           // lstm arm only: W (4H, H + E), b (4H)
    Eigen::MatrixXd Wc;         // (2, H) on h_T, or (2, E) on the mean embedding
    Eigen::VectorXd bc;         // (2)

    std::vector<ParamSpan<double>> slices();  // for the optimiser, in a fixed order
    long long parameterCount() const;
    void setZero();                    // zero every tensor, keeping shapes
};

// PyTorch's initialisations: embedding N(0, 1); LSTM U(-1/sqrt(H), 1/sqrt(H)) for W and b (one bias
// vector where PyTorch keeps two, b_ih + b_hh); linear U(-1/sqrt(in), 1/sqrt(in)).
ClassifierModel makeClassifier(const ClassifierConfig &c, ClassifierArm arm);

struct ClassifierEval {
    double loss = 0.0;      // mean cross entropy (nats)
    double accuracy = 0.0;  // share of argmax(logits) == label
};
// Forward on set; with grads (shapes as model, overwritten) also the backward pass of the mean loss.
ClassifierEval classifierLoss(const ClassifierModel &model, const SequenceSet &set, ClassifierModel *grads = nullptr);

struct ClassifierProgress {
    ClassifierArm arm = ClassifierArm::Lstm;
    int step = 0;                 // 1-based, the step just finished
    int steps = 0;
    double loss = 0.0;            // training loss at that step (before its update)
    double accuracy = 0.0;        // training accuracy at that step
    double elapsedSeconds = 0.0;
};

struct ClassifierResult {
    ClassifierArm arm = ClassifierArm::Lstm;
    long long params = 0;
    double accuracy = 0.0;          // on the training set after training (the chapter's number)
    double heldoutAccuracy = 0.0;   // on the held-out set after training
    double heldoutLoss = 0.0;
    double heldoutMajority = 0.0;   // majorityRate of the held-out set: the chance line
    std::vector<double> curve;      // training loss per finished step
    std::vector<double> accuracyCurve;                  // training accuracy per finished step
    std::vector<std::pair<int, double>> heldoutCurve;   // (step, held-out accuracy), step 0 included
    double seconds = 0.0;
    TrainStatus status = TrainStatus::Finished;
    std::string message;
};

// Trains one arm. Deterministic for a config. onStep (may be empty) runs on the calling thread after
// every step; control (may be null) is checked every step: paused waits, cancelled stops with
// TrainStatus::Cancelled (the result holds the steps done). A non-finite loss or gradient, a training
// loss above divergeLoss, or a final held-out loss above heldoutDivergeLoss stops with Diverged and keeps the last good
// weights (those that gave the last accepted training loss). Throws std::invalid_argument for a config
// that checkClassifierConfig refuses.
ClassifierResult trainClassifier(const ClassifierConfig &config, ClassifierArm arm,
                                 const std::function<void(const ClassifierProgress &)> &onStep = {},
                                 const RunControl *control = nullptr);

} // namespace fb
