#include "core/latest_wins_runner.h"

namespace fb {

LatestWinsRunner::LatestWinsRunner()
    : thread_([this] { loop(); })
{
}

LatestWinsRunner::~LatestWinsRunner()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_ = nullptr;
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
    }
    wake_.notify_one();
    return generation;
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

void LatestWinsRunner::loop()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || pending_; });
        if (stopping_) break;
        Job job = std::move(pending_);
        pending_ = nullptr;
        const std::uint64_t generation = pendingGeneration_;
        running_ = true;
        lock.unlock();
        job(generation);  // the work itself runs without the lock
        job = nullptr;    // release captured state off the lock too
        lock.lock();
        running_ = false;
        ++jobsRun_;
        if (!pending_) idle_.notify_all();
    }
    running_ = false;
    idle_.notify_all();
}

} // namespace fb
