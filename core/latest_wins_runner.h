#pragma once
// One worker thread that runs the latest submitted job: one job in flight, at most one pending.
// Submitting while a job is pending replaces it (the older one never runs), so a slider dragged
// faster than the computation coalesces into recomputes at the rate the worker can keep up with.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace fb {

class LatestWinsRunner {
public:
    // A job receives its generation number (1, 2, ...). Jobs run on the worker thread and must only
    // use what they captured by value.
    using Job = std::function<void(std::uint64_t generation)>;

    LatestWinsRunner();
    ~LatestWinsRunner();  // drops the pending job, waits for the running one, joins
    LatestWinsRunner(const LatestWinsRunner &) = delete;
    LatestWinsRunner &operator=(const LatestWinsRunner &) = delete;

    // Queues job as the pending one and returns its generation. Thread-safe.
    std::uint64_t submit(Job job);

    // The generation of the newest submitted job; a result of an older one is stale.
    std::uint64_t latestGeneration() const;

    // Blocks until no job is pending or running (for tests and headless export).
    void waitIdle();

    // Number of jobs that actually ran (coalesced ones excluded), for tests and benchmarks.
    std::uint64_t jobsRun() const;

private:
    void loop();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    Job pending_;
    std::uint64_t pendingGeneration_ = 0;
    std::uint64_t latest_ = 0;
    std::uint64_t jobsRun_ = 0;
    bool running_ = false;
    bool stopping_ = false;
    std::thread thread_;  // last: starts after the members above exist
};

} // namespace fb
