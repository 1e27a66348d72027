#pragma once
// The pace of a training a lecturer narrates: at most N steps a second (0: as fast as it goes), so
// that a run that would be over in a second can be followed. A run's Pace is shared by its asking
// side (set from the window's pace box) and its workers; a new pace takes effect at once, also in the middle
// of a wait between two steps, and a cancel ends such a wait at once too.
#include "core/run/run_control.h"

#include <atomic>
#include <chrono>

namespace fb {

class Pace {
public:
    using Clock = std::chrono::steady_clock;

    explicit Pace(double stepsPerSecond = 0.0) { set(stepsPerSecond); }

    // Asking side: store the new pace, then wake the workers' RunControls.
    void set(double stepsPerSecond) { stepsPerSecond_.store(stepsPerSecond > 0.0 ? stepsPerSecond : 0.0); }
    double get() const { return stepsPerSecond_.load(); }

    // Working side, after each step: waits out the rest of this step's 1 / pace seconds since
    // lastStep (the worker's own clock of its previous step), then sets lastStep to now.
    void afterStep(const RunControl &control, Clock::time_point &lastStep) const
    {
        for (;;) {
            const double pace = get();
            if (pace <= 0.0) break;
            const auto due = lastStep + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / pace));
            if (Clock::now() >= due || !control.waitUntil(due, [&] { return get() != pace; })) break;
        }
        lastStep = Clock::now();
    }

private:
    std::atomic<double> stepsPerSecond_ { 0.0 };
};

} // namespace fb
