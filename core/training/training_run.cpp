#include "core/training/training_run.h"

#include <utility>

namespace fb {

TrainingRun::TrainingRun(std::vector<TrainConfig> configs, double stepsPerSecond)
    : configs_(std::move(configs))
    , pace_(stepsPerSecond)
{
    arms_.reserve(configs_.size());
    for (const TrainConfig &config : configs_)
        arms_.push_back(std::make_unique<Arm>([this, config](RunControl &control, Arm::Outbox &out) {
            return trainArm(config, control, out);
        }));
}

TrainingRun::~TrainingRun()
{
    // Closing: every arm stops within a step and skips the held-out pass, whose result nobody would
    // see; all are told before the first is joined.
    for (auto &arm : arms_) arm->control().abandon();
    arms_.clear();
}

TrainResult TrainingRun::trainArm(const TrainConfig &config, RunControl &control, Arm::Outbox &out)
{
    Pace::Clock::time_point lastStep = Pace::Clock::now();
    auto onStep = [this, &control, &out, &lastStep](const TrainProgress &p) {
        out.publish([&](std::vector<double> &losses) { losses.push_back(p.loss); });
        pace_.afterStep(control, lastStep);  // paced: the rest of this step's 1 / pace seconds
    };
    return train(config, onStep, &control);
}

std::vector<TrainingRun::ArmUpdate> TrainingRun::take()
{
    std::vector<ArmUpdate> updates(arms_.size());
    for (std::size_t i = 0; i < arms_.size(); ++i) {
        Arm::Taken t = arms_[i]->take();  // O(1) under the lock: the losses are swapped out
        updates[i].losses = std::move(t.update);
        updates[i].result = std::move(t.result);
        updates[i].error = std::move(t.error);
    }
    return updates;
}

void TrainingRun::setPace(double stepsPerSecond)
{
    pace_.set(stepsPerSecond);
    for (auto &arm : arms_) arm->control().wake();
}

void TrainingRun::setPaused(bool paused)
{
    paused_ = paused;
    for (auto &arm : arms_) arm->setPaused(paused);
}

void TrainingRun::cancel()
{
    for (auto &arm : arms_) arm->cancel();  // also wakes a paused training
}

bool TrainingRun::allHeld() const
{
    for (const auto &arm : arms_)
        if (!arm->isHeld()) return false;
    return true;
}

bool TrainingRun::allEnded() const
{
    for (const auto &arm : arms_)
        if (!arm->ended()) return false;
    return true;
}

void TrainingRun::join()
{
    for (auto &arm : arms_) arm->join();
}

} // namespace fb
