#pragma once
// One worker thread that runs the latest submitted job: one job in flight, at most one pending.
// Submitting while a job is pending replaces it (the older one never runs), so a slider dragged
// faster than the computation coalesces into recomputes at the rate the worker can keep up with.
//
// Every job gets its own RunControl. A job made stale by a newer submission is cancelled once it
// has run for the runner's grace period: a quick job (a frame's worth of work) still finishes, so a
// dragged slider keeps redrawing, while a slow one (a one-second depth study) gives way at its next
// check instead of running to the end. The destructor cancels the running job at once.
#include "core/run/run_control.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace fb {

class LatestWinsRunner {
public:
    // A job receives its generation number (1, 2, ...) and its stop token. Jobs run on the worker
    // thread and must only use what they captured by value.
    using Job = std::function<void(std::uint64_t generation, const RunControl &stop)>;

    // grace: how long a stale job may go on before it is cancelled (0: cancelled at once).
    explicit LatestWinsRunner(std::chrono::milliseconds grace = std::chrono::milliseconds(100));
    ~LatestWinsRunner();  // drops the pending job, cancels the running one, joins
    LatestWinsRunner(const LatestWinsRunner &) = delete;
    LatestWinsRunner &operator=(const LatestWinsRunner &) = delete;

    // Queues job as the pending one and returns its generation. Thread-safe.
    std::uint64_t submit(Job job);

    // Cancels the running job and drops the pending one (the next submit starts afresh).
    void cancelAll();

    // The generation of the newest submitted job; a result of an older one is stale.
    std::uint64_t latestGeneration() const;

    // Blocks until no job is pending or running (for tests and headless export).
    void waitIdle();

    // Number of jobs that actually ran (coalesced ones excluded), and of those cancelled while
    // running, for tests and benchmarks.
    std::uint64_t jobsRun() const;
    std::uint64_t jobsCancelled() const;

private:
    void loop();

    const std::chrono::milliseconds grace_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    Job pending_;
    std::uint64_t pendingGeneration_ = 0;
    std::uint64_t latest_ = 0;
    std::uint64_t jobsRun_ = 0;
    std::uint64_t jobsCancelled_ = 0;
    std::shared_ptr<RunControl> running_;                // the running job's token, null when idle
    std::chrono::steady_clock::time_point runningSince_;
    bool stopping_ = false;
    std::thread thread_;  // last: starts after the members above exist
};

} // namespace fb
