#include "core/run/latest_wins_runner.h"

namespace fb {

LatestWinsRunner::LatestWinsRunner(std::chrono::milliseconds grace)
    : grace_(grace)
    , thread_([this] { loop(); })
{
}

LatestWinsRunner::~LatestWinsRunner()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_ = nullptr;
        if (running_) running_->cancel();
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t LatestWinsRunner::submit(Job job)
{
    std::uint64_t generation;
    {
        std::lock_guard lock(mutex_);
        generation = ++latest_;
        pending_ = std::move(job);
        pendingGeneration_ = generation;
        // The running job is stale now: it may finish within its grace period, no later.
        if (running_) running_->cancelAt(runningSince_ + grace_);
    }
    wake_.notify_one();
    return generation;
}

void LatestWinsRunner::cancelAll()
{
    std::lock_guard lock(mutex_);
    pending_ = nullptr;
    if (running_) running_->cancel();
    idle_.notify_all();
}

std::uint64_t LatestWinsRunner::latestGeneration() const
{
    std::lock_guard lock(mutex_);
    return latest_;
}

void LatestWinsRunner::waitIdle()
{
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return (!pending_ && !running_) || stopping_; });
}

std::uint64_t LatestWinsRunner::jobsRun() const
{
    std::lock_guard lock(mutex_);
    return jobsRun_;
}

std::uint64_t LatestWinsRunner::jobsCancelled() const
{
    std::lock_guard lock(mutex_);
    return jobsCancelled_;
}

void LatestWinsRunner::loop()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || pending_; });
        if (stopping_) break;
        Job job = std::move(pending_);
        pending_ = nullptr;
        const std::uint64_t generation = pendingGeneration_;
        auto control = std::make_shared<RunControl>();
        running_ = control;
        runningSince_ = std::chrono::steady_clock::now();
        lock.unlock();
        job(generation, *control);  // the work itself runs without the lock
        job = nullptr;              // release captured state off the lock too
        lock.lock();
        running_.reset();
        ++jobsRun_;
        if (control->stopRequested()) ++jobsCancelled_;
        if (!pending_) idle_.notify_all();
    }
    running_.reset();
    idle_.notify_all();
}

} // namespace fb
