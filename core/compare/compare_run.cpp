#include "core/compare/compare_run.h"

#include "core/transformer/transformer_trainer.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <exception>
#include <thread>

namespace fb {

CompareRow compareRow(const CompareEntry &entry)
{
    CompareRow row;
    row.label = entry.label;
    row.overrides = entry.overrides;
    row.config = entry.config;
    row.config.text.clear();
    row.params = transformerParameterCount(entry.config);
    row.flopsPerStep = transformerFlopsPerStep(entry.config);
    row.kv = kvFootprint(entry.config);
    return row;
}

CompareRow compareRow(const CompareEntry &entry, const TransformerResult &r)
{
    CompareRow row = compareRow(entry);
    row.params = r.params;
    row.flopsPerStep = r.flopsPerStep;
    row.msPerStep = r.msPerStep;
    row.heldoutLoss = r.heldoutLoss;
    row.secondHalfLoss = r.secondHalfLoss;
    row.accuracy = r.accuracy;
    row.recallByPairs = r.recallByPairs;
    row.sinkShare = r.sinkShare;
    row.sinkShareByHead = r.sinkShareByHead;
    row.curve = r.curve;
    row.heldoutCurve = r.heldoutCurve;
    row.finalSnapshot = r.finalSnapshot;
    row.finalSnapshot.weights.reset();
    row.stepsDone = r.stepsDone;
    row.status = r.status;
    row.message = r.message;
    return row;
}

std::vector<CompareRow> trainComparison(const std::vector<CompareEntry> &entries, int threads,
                                        const std::function<void(int, const TransformerProgress &)> &onStep,
                                        const std::function<void(int, const TransformerSnapshot &)> &onSnapshot,
                                        RunControl *control, const std::function<void(int)> &onDone)
{
    const int n = int(entries.size());
    std::vector<CompareRow> rows(entries.size());
    if (n == 0) return rows;
    auto trainOne = [&](int i, int each, bool cpuClock) {
        TransformerConfig config = entries[std::size_t(i)].config;
        config.threads = each;
        config.cpuClock = cpuClock;
        std::function<void(const TransformerProgress &)> step;
        if (onStep) step = [&onStep, i](const TransformerProgress &p) { onStep(i, p); };
        std::function<void(const TransformerSnapshot &)> snap;
        if (onSnapshot) snap = [&onSnapshot, i](const TransformerSnapshot &s) { onSnapshot(i, s); };
        TransformerResult r = trainTransformer(config, step, snap, control);
        rows[std::size_t(i)] = compareRow(entries[std::size_t(i)], r);
        if (onDone) onDone(i);
    };
    // Fewer configurations than cores: each gets its share of them (oneTBB). More: every one trains
    // at the same time on a thread of its own and the system shares the cores between them by turns,
    // so the curves grow together (not two at once and the rest waiting); their steps are timed by
    // their threads' CPU clocks, so ms/step is each one's own cost, not the time it waited.
    if (n > threads) {
        std::vector<std::thread> workers;
        workers.reserve(std::size_t(n));
        std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
        const auto joinAll = [&workers] {
            for (std::thread &w : workers)
                if (w.joinable()) w.join();
        };
        try {
            for (int i = 0; i < n; ++i)
                workers.emplace_back([&, i] {
                    try {
                        trainOne(i, 1, true);
                    } catch (...) {
                        errors[std::size_t(i)] = std::current_exception();
                        if (control) control->cancel();  // the others stop within a step
                    }
                });
        } catch (...) {  // a thread that could not start: the started ones stop, then the error goes on
            if (control) control->cancel();
            joinAll();
            throw;
        }
        joinAll();
        for (const std::exception_ptr &e : errors)
            if (e) std::rethrow_exception(e);
        return rows;
    }
    const int each = std::max(1, threads / n);
    if (n == 1) {
        trainOne(0, each, false);
        return rows;
    }
    tbb::task_arena arena(n);
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<int>(0, n, 1),
                          [&](const tbb::blocked_range<int> &r) {
                              for (int i = r.begin(); i < r.end(); ++i) trainOne(i, each, each == 1);
                          },
                          tbb::simple_partitioner());
    });
    return rows;
}

} // namespace fb
