#pragma once
// FullBand's one background run: one piece of long work (an arm of the toy training, a transformer
// training, the depth lab's classifier) on its own thread, started by the constructor and stopped
// through one RunControl. The work publishes what it has made so far into a pending Update under
// the run's lock; the asking thread (the window's timer, a test) moves it out with take(), holding
// the lock only to swap it (the PlotJuggler pattern), so a fast worker becomes redraws at frame
// rate and the asking thread never waits for a step. The work runs at a lower priority than the
// window (nice 10), copies its inputs (the lambda owns them) and hands back values only.
//
// What a view wants done off the GUI thread for each snapshot (colouring maps into images) is part
// of the work handed in: views/ starts no thread of its own.
//
//   BackgroundRun<std::vector<double>, TrainResult> run([config](RunControl &c, auto &out) {
//       return train(config, [&](const TrainProgress &p) {
//           out.publish([&](std::vector<double> &losses) { losses.push_back(p.loss); });
//       }, &c);
//   });
//   ... on a timer: auto taken = run.take();  // taken.update, then once taken.result or taken.error
//
// Destroying a run abandons it (stop within a step, skip any final evaluation) and joins.
#include "core/run/run_control.h"

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace fb {

template <class Update, class Result>
class BackgroundRun {
public:
    // The worker's side of the run: what it has made so far goes into the pending update.
    class Outbox {
    public:
        // Calls merge(pending) under the run's lock: keep it short (append, assign a pointer).
        template <class Merge>
        void publish(Merge &&merge)
        {
            std::lock_guard<std::mutex> lock(run_.mutex_);
            merge(run_.pending_);
        }

    private:
        friend class BackgroundRun;
        explicit Outbox(BackgroundRun &run) : run_(run) {}
        BackgroundRun &run_;
    };

    // The work: called once on the run's thread; returns the result or throws (the message is
    // handed back as the error).
    using Work = std::function<Result(RunControl &, Outbox &)>;

    // What arrived since the previous take(): the merged update, and once, after the work has
    // returned, its result or its error.
    struct Taken {
        Update update {};
        std::optional<Result> result;
        std::string error;
    };

    explicit BackgroundRun(Work work)
        : work_(std::move(work))
    {
        thread_ = std::thread([this] { run(); });
    }
    ~BackgroundRun()
    {
        control_.abandon();
        join();
    }
    BackgroundRun(const BackgroundRun &) = delete;
    BackgroundRun &operator=(const BackgroundRun &) = delete;

    // Asking side; never blocks on a step of the work.
    Taken take()
    {
        Taken t;
        std::lock_guard<std::mutex> lock(mutex_);
        std::swap(t.update, pending_);
        if (!reported_ && ended_.load()) {
            t.result = std::move(result_);
            t.error = std::move(error_);
            result_.reset();
            reported_ = true;
        }
        return t;
    }
    void setPaused(bool paused)
    {
        if (paused) control_.pause();
        else control_.resume();  // wakes the work at once
    }
    void cancel() { control_.cancel(); }  // the work stops after its current step; also wakes a pause
    // True once the work has returned (its result may still be waiting in take()).
    bool ended() const { return ended_.load(); }
    // True when the work has returned or is parked in its pause: it runs no step until resumed.
    bool isHeld() const { return ended_.load() || control_.parkedWorkers() > 0; }
    // Blocks until the work has returned (tests, the command line; a window only after ended()).
    void join()
    {
        if (thread_.joinable()) thread_.join();
    }
    // For work that waits on purpose (a paced training): wake() after changing what it waits for.
    RunControl &control() { return control_; }

private:
    void run()
    {
#if defined(__linux__)
        // Below the GUI (nice 10; on Linux nice applies per thread): with two runs on a two-core
        // machine the window still gets a core the moment it has a frame to draw.
        setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
        Outbox out(*this);
        std::optional<Result> result;
        std::string error;
        try {
            result = work_(control_, out);
        } catch (const std::exception &e) {
            error = e.what();
            if (error.empty()) error = "the work failed";
        } catch (...) {
            error = "the work failed with an unknown error";
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            result_ = std::move(result);
            error_ = std::move(error);
        }
        ended_.store(true);
    }

    Work work_;
    RunControl control_;
    std::atomic<bool> ended_ { false };
    std::mutex mutex_;
    // Guarded by mutex_:
    Update pending_ {};
    std::optional<Result> result_;
    std::string error_;
    bool reported_ = false;
    std::thread thread_;  // last: started once every member above exists
};

} // namespace fb
