#pragma once
// One comparison of the transformer lab (issue 29): core's trainComparison (core/compare) on a copy
// of the configurations, as core's one background run (core/run/background_run.h). The work
// publishes every configuration's new training losses and held-out points (its snapshots are taken
// at the held-out evaluations); the panel's timer takes them out without waiting for a step. This
// file hands that work in and starts no thread. Destroying a job abandons it and joins.
#include "core/compare/compare_run.h"
#include "core/run/background_run.h"
#include "views/training/transformer_run.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fb {

class CompareJob {
public:
    struct Update {
        std::vector<std::vector<double>> losses;  // [configuration] new training losses, in step order
        std::vector<std::vector<TransformerResult::HeldoutPoint>> heldout;  // [configuration] new points
        std::optional<std::vector<CompareRow>> rows;  // once, after the run ended
        // with rows: each configuration's attention maps at its end (made on the worker; null: none)
        std::vector<std::shared_ptr<const TransformerFrame>> maps;
        std::string error;                            // once, if it threw
    };

    // threads: cores shared by the configurations (trainComparison).
    CompareJob(std::vector<CompareEntry> entries, int threads);
    ~CompareJob();
    CompareJob(const CompareJob &) = delete;
    CompareJob &operator=(const CompareJob &) = delete;

    Update take();  // GUI thread; holds the lock only to swap buffers
    void cancel() { run_->cancel(); }
    void setPaused(bool paused) { run_->setPaused(paused); }
    // Every configuration still training is parked in its pause (or all have returned).
    bool held() const
    {
        const int active = *running_;
        return run_->ended() || active == 0 || run_->control().parkedWorkers() >= active;
    }
    bool ended() const { return run_->ended(); }
    void join() { run_->join(); }
    int configurations() const { return configurations_; }

private:
    struct Pending {
        std::vector<std::vector<double>> losses;
        std::vector<std::vector<TransformerResult::HeldoutPoint>> heldout;
    };
    struct Finished {
        std::vector<CompareRow> rows;
        std::vector<std::shared_ptr<const TransformerFrame>> maps;
    };
    using Run = BackgroundRun<Pending, Finished>;
    int configurations_ = 0;
    std::shared_ptr<std::atomic<int>> running_;  // configurations not yet returned
    std::unique_ptr<Run> run_;
};

} // namespace fb
