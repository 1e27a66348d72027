#include "core/compare/compare_run.h"

#include "core/transformer/transformer_trainer.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>

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
    row.accuracy = r.accuracy;
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
                                        RunControl *control)
{
    const int n = int(entries.size());
    std::vector<CompareRow> rows(entries.size());
    if (n == 0) return rows;
    const int together = std::clamp(threads, 1, n);
    const int each = std::max(1, threads / together);
    auto trainOne = [&](int i) {
        TransformerConfig config = entries[std::size_t(i)].config;
        config.threads = each;
        std::function<void(const TransformerProgress &)> step;
        if (onStep) step = [&onStep, i](const TransformerProgress &p) { onStep(i, p); };
        std::function<void(const TransformerSnapshot &)> snap;
        if (onSnapshot) snap = [&onSnapshot, i](const TransformerSnapshot &s) { onSnapshot(i, s); };
        TransformerResult r = trainTransformer(config, step, snap, control);
        rows[std::size_t(i)] = compareRow(entries[std::size_t(i)], r);
    };
    if (together == 1) {
        for (int i = 0; i < n; ++i) trainOne(i);
        return rows;
    }
    tbb::task_arena arena(together);
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<int>(0, n, 1),
                          [&](const tbb::blocked_range<int> &r) {
                              for (int i = r.begin(); i < r.end(); ++i) trainOne(i);
                          },
                          tbb::simple_partitioner());
    });
    return rows;
}

} // namespace fb
