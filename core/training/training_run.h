#pragma once
// One run of the latent-feedback lab: one background run (core/run/background_run.h) per arm, each
// calling fb::train() on its own copy of a TrainConfig. Each arm publishes its steps' losses; the
// GUI pulls whatever is new with take() on a timer, holding a lock only to swap the buffers out, so
// a fast trainer turns into redraws at frame rate and the GUI thread never waits for a training
// step. Destroying a run abandons it and joins its threads.
#include "core/run/background_run.h"
#include "core/run/pace.h"
#include "core/training/trainer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fb {

class TrainingRun {
public:
    // What arrived from one arm since the previous take().
    struct ArmUpdate {
        std::vector<double> losses;         // training losses of the new steps, in step order
        std::optional<TrainResult> result;  // set once, in the take() after the arm has ended
        std::string error;                  // set once if train() threw instead (bad config ...)
    };

    // Starts one thread per config at once.
    explicit TrainingRun(std::vector<TrainConfig> configs, double stepsPerSecond = 0.0);
    ~TrainingRun();  // cancels every arm and joins its thread
    TrainingRun(const TrainingRun &) = delete;
    TrainingRun &operator=(const TrainingRun &) = delete;

    const std::vector<TrainConfig> &configs() const { return configs_; }

    // Moves out everything new, one entry per config (GUI thread; never blocks on a training step).
    std::vector<ArmUpdate> take();

    // Pace: at most stepsPerSecond training steps a second per arm (0: as fast as possible), so
    // that a lecturer can narrate a run that would be over in a second. Takes effect at once, also
    // in the middle of a wait between two steps; a cancel ends such a wait at once too.
    void setPace(double stepsPerSecond);
    double pace() const { return pace_.get(); }

    void setPaused(bool paused);
    bool isPaused() const { return paused_; }
    // True when every arm has ended or is parked in its pause (runs no step until resumed).
    bool allHeld() const;
    // Asks every arm to stop after its current step; their results come back as Cancelled.
    void cancel();
    // True once every training thread has returned (its result may still be waiting in take()).
    bool allEnded() const;
    // Blocks until every training thread has returned.
    void join();

private:
    using Arm = BackgroundRun<std::vector<double>, TrainResult>;
    TrainResult trainArm(const TrainConfig &config, RunControl &control, Arm::Outbox &out);

    std::vector<TrainConfig> configs_;
    Pace pace_;  // before arms_: the arms read it from their first step
    bool paused_ = false;
    std::vector<std::unique_ptr<Arm>> arms_;
};

} // namespace fb
