// The core's threads under contention: the trainer paused, resumed and cancelled from another
// thread, the latest-wins runner fed from several threads at once, and the oneTBB computations
// (decay bound, multi-head attention) run from several threads at the same time. In the normal
// suite these check the results; built with FULLBAND_SANITIZE=thread they give ThreadSanitizer
// every shared access to look at. Every parallel computation also matches a one-thread run of it:
// a race between the chunks of one loop would show as a difference.
#include "core/attention/attention.h"
#include "core/channel/bayes_floor.h"
#include "core/rope/decay_bound.h"
#include "core/run/latest_wins_runner.h"
#include "core/rope/rope_invariance.h"
#include "core/training/trainer.h"

#include <QTest>

#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

using namespace fb;
using namespace std::chrono_literals;

namespace {

// Waits until pred holds (polling), at most timeout. Returns pred().
bool waitFor(const std::function<bool()> &pred, std::chrono::milliseconds timeout = 120s)
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!pred() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(2ms);
    return pred();
}

// A small, fast training that would run for a long time unless stopped.
TrainConfig longSmallRun(Arm arm)
{
    TrainConfig c;
    c.arm = arm;
    c.steps = 100000;
    c.batch = 8;
    c.seqLen = 6;
    c.dEmb = 8;
    c.dHid = 16;
    c.dFuse = 8;
    c.evalSequences = 16;
    return c;
}

// Cancels a training and joins its thread when a check fails half-way (a joinable std::thread
// must not be destroyed).
struct StopOnExit {
    RunControl &control;
    std::thread &thread;
    ~StopOnExit()
    {
        control.cancel();
        if (thread.joinable()) thread.join();
    }
};

// Runs f inside an arena of one thread: oneTBB's loops then run serially on the caller.
template <typename F>
auto oneThread(F f)
{
    tbb::task_arena arena(1);
    return arena.execute(f);
}

// Runs f on n threads at once (they start together) and joins them.
void onThreads(int n, const std::function<void(int)> &f)
{
    std::atomic<int> ready { 0 };
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
            ++ready;
            while (ready.load() < n) std::this_thread::yield();
            f(i);
        });
    for (auto &t : threads) t.join();
}

} // namespace

class TestConcurrency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trainerPausesResumesAndCancelsFromAnotherThread()
    {
        RunControl control;
        std::atomic<int> steps { 0 };
        TrainResult result;
        std::thread trainer([&] {
            result = train(longSmallRun(Arm::LatentFeedback),
                           [&](const TrainProgress &p) { steps.store(p.step); }, &control);
        });
        StopOnExit stop { control, trainer };

        QVERIFY(waitFor([&] { return steps.load() >= 5; }));
        // Pause from a third thread, as a GUI's worker might.
        std::thread([&] { control.pause(); }).join();
        // The step in flight finishes and the training parks; after that no step runs while paused.
        QVERIFY(waitFor([&] { return control.parkedWorkers() == 1; }));
        const int pausedAt = steps.load();
        std::this_thread::sleep_for(200ms);  // time for a step that should not happen
        QCOMPARE(steps.load(), pausedAt);

        control.resume();
        QVERIFY(waitFor([&] { return steps.load() >= pausedAt + 5; }));
        // Pausing and resuming in quick succession from two threads never wedges the run.
        onThreads(2, [&](int i) {
            for (int k = 0; k < 50; ++k) {
                if ((k + i) % 2) control.pause();
                else control.resume();
            }
        });
        control.resume();
        const int before = steps.load();
        QVERIFY(waitFor([&] { return steps.load() > before; }));

        // Cancel while paused: the run stops at once instead of waiting for a resume.
        control.pause();
        QVERIFY(waitFor([&] { return control.parkedWorkers() == 1; }));
        control.cancel();
        trainer.join();
        QCOMPARE(result.status, TrainStatus::Cancelled);
        QCOMPARE(int(result.curve.size()), steps.load());
        for (double loss : result.curve) QVERIFY(std::isfinite(loss));
        QVERIFY(std::isfinite(result.heldoutLoss));
    }

    void bothArmsStopTogetherOnOneCancel()
    {
        // trainAll runs the arms as oneTBB tasks sharing one control (side by side when the pool
        // has two threads, one after the other when it has one, as under ThreadSanitizer).
        RunControl control;
        std::atomic<int> stepsA { 0 }, stepsB { 0 };
        std::vector<TrainResult> results;
        std::thread trainer([&] {
            results = trainAll({ longSmallRun(Arm::TokenOnly), longSmallRun(Arm::LatentFeedback) },
                               [&](std::size_t i, const TrainProgress &p) { (i == 0 ? stepsA : stepsB).store(p.step); },
                               &control);
        });
        StopOnExit stop { control, trainer };
        QVERIFY(waitFor([&] { return stepsA.load() + stepsB.load() >= 6; }));
        std::thread([&] { control.cancel(); }).join();
        trainer.join();
        QCOMPARE(int(results.size()), 2);
        for (const TrainResult &r : results) {
            QCOMPARE(r.status, TrainStatus::Cancelled);
            QVERIFY(r.curve.size() < 100000);
        }
    }

    void latestWinsRunnerFedFromManyThreads()
    {
        LatestWinsRunner runner;
        std::mutex mutex;
        std::vector<std::uint64_t> ran;  // generations in the order they ran
        std::atomic<std::uint64_t> maxSubmitted { 0 };
        onThreads(4, [&](int) {
            for (int k = 0; k < 200; ++k) {
                // Each job owns a copy of some data, as the labs' computations do.
                std::vector<double> payload(64, double(k));
                const std::uint64_t g = runner.submit([payload, &mutex, &ran](std::uint64_t generation, const RunControl &) {
                    double sum = 0;
                    for (double v : payload) sum += v;
                    (void)sum;
                    std::lock_guard lock(mutex);
                    ran.push_back(generation);
                });
                std::uint64_t seen = maxSubmitted.load();
                while (g > seen && !maxSubmitted.compare_exchange_weak(seen, g)) {}
                (void)runner.latestGeneration();
                if (k % 50 == 0) runner.waitIdle();
            }
        });
        runner.waitIdle();
        QCOMPARE(runner.latestGeneration(), std::uint64_t(800));
        QCOMPARE(maxSubmitted.load(), std::uint64_t(800));
        std::lock_guard lock(mutex);
        QVERIFY(!ran.empty());
        QCOMPARE(ran.back(), std::uint64_t(800));  // the latest job always runs
        for (std::size_t i = 1; i < ran.size(); ++i) QVERIFY(ran[i] > ran[i - 1]);  // never an older one after a newer
        QCOMPARE(runner.jobsRun(), std::uint64_t(ran.size()));
    }

    void latestWinsRunnerDestroyedWhileBusy()
    {
        // Destroying a runner with a job running and one pending, right after other threads
        // submitted, drops the pending job and joins cleanly.
        for (int round = 0; round < 20; ++round) {
            std::atomic<int> ran { 0 };
            std::atomic<bool> started { false };
            {
                LatestWinsRunner runner;
                runner.submit([&](std::uint64_t, const RunControl &) {
                    started = true;
                    std::this_thread::sleep_for(2ms);
                    ++ran;
                });
                QVERIFY(waitFor([&] { return started.load(); }));
                onThreads(3, [&](int) {
                    for (int k = 0; k < 20; ++k)
                        runner.submit([&ran](std::uint64_t, const RunControl &) {
                            std::this_thread::sleep_for(100us);
                            ++ran;
                        });
                });
            }
            QVERIFY(ran.load() >= 1);
            QVERIFY(ran.load() <= 61);
        }
    }

    void parallelEqualsOneThread()
    {
        // The same computation split over the pool and run on one thread gives the same numbers.
        DecayBoundParams db;
        db.d = 512;
        db.maxDistance = 20000;
        const DecayBoundResult dbPar = decayBound(db);
        const DecayBoundResult dbOne = oneThread([&] { return decayBound(db); });
        QCOMPARE(dbPar.bound.size(), dbOne.bound.size());
        for (std::size_t k = 0; k < dbPar.bound.size(); ++k)
            QVERIFY2(std::abs(dbPar.bound[k] - dbOne.bound[k]) <= 1e-12 * std::max(1.0, std::abs(dbOne.bound[k])),
                     qPrintable(QStringLiteral("decay bound at distance %1").arg(k + 1)));

        AttentionParams at;
        at.n = 96;
        at.dModel = 256;
        at.heads = 8;
        at.positional = PositionalScheme::Rope;
        const AttentionResult atPar = multiHeadAttention(at);
        const AttentionResult atOne = oneThread([&] { return multiHeadAttention(at); });
        QCOMPARE(atPar.weights.size(), atOne.weights.size());
        for (std::size_t h = 0; h < atPar.weights.size(); ++h)
            QVERIFY((atPar.weights[h] - atOne.weights[h]).cwiseAbs().maxCoeff() <= 1e-12);
        QCOMPARE(atPar.entropy.size(), atOne.entropy.size());
        for (std::size_t h = 0; h < atPar.entropy.size(); ++h) QVERIFY(std::abs(atPar.entropy[h] - atOne.entropy[h]) <= 1e-12);

        RopeInvarianceParams ri;
        ri.positions = 4096;
        const RopeInvarianceResult riPar = ropeInvariance(ri);
        const RopeInvarianceResult riOne = oneThread([&] { return ropeInvariance(ri); });
        QCOMPARE(riPar.ropeLogits.size(), riOne.ropeLogits.size());
        for (std::size_t k = 0; k < riPar.ropeLogits.size(); ++k) {
            QVERIFY(std::abs(riPar.ropeLogits[k] - riOne.ropeLogits[k]) <= 1e-9);
            QVERIFY(std::abs(riPar.sinusoidalLogits[k] - riOne.sinusoidalLogits[k]) <= 1e-9);
        }

        // Monte Carlo: each chunk draws from its own stream, so the estimate must not depend on
        // how the chunks are spread over threads.
        BayesFloorParams bf;
        const BayesFloorResult bfPar = bayesFloor(bf);
        const BayesFloorResult bfOne = oneThread([&] { return bayesFloor(bf); });
        QCOMPARE(bfPar.analytic, bfOne.analytic);
        QVERIFY2(std::abs(bfPar.monteCarlo - bfOne.monteCarlo) <= 1e-12 * std::max(1.0, std::abs(bfOne.monteCarlo)),
                 qPrintable(QStringLiteral("%1 vs %2").arg(bfPar.monteCarlo, 0, 'g', 17).arg(bfOne.monteCarlo, 0, 'g', 17)));
    }

    void decayBoundFromSeveralThreads()
    {
        // d = 1024 over 65,536 distances: oneTBB splits each call; three callers share its pool.
        DecayBoundParams p;
        p.d = 1024;
        p.maxDistance = 65536;
        const DecayBoundResult reference = decayBound(p);
        QCOMPARE(int(reference.bound.size()), 65536);
        std::vector<DecayBoundResult> results(3);
        onThreads(3, [&](int i) { results[std::size_t(i)] = decayBound(p); });
        for (const DecayBoundResult &r : results) {
            QCOMPARE(r.distance, reference.distance);
            QCOMPARE(r.bound.size(), reference.bound.size());
            for (std::size_t k = 0; k < r.bound.size(); ++k)
                QVERIFY2(std::isfinite(r.bound[k]) && std::abs(r.bound[k] - reference.bound[k]) <= 1e-12 * std::max(1.0, std::abs(reference.bound[k])),
                         qPrintable(QStringLiteral("distance %1").arg(k + 1)));
        }
    }

    void multiHeadAttentionFromSeveralThreads()
    {
        // Eight heads in parallel per call (oneTBB), three calls at once, with different settings.
        AttentionParams p;
        p.n = 48;
        p.dModel = 256;
        p.heads = 8;
        p.positional = PositionalScheme::Rope;
        p.causal = true;
        const AttentionResult reference = multiHeadAttention(p);
        QCOMPARE(int(reference.weights.size()), 8);
        std::vector<AttentionResult> results(3);
        onThreads(3, [&](int i) {
            AttentionParams q = p;
            if (i == 1) q.positional = PositionalScheme::Sinusoidal;  // a different job in the same pool
            results[std::size_t(i)] = multiHeadAttention(q);
        });
        for (int i : { 0, 2 }) {
            const AttentionResult &r = results[std::size_t(i)];
            QCOMPARE(r.weights.size(), reference.weights.size());
            for (std::size_t h = 0; h < r.weights.size(); ++h) {
                QVERIFY(r.weights[h].allFinite());
                QVERIFY((r.weights[h] - reference.weights[h]).cwiseAbs().maxCoeff() <= 1e-12);
            }
        }
        for (const auto &w : results[1].weights) {
            QVERIFY(w.allFinite());
            QVERIFY((w.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-9);
        }
    }
};

QTEST_APPLESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
