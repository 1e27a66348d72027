#include "views/compare/compare_job.h"

#include <atomic>
#include <memory>

namespace fb {

CompareJob::CompareJob(std::vector<CompareEntry> entries, int threads)
    : configurations_(int(entries.size()))
{
    for (CompareEntry &e : entries) {
        // A snapshot at every held-out evaluation, none by time: the chart gets every held-out point.
        e.config.probeEvery = e.config.evalEvery;
        e.config.probeSeconds = 0.0;
        e.config.snapshotWeights = false;
    }
    const int n = configurations_;
    running_ = std::make_shared<std::atomic<int>>(n);
    run_ = std::make_unique<Run>([entries = std::move(entries), threads, n, running = running_](RunControl &control,
                                                                                               Run::Outbox &out) {
        // The last held-out step handed on per configuration (a snapshot repeats it until the next one).
        auto last = std::make_shared<std::vector<std::atomic<int>>>(std::size_t(n));
        for (auto &s : *last) s.store(-1);
        auto sized = [n](Pending &u) {
            if (int(u.losses.size()) < n) u.losses.resize(std::size_t(n));
            if (int(u.heldout.size()) < n) u.heldout.resize(std::size_t(n));
        };
        Finished finished;
        finished.rows = trainComparison(
            entries, threads,
            [&](int i, const TransformerProgress &p) {
                out.publish([&](Pending &u) {
                    sized(u);
                    u.losses[std::size_t(i)].push_back(p.loss);
                });
            },
            [&](int i, const TransformerSnapshot &s) {
                if (s.heldoutStep < 0 || (*last)[std::size_t(i)].exchange(s.heldoutStep) == s.heldoutStep) return;
                TransformerResult::HeldoutPoint point;
                point.step = s.heldoutStep;
                point.loss = s.heldoutLoss;
                point.secondHalfLoss = s.secondHalfLoss;
                point.accuracy = s.accuracy;
                out.publish([&](Pending &u) {
                    sized(u);
                    u.heldout[std::size_t(i)].push_back(point);
                });
            },
            &control, [&running](int) { --*running; });
        for (const CompareRow &row : finished.rows)
            finished.maps.push_back(row.finalSnapshot.attention.empty()
                                        ? nullptr
                                        : TransformerRun::makeFrame(row.finalSnapshot, row.config.task));
        return finished;
    });
}

CompareJob::~CompareJob() = default;  // the run abandons and joins

CompareJob::Update CompareJob::take()
{
    Run::Taken t = run_->take();
    Update u;
    u.losses = std::move(t.update.losses);
    u.heldout = std::move(t.update.heldout);
    u.losses.resize(std::size_t(configurations_));
    u.heldout.resize(std::size_t(configurations_));
    if (t.result) {
        u.rows = std::move(t.result->rows);
        u.maps = std::move(t.result->maps);
    }
    u.error = std::move(t.error);
    return u;
}

} // namespace fb
