// Core's one background run (core/run/background_run.h): what the work publishes arrives in take()
// in order and once, its result or its error arrives once after it has returned, pause parks it,
// cancel and destruction stop it within a step. The tests wait for the state they assert, never
// for a time (CTest label "timing": CI runs them with both cores busy, and under ThreadSanitizer).
#include "core/run/background_run.h"
#include "core/run/pace.h"

#include <QTest>
#include <QThread>

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace fb;

namespace {

using Run = BackgroundRun<std::vector<int>, int>;

// Takes until the run has handed back its result or error; every update appended to seen.
Run::Taken drain(Run &run, std::vector<int> &seen)
{
    for (;;) {
        Run::Taken t = run.take();
        seen.insert(seen.end(), t.update.begin(), t.update.end());
        if (t.result || !t.error.empty()) return t;
        QThread::yieldCurrentThread();
    }
}

} // namespace

class TestBackgroundRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyUpdateOnceThenTheResultOnce()
    {
        Run run([](RunControl &, Run::Outbox &out) {
            for (int i = 0; i < 1000; ++i) out.publish([&](std::vector<int> &u) { u.push_back(i); });
            return 42;
        });
        std::vector<int> seen;
        const Run::Taken t = drain(run, seen);
        QCOMPARE(*t.result, 42);
        QVERIFY(t.error.empty());
        QCOMPARE(int(seen.size()), 1000);
        for (int i = 0; i < 1000; ++i) QCOMPARE(seen[std::size_t(i)], i);
        QVERIFY(run.ended());
        const Run::Taken again = run.take();  // nothing twice
        QVERIFY(!again.result);
        QVERIFY(again.update.empty());
    }

    void anExceptionBecomesTheError()
    {
        Run run([](RunControl &, Run::Outbox &) -> int { throw std::invalid_argument("steps must be at least 1"); });
        std::vector<int> seen;
        const Run::Taken t = drain(run, seen);
        QVERIFY(!t.result);
        QCOMPARE(t.error, std::string("steps must be at least 1"));
    }

    void pauseParksTheWorkAndResumeGoesOn()
    {
        std::atomic<int> steps { 0 };
        Run run([&steps](RunControl &c, Run::Outbox &) {
            while (!c.stopRequested()) {
                if (!c.waitWhilePaused()) break;
                ++steps;
            }
            return steps.load();
        });
        QTRY_VERIFY(steps.load() > 0);
        run.setPaused(true);
        QTRY_VERIFY(run.isHeld());  // parked: no step runs until resume
        const int parkedAt = steps.load();
        QVERIFY(!run.ended());
        QCOMPARE(steps.load(), parkedAt);
        run.setPaused(false);
        QTRY_VERIFY(steps.load() > parkedAt);
        run.cancel();
        std::vector<int> seen;
        QVERIFY(drain(run, seen).result.has_value());  // a cancelled work still hands back its result
    }

    void destroyingAbandonsAndJoins()
    {
        std::atomic<bool> abandoned { false };
        {
            Run run([&abandoned](RunControl &c, Run::Outbox &) {
                while (!c.stopRequested()) QThread::yieldCurrentThread();
                abandoned = c.isAbandoned();
                return 0;
            });
        }  // the destructor returns only once the work has returned
        QVERIFY(abandoned.load());
    }

    void aPacedWorkTakesANewPaceAtOnce()
    {
        Pace pace(0.001);  // one step in 1000 s: the work would wait for ever
        std::atomic<int> steps { 0 };
        Run run([&](RunControl &c, Run::Outbox &) {
            Pace::Clock::time_point last = Pace::Clock::now();
            while (!c.stopRequested() && steps.load() < 5) {
                ++steps;
                pace.afterStep(c, last);
            }
            return steps.load();
        });
        QTRY_COMPARE(steps.load(), 1);  // the first step, then the long wait
        pace.set(0.0);                  // full speed, and the wait ends at once
        run.control().wake();
        std::vector<int> seen;
        QCOMPARE(*drain(run, seen).result, 5);
    }
};

QTEST_GUILESS_MAIN(TestBackgroundRun)
#include "tst_background_run.moc"
