#pragma once
// Trains the two arms of Figure 218.2 (right) of 000_031aadcae6604a46.txt on the toy phase
// accumulator with FullBand's own forward and backward passes. Callable from any thread;
// observable through a per-step callback and controllable through TrainControl's atomics.
#include "core/param_spec.h"

#include <atomic>
#include <cstdint>
#include <functional>
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
    std::uint64_t seed = 0;   // initialisation and training batches
    double clip = 0.0;        // gradient-norm clipping threshold; 0 = off
    int evalSequences = 2048; // held-out set size
    std::uint64_t evalSeed = 99;
};

struct TrainProgress {
    int step = 0;             // 1-based, the step just finished
    int steps = 0;
    double loss = 0.0;        // training cross entropy of that step (nats)
    double elapsedSeconds = 0.0;
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
};

// Shared between the training thread and a controller thread.
struct TrainControl {
    std::atomic<bool> paused { false };
    std::atomic<bool> cancelled { false };
};

// Runs one training. onStep (may be empty) is called on the training thread after every step.
// control (may be null) is checked every step: paused waits (without spinning hot), cancelled
// stops with TrainStatus::Cancelled. A non-finite loss or gradient stops with Diverged and keeps
// the last good weights and curve.
TrainResult train(const TrainConfig &config,
                  const std::function<void(const TrainProgress &)> &onStep = {},
                  TrainControl *control = nullptr);

// Parameter count of an arm at the given sizes (5,700 and 8,356 at the chapter's defaults).
long long parameterCount(const TrainConfig &config);

// Keys: arm (token-only|latent-feedback|both), steps, batch, lr, seq_len, buckets, d_emb, d_hid,
// d_fuse, passes, seed, clip. trainFrom fills config (arm "both" sets bothArms).
const LabSpec &trainSpec();
std::string trainFrom(const ParamValues &v, TrainConfig &out, bool &bothArms);

} // namespace fb
