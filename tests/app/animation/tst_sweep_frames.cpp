// A sweep's frames: the decay bound proposes the chapter's base sweep (100 to 10^6, log); every
// frame of a sweep has the axes the whole sweep needs (the bound's y axis would otherwise rescale
// from about 1.5 to 400), unless asked to follow each frame; the caption strip keeps the lab's
// figures whole, on a second line when one is too short.
#include "app/animation/animation.h"
#include "app/animation/animation_dialog.h"
#include "app/animation/animation_run.h"
#include "app/animation/sweep_axes.h"
#include "app/scene/sweep.h"
#include "core/labs/decay_bound_lab.h"
#include "views/labs/decay_bound_view.h"
#include "views/widgets/axis_hold.h"
#include "views/widgets/chart_panel.h"
#include "support/test_settings.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace fb;

namespace {

// The head width d from 2 to 1024: the bound grows with d, and its axis with it (1.5 to about 400).
AnimationJob widthSweep(bool fixedAxes)
{
    AnimationJob job;
    job.fixedAxes = fixedAxes;
    job.sweep.frames = 12;
    const QString err = parseSweep(DecayBoundLab::spec(), QStringLiteral("d=2:1024"), job.sweep);
    if (!err.isEmpty()) qFatal("%s", qPrintable(err));
    return job;
}

// The y range of the decay chart after each frame of job.
QList<QPair<double, double>> yRanges(DecayBoundView &lab, const AnimationJob &job)
{
    QList<QPair<double, double>> ranges;
    SweepAxes axes(lab, job);
    axes.recordAll();
    for (int i = 0; i < job.sweep.frames; ++i) {
        animationFrame(lab, job, i);
        const auto *y = qobject_cast<QValueAxis *>(lab.decayChart()->axisY());
        ranges << qMakePair(y->min(), y->max());
    }
    return ranges;
}

} // namespace

class TestSweepFrames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { fb::test::useFreshTestSettings(QStringLiteral("FullBandSweepFramesTest")); }

    void decayBoundProposesTheBaseSweep()
    {
        DecayBoundView lab;
        AnimationDialog dialog(&lab);
        Sweep proposed, expected;
        QCOMPARE(parseSweep(DecayBoundLab::spec(), dialog.sweepText(), proposed), QString());
        QCOMPARE(parseSweep(DecayBoundLab::spec(), QString::fromStdString(DecayBoundLab::spec().sweep), expected), QString());
        QCOMPARE(proposed.key, std::string("base"));
        QCOMPARE(proposed.from, 100.0);
        QCOMPARE(proposed.to, 1e6);
        QVERIFY(proposed.log);
    }

    void framesShareTheWholeSweepsAxes()
    {
        DecayBoundView lab;
        lab.resize(1600, 1000);
        lab.waitForResult();
        const QList<QPair<double, double>> fixed = yRanges(lab, widthSweep(true));
        for (const auto &r : fixed) QCOMPARE(r, fixed.front());
        // Held to the largest frame's range: every frame's curve fits under it.
        QVERIFY2(fixed.front().second > 100.0, qPrintable(QString::number(fixed.front().second)));
        // Released afterwards: the lab follows its data again, and so does a sweep asked to.
        const QList<QPair<double, double>> free = yRanges(lab, widthSweep(false));
        QVERIFY2(free.front().second < free.back().second / 10.0,
                 qPrintable(QStringLiteral("%1 .. %2").arg(free.front().second).arg(free.back().second)));
        QCOMPARE(free.back(), fixed.back());
    }

    // In the window the shared axes are recorded one frame per turn of the event loop, as the
    // frames are rendered: start() returns at once, and the export ends with every frame written.
    void windowRunRecordsTheAxesWithoutBlocking()
    {
        QTemporaryDir dir;
        AnimationJob job = widthSweep(true);
        job.size = QSize(320, 200);
        job.out = dir.filePath(QStringLiteral("sweep.gif"));
        AnimationRun runner(QStringLiteral("decay-bound"), DecayBoundLab::spec().defaults(), job);
        QSignalSpy finished(&runner, &AnimationRun::finished);
        runner.start();
        QCOMPARE(finished.size(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().first().toString(), QString());
        QVERIFY(QFileInfo(job.out).size() > 0);
    }

    // The figures beside the swept value when they fit (a short caption), else on a second line
    // where the decay bound's whole caption fits at 1600 and at 1024 px (the old strip cut it to
    // "trained_len…").
    void captionKeepsTheFiguresWhole()
    {
        DecayBoundView lab;
        lab.waitForResult();
        const QString lead = QStringLiteral("RoPE base b = 1e+06");
        const CaptionStrip shortOne = captionStrip(lead, QStringLiteral("d = 64"), QSize(1600, 1000));
        QCOMPARE(shortOne.height, shortOne.lineHeight);
        QCOMPARE(shortOne.rest.top(), 0);
        for (const QSize size : { QSize(1600, 1000), QSize(1024, 768) }) {
            const CaptionStrip strip = captionStrip(lead, lab.caption(), size);
            QCOMPARE(strip.restText, lab.caption());
            QVERIFY(QFontMetricsF(strip.restFont).horizontalAdvance(strip.restText) <= strip.rest.width());
            QVERIFY(strip.rest.bottom() < strip.height);
            QVERIFY(strip.height <= 2 * strip.lineHeight);
        }
        // A frame has the size asked for, the strip under the chart.
        AnimationJob job = widthSweep(true);
        job.size = QSize(1024, 768);
        QCOMPARE(animationFrame(lab, job, 0).size(), QSize(1024, 768));
    }
};

QTEST_MAIN(TestSweepFrames)
#include "tst_sweep_frames.moc"
