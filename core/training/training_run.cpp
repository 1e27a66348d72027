#include "core/training/training_run.h"

#include <chrono>
#include <exception>
#include <utility>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace fb {

TrainingRun::TrainingRun(std::vector<TrainConfig> configs, double stepsPerSecond)
    : configs_(std::move(configs))
    , pace_(stepsPerSecond > 0.0 ? stepsPerSecond : 0.0)
{
    arms_.reserve(configs_.size());
    for (std::size_t i = 0; i < configs_.size(); ++i) arms_.push_back(std::make_unique<Arm>());
    // Threads start only after every Arm exists: a thread touches just its own Arm and the mutex.
    for (std::size_t i = 0; i < configs_.size(); ++i)
        arms_[i]->thread = std::thread([this, i] { runArm(i); });
}

TrainingRun::~TrainingRun()
{
    // Closing: stop within a step and skip the held-out pass, whose result nobody would see.
    for (auto &arm : arms_) arm->control.abandon();
    join();
}

void TrainingRun::runArm(std::size_t index)
{
#if defined(__linux__)
    // Train at a lower priority than the GUI (nice 10; on Linux nice applies per thread): with two
    // arms on a two-core machine the window still gets a core the moment it has a frame to draw.
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
    Arm &arm = *arms_[index];
    const TrainConfig &config = configs_[index];
    using Clock = std::chrono::steady_clock;
    Clock::time_point lastStep = Clock::now();
    auto onStep = [this, &arm, &lastStep](const TrainProgress &p) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            arm.pending.push_back(p.loss);
        }
        // Paced: wait out the rest of this step's 1/pace seconds. A new pace (setPace wakes the
        // wait) is taken at once; a cancel ends the wait and the trainer stops at its next check.
        for (;;) {
            const double pace = pace_.load();
            if (pace <= 0.0) break;
            const auto due = lastStep + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / pace));
            if (Clock::now() >= due || !arm.control.waitUntil(due, [&] { return pace_.load() != pace; })) break;
        }
        lastStep = Clock::now();
    };
    std::optional<TrainResult> result;
    std::string error;
    try {
        result = train(config, onStep, &arm.control);
    } catch (const std::exception &e) {
        error = e.what();
        if (error.empty()) error = "training failed";
    } catch (...) {
        error = "training failed with an unknown error";
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        arm.result = std::move(result);
        arm.error = std::move(error);
    }
    arm.ended.store(true);
}

std::vector<TrainingRun::ArmUpdate> TrainingRun::take()
{
    std::vector<ArmUpdate> updates(arms_.size());
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < arms_.size(); ++i) {
        Arm &arm = *arms_[i];
        updates[i].losses.swap(arm.pending);  // O(1): the copy happens outside the training thread
        if (!arm.reported && (arm.result || !arm.error.empty())) {
            updates[i].result = std::move(arm.result);
            updates[i].error = std::move(arm.error);
            arm.result.reset();
            arm.reported = true;
        }
    }
    return updates;
}

void TrainingRun::setPace(double stepsPerSecond)
{
    pace_.store(stepsPerSecond > 0.0 ? stepsPerSecond : 0.0);
    for (auto &arm : arms_) arm->control.wake();
}

void TrainingRun::setPaused(bool paused)
{
    paused_ = paused;
    for (auto &arm : arms_) {
        if (paused) arm->control.pause();
        else arm->control.resume();  // wakes the training at once
    }
}

void TrainingRun::cancel()
{
    for (auto &arm : arms_) arm->control.cancel();  // also wakes a paused training
}

bool TrainingRun::allHeld() const
{
    for (const auto &arm : arms_)
        if (!arm->ended.load() && arm->control.parkedWorkers() == 0) return false;
    return true;
}

bool TrainingRun::allEnded() const
{
    for (const auto &arm : arms_)
        if (!arm->ended.load()) return false;
    return true;
}

void TrainingRun::join()
{
    for (auto &arm : arms_)
        if (arm->thread.joinable()) arm->thread.join();
}

} // namespace fb
