#pragma once
// Trains the two arms of Figure 218.2 (right) of 000_031aadcae6604a46.txt on the toy phase
// accumulator with FullBand's own forward and backward passes. Callable from any thread;
// observable through a per-step callback and controllable through a RunControl.
#include "core/run/budget.h"
#include "core/lab/param_spec.h"
#include "core/run/run_control.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace fb {

enum class Arm { TokenOnly, LatentFeedback };
std::string armName(Arm arm);  // "token-only" | "latent-feedback"

struct TrainConfig {
    Arm arm = Arm::TokenOnly;
    int steps = 220;
    int batch = 128;
    double lr = 8e-3;
    int seqLen = 16;          // T
    int buckets = 4;          // V_b
    int dEmb = 16;
    int dHid = 64;
    int dFuse = 16;
    int passes = 0;           // latent arm: 0 = exact (BPTT through all T steps), k >= 1 = k-pass
                              // (Section 218.6.4; pass 1 feeds GLU(E[y_{t-1}], h0), see toy_model.h)
    std::uint64_t seed = 0;   // initialisation and training batches
    double clip = 0.0;        // gradient-norm clipping threshold; 0 = off
    int evalSequences = 2048; // held-out set size
    std::uint64_t evalSeed = 99;
    // Added: a step whose training loss exceeds this many nats stops the run as Diverged, like a
    // non-finite loss (Adam bounds every update by about lr, so even lr = 1e3 keeps the loss finite
    // in float for hundreds of steps; it blows up instead). 0 = automatic: 10 ln(V_b), ten times
    // the loss of a uniform guess (13.9 nats at V_b = 4), far above anything a working run reaches.
    double divergeLoss = 0.0;
};

struct TrainProgress {
    int step = 0;             // 1-based, the step just finished
    int steps = 0;
    double loss = 0.0;        // training cross entropy of that step (nats)
    double elapsedSeconds = 0.0;
    double gradNorm = 0.0;    // added: 2-norm of that step's gradient, before clipping
};

enum class TrainStatus { Finished, Cancelled, Diverged };
std::string trainStatusName(TrainStatus s);  // "finished" | "cancelled" | "diverged"

struct TrainResult {
    Arm arm = Arm::TokenOnly;
    long long params = 0;
    double heldoutLoss = 0.0;    // nats, on evalSequences fresh sequences (last good weights)
    double accuracy = 0.0;       // bucket accuracy on the same set
    std::vector<double> curve;   // training loss per finished step
    double seconds = 0.0;
    TrainStatus status = TrainStatus::Finished;
    std::string message;         // why it stopped early, for people
    // Added:
    int passes = 0;              // the config's passes (latent arm), for reports
    double trainSeconds = 0.0;   // the step loop alone (seconds also counts the held-out pass)
    double flopsPerStep = 0.0;   // matrix-product FLOPs of one training step (trainFlopsPerStep)
    // Latent arm with passes = k >= 1: heldoutLoss/accuracy are measured the way the model runs at
    // inference, with the exact serial recurrence; these two with the k-pass forward it was trained
    // on. NaN otherwise.
    double kpassHeldoutLoss = std::numeric_limits<double>::quiet_NaN();
    double kpassAccuracy = std::numeric_limits<double>::quiet_NaN();
    double pausedSeconds = 0.0;  // time spent paused (not counted in seconds or trainSeconds)
};

// Runs one training. onStep (may be empty) is called on the training thread after every step.
// control (may be null) is checked every step: paused waits (without spinning), cancelled
// stops with TrainStatus::Cancelled (held-out figures still computed, from the weights reached;
// abandoned skips them and leaves them NaN). A non-finite loss or gradient (or a loss above divergeLoss)
// stops with Diverged and keeps the last good weights and curve: the curve ends with the last
// accepted loss and the held-out pass uses the weights that produced it. Deterministic: the same
// config gives the same curve bit for bit, on any thread, paused or not. Throws
// std::invalid_argument for a config that checkTrainConfig refuses.
TrainResult train(const TrainConfig &config,
                  const std::function<void(const TrainProgress &)> &onStep = {},
                  const RunControl *control = nullptr);

// Added: runs several trainings at once (oneTBB, one task per config; each training itself is
// single-threaded) and returns their results in the order of configs. onStep gets the index of the
// config and may be called from several training threads at once. control, when given, pauses and
// cancels all of them. Used for arm=both and for sweeps.
std::vector<TrainResult> trainAll(const std::vector<TrainConfig> &configs,
                                  const std::function<void(std::size_t, const TrainProgress &)> &onStep = {},
                                  const RunControl *control = nullptr);

// Parameter count of an arm at the given sizes (5,700 and 8,356 at the chapter's defaults).
long long parameterCount(const TrainConfig &config);

// Added: FLOPs of the matrix products of one training step (forward and backward, 2 per
// multiply-add; elementwise work not counted) for config's arm and passes. folded = true: as
// FullBand performs them (a linear layer reading a token embedding is folded into a (rows, V_b)
// table); false: as the chapter's PyTorch modules do (embedding lookup, then the full product).
double trainFlopsPerStep(const TrainConfig &config, bool folded = true);

// Added: empty when config is trainable, otherwise one sentence naming the bad field. train()
// throws std::invalid_argument with this sentence for a bad config.
std::string checkTrainConfig(const TrainConfig &config);

// Added: bytes of the workspaces a training of config allocates.
double trainWorkspaceBytes(const TrainConfig &config);
// The memory and the work of one training of config (checkTrainConfig refuses one over the budget
// of core/run/budget.h; arm=both runs two at once, and trainFrom checks their sum).
Cost trainCost(const TrainConfig &config);

} // namespace fb
