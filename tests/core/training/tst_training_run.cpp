// The training lab's run (core/training/training_run.h): one thread per arm, losses taken in order
// while the arms train, pause/resume/cancel from the taking thread, and the same numbers as a direct
// training. Part of the ThreadSanitizer step. Every wait is for the condition checked next.
#include "core/training/training_run.h"

#include <QTest>

#include <chrono>
#include <functional>
#include <thread>

using namespace fb;

namespace {

TrainConfig small(Arm arm, int steps)
{
    TrainConfig c;
    c.arm = arm;
    c.steps = steps;
    c.batch = 8;
    c.seqLen = 6;
    c.dEmb = 8;
    c.dHid = 16;
    c.dFuse = 8;
    c.evalSequences = 16;
    return c;
}

// Takes from run until pred holds for what was collected (polling take(), as the window's timer does).
bool collectUntil(TrainingRun &run, std::vector<TrainingRun::ArmUpdate> &all,
                  const std::function<bool()> &pred, std::chrono::seconds timeout = std::chrono::seconds(120))
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::vector<TrainingRun::ArmUpdate> now = run.take();
        for (std::size_t i = 0; i < now.size(); ++i) {
            all[i].losses.insert(all[i].losses.end(), now[i].losses.begin(), now[i].losses.end());
            if (now[i].result) all[i].result = std::move(now[i].result);
            if (!now[i].error.empty()) all[i].error = now[i].error;
        }
        if (pred()) return true;
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

} // namespace

class TestTrainingRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bothArmsMatchDirectTraining()
    {
        const std::vector<TrainConfig> configs { small(Arm::TokenOnly, 25), small(Arm::LatentFeedback, 25) };
        TrainingRun run(configs);
        std::vector<TrainingRun::ArmUpdate> all(2);
        QVERIFY(collectUntil(run, all, [&] { return all[0].result && all[1].result; }));
        run.join();
        QVERIFY(run.allEnded());
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const TrainResult direct = train(configs[i]);
            QCOMPARE(all[i].losses, direct.curve);  // every step, in order, bit for bit
            QCOMPARE(all[i].result->heldoutLoss, direct.heldoutLoss);
            QCOMPARE(all[i].result->status, TrainStatus::Finished);
        }
    }

    void pauseHoldsEveryArmThenResumeFinishes()
    {
        TrainingRun run({ small(Arm::TokenOnly, 100000), small(Arm::LatentFeedback, 100000) });
        std::vector<TrainingRun::ArmUpdate> all(2);
        QVERIFY(collectUntil(run, all, [&] { return all[0].losses.size() > 3 && all[1].losses.size() > 3; }));
        run.setPaused(true);
        QVERIFY(run.isPaused());
        QVERIFY(collectUntil(run, all, [&] { return run.allHeld(); }));
        collectUntil(run, all, [] { return true; });  // what landed before the arms parked
        const std::size_t held0 = all[0].losses.size(), held1 = all[1].losses.size();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));  // time for steps that must not happen
        collectUntil(run, all, [] { return true; });
        QCOMPARE(all[0].losses.size(), held0);
        QCOMPARE(all[1].losses.size(), held1);
        run.setPaused(false);
        QVERIFY(collectUntil(run, all, [&] { return all[0].losses.size() > held0 && all[1].losses.size() > held1; }));
        run.cancel();
        QVERIFY(collectUntil(run, all, [&] { return all[0].result && all[1].result; }));
        for (const auto &arm : all) QCOMPARE(arm.result->status, TrainStatus::Cancelled);
    }

    void cancelWhilePausedEndsTheRun()
    {
        TrainingRun run({ small(Arm::LatentFeedback, 100000) });
        std::vector<TrainingRun::ArmUpdate> all(1);
        QVERIFY(collectUntil(run, all, [&] { return all[0].losses.size() > 2; }));
        run.setPaused(true);
        QVERIFY(collectUntil(run, all, [&] { return run.allHeld(); }));
        run.cancel();  // wakes the paused arm
        QVERIFY(collectUntil(run, all, [&] { return bool(all[0].result); }));
        QCOMPARE(all[0].result->status, TrainStatus::Cancelled);
        QVERIFY(std::isfinite(all[0].result->heldoutLoss));  // a cancel still evaluates the weights reached
    }

    void destroyingARunningRunAbandonsIt()
    {
        // The destructor abandons (stop within a step, no held-out pass) and joins; a run that waited
        // for 100,000 steps would hit CTest's timeout.
        auto run = std::make_unique<TrainingRun>(std::vector<TrainConfig> { small(Arm::TokenOnly, 100000),
                                                                            small(Arm::LatentFeedback, 100000) });
        std::vector<TrainingRun::ArmUpdate> all(2);
        QVERIFY(collectUntil(*run, all, [&] { return !all[0].losses.empty() && !all[1].losses.empty(); }));
        run.reset();
    }

    // A paced run waits between steps (here 1,000 s a step); a new pace or a cancel ends the wait at
    // once. If they did not, the run would sit out the wait and the test would time out.
    void paceChangesTakeEffectInTheMiddleOfAWait()
    {
        TrainingRun run({ small(Arm::TokenOnly, 20) }, 0.001);
        QCOMPARE(run.pace(), 0.001);
        std::vector<TrainingRun::ArmUpdate> all(1);
        QVERIFY(collectUntil(run, all, [&] { return !all[0].losses.empty(); }));
        run.setPace(0.0);  // as fast as possible: the rest of the run goes through
        QVERIFY(collectUntil(run, all, [&] { return bool(all[0].result); }));
        QCOMPARE(all[0].result->status, TrainStatus::Finished);
        QCOMPARE(all[0].losses.size(), std::size_t(20));
    }

    void cancelEndsAPacedWait()
    {
        TrainingRun run({ small(Arm::LatentFeedback, 20) }, 0.001);
        std::vector<TrainingRun::ArmUpdate> all(1);
        QVERIFY(collectUntil(run, all, [&] { return !all[0].losses.empty(); }));
        run.cancel();
        QVERIFY(collectUntil(run, all, [&] { return bool(all[0].result); }));
        QCOMPARE(all[0].result->status, TrainStatus::Cancelled);
        QVERIFY(all[0].losses.size() < 20);
    }

    void runControlWaitUntil()
    {
        RunControl control;
        // A deadline in the past returns at once, still running.
        QVERIFY(control.waitUntil(std::chrono::steady_clock::now() - std::chrono::seconds(1)));
        // A cancel from another thread ends a long wait.
        std::thread canceller([&] { control.cancel(); });
        QVERIFY(!control.waitUntil(std::chrono::steady_clock::now() + std::chrono::hours(1)));
        canceller.join();
    }

    void badConfigComesBackAsError()
    {
        TrainConfig bad = small(Arm::TokenOnly, 10);
        bad.batch = 0;
        TrainingRun run({ bad });
        std::vector<TrainingRun::ArmUpdate> all(1);
        QVERIFY(collectUntil(run, all, [&] { return !all[0].error.empty(); }));
        QVERIFY(QString::fromStdString(all[0].error).contains(QStringLiteral("batch")));
        QVERIFY(!all[0].result);
    }
};

QTEST_APPLESS_MAIN(TestTrainingRun)
#include "tst_training_run.moc"
