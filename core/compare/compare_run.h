#pragma once
// Trains the configurations of a comparison (core/compare/compare_config.h) on the same task, seed
// and data, and reports a row per configuration for the table, the charts and `fullband compare`.
//
// Sharing the cores: with no more configurations than `threads`, they train at the same time, one
// oneTBB worker each (an arena of that many threads), a configuration getting threads / n threads of
// its own (so one configuration alone uses them all). With more configurations than threads, every
// one trains at the same time on a thread of its own and the system shares the cores between them
// by turns, so all curves grow together. The numbers do not depend on it: every training is
// deterministic whatever its thread count (core/transformer/transformer_trainer.h). ms/step of a
// configuration on one thread is its steps' CPU time on that thread (TransformerConfig::cpuClock):
// its own cost, not the time it waited for a core; trainings running together still share the
// memory bandwidth. Measured on two cores (induction defaults, 300 steps, a quiet machine): one
// training took 14.9 ms/step on one thread and 9.8 on two (1.5x); two configurations took 5.7 s side
// by side against 10.4 s one after the other on one thread.

#include "core/compare/compare_config.h"
#include "core/compare/kv_footprint.h"
#include "core/run/run_control.h"
#include "core/training/trainer.h"
#include "core/transformer/transformer_report.h"

#include <functional>
#include <string>
#include <vector>

namespace fb {

struct CompareRow {
    static constexpr double nan = TransformerResult::nan;
    std::string label;       // CompareEntry::label
    std::string overrides;
    TransformerConfig config;  // without its text
    long long params = 0;
    double flopsPerStep = 0.0;
    KvFootprint kv;          // at inference (kvFootprint)
    double msPerStep = nan;
    double heldoutLoss = nan;
    double secondHalfLoss = nan;  // induction tasks: the held-out loss on the repeat
    double accuracy = nan;   // NaN unless the task has exact answers
    std::vector<TransformerResult::RecallPoint> recallByPairs;  // mqar: accuracy by pair count
    double sinkShare = nan;
    std::vector<std::vector<double>> sinkShareByHead;  // [layer][head]
    std::vector<double> curve;                          // training loss of every step
    std::vector<TransformerResult::HeldoutPoint> heldoutCurve;
    TransformerSnapshot finalSnapshot;  // the run's last snapshot (its attention maps), without weights
    int stepsDone = 0;
    TrainStatus status = TrainStatus::Cancelled;
    std::string message;
};

// The row of entry: its sizes alone (before training: status cancelled, no step done), or with the
// figures of result.
CompareRow compareRow(const CompareEntry &entry);
CompareRow compareRow(const CompareEntry &entry, const TransformerResult &result);

// Trains every entry (see above for threads). The callbacks (may be empty) get the entry's index and
// are called on the training threads, for several entries at the same time: they must be thread-safe.
// onSnapshot is given snapshots only when present (as trainTransformer). control (may be null): cancel
// stops every training after its current step (the rows keep what was reached), abandon skips their
// final evaluations; a configuration that throws cancels the others. onDone(i): configuration i has
// returned (its thread, once). Throws std::invalid_argument for a bad configuration.
std::vector<CompareRow> trainComparison(
    const std::vector<CompareEntry> &entries, int threads,
    const std::function<void(int, const TransformerProgress &)> &onStep = {},
    const std::function<void(int, const TransformerSnapshot &)> &onSnapshot = {}, RunControl *control = nullptr,
    const std::function<void(int)> &onDone = {});

} // namespace fb
