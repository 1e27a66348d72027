// The latest-wins worker: coalescing, ordering, idle waits and clean shutdown.
#include "core/run/latest_wins_runner.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace fb;

class TestLatestWinsRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsASingleJob()
    {
        LatestWinsRunner runner;
        std::atomic<int> ran { 0 };
        const auto g = runner.submit([&](std::uint64_t, const RunControl &) { ran = 1; });
        runner.waitIdle();
        QCOMPARE(ran.load(), 1);
        QCOMPARE(g, std::uint64_t(1));
        QCOMPARE(runner.latestGeneration(), std::uint64_t(1));
    }

    void coalescesWhileBusy()
    {
        // A slow first job holds the worker; 100 submissions meanwhile leave only the last pending.
        LatestWinsRunner runner;
        std::mutex gate;
        gate.lock();
        std::vector<std::uint64_t> seen;
        std::mutex seenMutex;
        std::atomic<bool> started { false };
        runner.submit([&](std::uint64_t g, const RunControl &) {
            started = true;
            std::lock_guard wait(gate);
            std::lock_guard l(seenMutex);
            seen.push_back(g);
        });
        while (!started.load()) std::this_thread::yield();  // job 1 now holds the worker
        for (int i = 0; i < 100; ++i)
            runner.submit([&](std::uint64_t g, const RunControl &) {
                std::lock_guard l(seenMutex);
                seen.push_back(g);
            });
        gate.unlock();
        runner.waitIdle();
        QCOMPARE(seen.size(), std::size_t(2));      // job 1, then only the newest
        QCOMPARE(seen.front(), std::uint64_t(1));
        QCOMPARE(seen.back(), std::uint64_t(101));
        QCOMPARE(runner.jobsRun(), std::uint64_t(2));
    }

    void generationsIncrease()
    {
        LatestWinsRunner runner;
        std::uint64_t last = 0;
        for (int i = 0; i < 20; ++i) {
            const auto g = runner.submit([](std::uint64_t, const RunControl &) {});
            QVERIFY(g > last);
            last = g;
        }
        runner.waitIdle();
        QCOMPARE(runner.latestGeneration(), last);
    }

    void destructorWaitsForRunningJobAndDropsPending()
    {
        std::atomic<bool> started { false }, finished { false };
        std::atomic<int> pendingRan { 0 };
        {
            LatestWinsRunner runner;
            runner.submit([&](std::uint64_t, const RunControl &) {
                started = true;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a job's work
                finished = true;
            });
            while (!started.load()) std::this_thread::yield();
            runner.submit([&](std::uint64_t, const RunControl &) { ++pendingRan; });
        }
        QVERIFY(finished.load());
        QVERIFY(pendingRan.load() <= 1);  // dropped unless the worker had already taken it
    }

    // A job made stale by a newer one is cancelled after the grace period and the newer one runs;
    // without the cancel the first job below would spin forever.
    void staleJobIsCancelled()
    {
        LatestWinsRunner runner(std::chrono::milliseconds(20));
        std::atomic<bool> started { false }, sawStop { false };
        std::atomic<std::uint64_t> second { 0 };
        runner.submit([&](std::uint64_t, const RunControl &stop) {
            started = true;
            while (!stop.stopRequested()) std::this_thread::yield();
            sawStop = true;
        });
        while (!started.load()) std::this_thread::yield();
        runner.submit([&](std::uint64_t g, const RunControl &stop) {
            if (!stop.stopRequested()) second = g;
        });
        runner.waitIdle();
        QVERIFY(sawStop.load());
        QCOMPARE(second.load(), std::uint64_t(2));
        QCOMPARE(runner.jobsRun(), std::uint64_t(2));
        QCOMPARE(runner.jobsCancelled(), std::uint64_t(1));
    }

    // A job that is not stale is never cancelled, however long it runs.
    void latestJobIsNotCancelled()
    {
        LatestWinsRunner runner(std::chrono::milliseconds(0));
        std::atomic<bool> stopped { true };
        runner.submit([&](std::uint64_t, const RunControl &stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));  // a job's work
            stopped = stop.stopRequested();
        });
        runner.waitIdle();
        QVERIFY(!stopped.load());
        QCOMPARE(runner.jobsCancelled(), std::uint64_t(0));
    }

    // The destructor cancels the running job instead of waiting for it to end on its own.
    void destructorCancelsTheRunningJob()
    {
        std::atomic<bool> started { false }, sawStop { false };
        {
            LatestWinsRunner runner;
            runner.submit([&](std::uint64_t, const RunControl &stop) {
                started = true;
                while (!stop.stopRequested()) std::this_thread::yield();
                sawStop = true;
            });
            while (!started.load()) std::this_thread::yield();
        }
        QVERIFY(sawStop.load());
    }

    void manyThreadsSubmit()
    {
        LatestWinsRunner runner;
        std::atomic<int> ran { 0 };
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 200; ++i) runner.submit([&](std::uint64_t, const RunControl &) { ++ran; });
            });
        for (auto &t : threads) t.join();
        runner.waitIdle();
        QVERIFY(ran.load() >= 1);
        QCOMPARE(runner.latestGeneration(), std::uint64_t(800));
    }
};

QTEST_APPLESS_MAIN(TestLatestWinsRunner)
#include "tst_latest_wins_runner.moc"
