#pragma once
// The one way FullBand stops work. A RunControl is shared by the thread that asks (a window, a
// runner, a test) and the thread that works (an analytic computation, the depth study, a trainer).
// The asking side calls cancel(), abandon(), pause() and resume(); the working side checks
// stopRequested() between steps (a step is at most a few milliseconds of work) and calls
// waitWhilePaused() where it can pause, waitUntil() where it waits on purpose (a paced training). Every call is thread-safe; pause, resume and cancel wake a
// paused worker at once through the condition variable.
#include <atomic>
#include <chrono>
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace fb {

class RunControl {
public:
    RunControl() = default;
    RunControl(const RunControl &) = delete;
    RunControl &operator=(const RunControl &) = delete;

    // Asking side.
    void pause() { set(paused_, true); }
    void resume() { set(paused_, false); }
    // Stop after the current step; a trainer still reports the weights reached.
    void cancel() { set(cancelled_, true); }
    // Stop once the clock reaches deadline (already past: at the next check). For work that is
    // worth finishing if it is nearly done: the latest-wins runner gives a stale job a grace period.
    // A paused worker is not woken by a deadline.
    void cancelAt(std::chrono::steady_clock::time_point deadline)
    {
        deadlineNs_.store(std::max<std::int64_t>(1, deadline.time_since_epoch() / std::chrono::nanoseconds(1)));
    }
    // Cancel, and nobody will read the result (a closing window): skip any final evaluation.
    void abandon()
    {
        abandoned_.store(true);
        set(cancelled_, true);
    }

    // Working side.
    bool stopRequested() const
    {
        if (cancelled_.load(std::memory_order_relaxed)) return true;
        const std::int64_t deadline = deadlineNs_.load(std::memory_order_relaxed);
        return deadline != 0
               && std::chrono::steady_clock::now().time_since_epoch() / std::chrono::nanoseconds(1) >= deadline;
    }
    bool isAbandoned() const { return abandoned_.load(std::memory_order_relaxed); }
    bool isPaused() const { return paused_.load(std::memory_order_relaxed); }

    // Blocks while paused and not cancelled, without spinning. Returns !stopRequested().
    bool waitWhilePaused() const
    {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!paused_.load() || cancelled_.load()) return !cancelled_.load();
        ++parked_;
        wake_.wait(lock, [this] { return !paused_.load() || cancelled_.load(); });
        --parked_;
        return !cancelled_.load();
    }

    // Blocks until deadline, cancel, or changed() (checked under the lock whenever wake() is called:
    // the asking side changed what the worker waits for, e.g. a training's pace), without
    // spinning. Returns !stopRequested(). For paced work: a wait between two steps that a cancel or
    // a new pace ends at once.
    template <class Changed>
    bool waitUntil(std::chrono::steady_clock::time_point deadline, Changed changed) const
    {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait_until(lock, deadline, [&] { return cancelled_.load() || changed(); });
        lock.unlock();
        return !stopRequested();
    }
    bool waitUntil(std::chrono::steady_clock::time_point deadline) const
    {
        return waitUntil(deadline, [] { return false; });
    }

    // Asking side: make the change a waitUntil waits for (store the new value), then call wake().
    void wake()
    {
        // Taking the lock orders the change before a waiter's check, or the waiter is asleep and
        // this notify reaches it: no wake-up is lost.
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
    }

    // Workers blocked in waitWhilePaused right now. A paused worker that is parked runs no step
    // until resume or cancel: what a test waits for instead of sleeping through "the step in flight".
    int parkedWorkers() const { return parked_.load(); }

private:
    void set(std::atomic<bool> &flag, bool value)
    {
        {
            // Stored under the mutex: a waiter is either before its predicate check or asleep.
            std::lock_guard<std::mutex> lock(mutex_);
            flag.store(value);
        }
        wake_.notify_all();
    }

    std::atomic<bool> paused_ { false };
    std::atomic<bool> cancelled_ { false };
    std::atomic<bool> abandoned_ { false };
    mutable std::atomic<int> parked_ { 0 };
    std::atomic<std::int64_t> deadlineNs_ { 0 };  // steady_clock nanoseconds; 0 = none
    mutable std::mutex mutex_;
    mutable std::condition_variable wake_;
};

// True when control is given and asks to stop (work that may run without a controller).
inline bool stopRequested(const RunControl *control)
{
    return control && control->stopRequested();
}

} // namespace fb
