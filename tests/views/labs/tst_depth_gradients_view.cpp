// The depth lab's view: every chart gets its curves (nothing a log axis cannot show), the focus
// parameter rearranges the charts, a slider of one study does not recompute the other, refused
// input changes nothing, the classifier trains off the GUI thread and is cancelled when the lab
// closes, and an exported chart is not blank.
#include "core/labs/depth_gradients_spec.h"
#include "views/widgets/chart_panel.h"
#include "views/labs/classifier_runner.h"
#include "views/labs/depth_gradients_view.h"
#include "views/widgets/readout_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QLineSeries>
#include <QTest>

#include <memory>

using namespace fb;

namespace {
ParamValues with(ParamValues v, const std::string &key, const std::string &value)
{
    if (!setFromText(depthLabSpec(), v, key, value).empty()) qFatal("bad test value %s=%s", key.c_str(), value.c_str());
    return v;
}

// A view whose classifier trains 10 steps, not the default 200: the tests that do not look at the
// trained classifier need not wait for it (the default training started by the constructor is
// retired within a step).
void quickClassifier(DepthGradientsView &view)
{
    if (!view.setValues(with(view.values(), "steps", "10")).isEmpty()) qFatal("steps=10 refused");
}

bool allPositive(const QLineSeries *s)
{
    for (const QPointF &p : s->points())
        if (!(p.y() > 0.0) || !std::isfinite(p.y())) return false;
    return true;
}
} // namespace

class TestDepthGradientsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void drawsEveryStudy()
    {
        DepthGradientsView view;
        view.resize(1600, 1000);
        view.show();
        view.waitForResult();
        QCOMPARE(view.plainSeries()->count(), 101);
        QCOMPARE(view.residualSeries()->count(), 101);
        QVERIFY(allPositive(view.plainSeries()) && allPositive(view.residualSeries()));
        // relative to the output layer: 1 at the top, the plain stack far below at the bottom
        QCOMPARE(view.plainSeries()->at(100).y(), 1.0);
        QVERIFY(view.plainSeries()->at(0).y() < 1e-15);
        QVERIFY(view.residualSeries()->at(0).y() > 1.0);
        QCOMPARE(view.rnnSeries()->count(), 101);
        QVERIFY(allPositive(view.rnnSeries()) && allPositive(view.lstmCellSeries()));
        // held-out accuracy every 5 steps of 200, step 0 included
        QCOMPARE(view.lstmHeldoutSeries()->count(), 41);
        QCOMPARE(view.meanHeldoutSeries()->count(), 41);
        QCOMPARE(view.exportables().size(), 4);  // depth, time, classifier, the residual block cell
        QVERIFY(view.readouts()->value(QStringLiteral("plainratio")).contains(QStringLiteral("e-")));
        QVERIFY(view.readouts()->value(QStringLiteral("lstmacc")).startsWith(QStringLiteral("1.00 / ")));
    }

    void focusRearrangesCharts()
    {
        DepthGradientsView view;
        quickClassifier(view);
        view.resize(1600, 1000);
        view.show();
        view.waitForResult();
        QCOMPARE(view.focusedChart(), 0);
        QVERIFY(view.setValues(with(view.values(), "study", "time")).isEmpty());
        view.waitForResult();
        QCOMPARE(view.focusedChart(), 1);
        QApplication::processEvents();
        QVERIFY(view.timeChart()->width() > 1.5 * view.depthChart()->width());
        QVERIFY(view.timeChart()->title().contains(QStringLiteral("T = 100")));
        QVERIFY(view.setValues(with(view.values(), "study", "classifier")).isEmpty());
        QCOMPARE(view.focusedChart(), 2);
        QApplication::processEvents();
        QVERIFY(view.classifierChart()->width() > 1.5 * view.timeChart()->width());
        // Two small charts below the large one, never three (their legends need the width); the
        // residual block cell is shown only in focus.
        QVERIFY(view.blockChart()->isHidden());
        QVERIFY(view.setValues(with(view.values(), "study", "block")).isEmpty());
        QCOMPARE(view.focusedChart(), 3);
        QApplication::processEvents();
        QVERIFY(!view.blockChart()->isHidden() && !view.depthChart()->isHidden() && !view.timeChart()->isHidden());
        QVERIFY(view.classifierChart()->isHidden());
        QVERIFY(view.blockChart()->width() > 1.5 * view.depthChart()->width());
        QVERIFY(view.depthChart()->width() > 500);
        QVERIFY(view.blockChart()->title().contains(QStringLiteral("seed 0, 1 block, γ = 1")));
    }

    void studiesAreCachedSeparately()
    {
        DepthGradientsLab computer;
        const RunControl stop;
        ParamValues v = with(depthLabSpec().defaults(), "depth", "20");
        const DepthGradientsLabResult a = computer.compute(v, stop);
        const DepthGradientsLabResult b = computer.compute(with(v, "radius", "0.5"), stop);
        QCOMPARE(computer.depthRuns(), 1);
        QCOMPARE(computer.timeRuns(), 2);
        QVERIFY(a.plain.ratio == b.plain.ratio);
        QVERIFY(a.rnn.ratio != b.rnn.ratio);
        computer.compute(with(with(v, "radius", "0.5"), "steps", "10"), stop);  // classifier keys touch neither
        QCOMPARE(computer.depthRuns(), 1);
        QCOMPARE(computer.timeRuns(), 2);
        computer.compute(with(with(v, "radius", "0.5"), "seed", "3"), stop);    // the seed touches both
        QCOMPARE(computer.depthRuns(), 2);
        QCOMPARE(computer.timeRuns(), 3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, [&] {
            ParamValues bad = v;
            bad.numbers["width"] = 0;
            computer.compute(bad, stop);
        }());
    }

    void refusedInputChangesNothing()
    {
        DepthGradientsView view;
        quickClassifier(view);
        view.waitForResult();
        const ParamValues before = view.values();
        ParamValues bad = before;
        bad.numbers["depth"] = 500;
        QCOMPARE(view.setValues(bad), QStringLiteral("depth (layers) must be an integer in [1, 200], got 500"));
        QVERIFY(view.values() == before);
    }

    // A long training (2000 steps on 32 sequences, about the longest the lab accepts) is cancelled
    // within a step when the lab goes away.
    void closingCancelsTraining()
    {
        auto view = std::make_unique<DepthGradientsView>();
        quickClassifier(*view);
        view->show();  // the lab trains while shown (or waited for)
        view->waitForResult();
        ParamValues v = with(with(view->values(), "steps", "2000"), "batch", "32");
        QVERIFY(view->setValues(v).isEmpty());
        // Heavier trainings are refused with the budget named, and change nothing.
        const ParamValues heavy = with(with(with(view->values(), "steps", "2000"), "batch", "256"), "hidden", "256");
        QVERIFY(view->setValues(heavy).contains(QStringLiteral("steps x batch x hidden")));
        QVERIFY(view->values() == v);
        // Close once the long training is under way (its progress reached the view).
        QSignalSpy progress(view->classifierRunner(), &ClassifierRunner::progressed);
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 120000);
        QElapsedTimer timer;
        timer.start();
        view.reset();
        // Uncancelled, this training would run for seconds; a cancel lands within one step or
        // evaluation. The time is printed, not asserted: a busy machine is slow.
        qInfo("closing during the classifier's training took %lld ms", qint64(timer.elapsed()));
    }

    void exportIsNotBlank()
    {
        DepthGradientsView view;
        quickClassifier(view);
        view.resize(1600, 1000);
        view.show();
        view.waitForResult();
        for (Exportable *e : view.exportables()) {
            const QImage img = e->renderImage(QSize(800, 500));
            int dark = 0;
            for (int y = 0; y < img.height(); y += 4)
                for (int x = 0; x < img.width(); x += 4)
                    if (qGray(img.pixel(x, y)) < 128) ++dark;
            QVERIFY2(dark > 200, qPrintable(e->exportTitle()));
        }
    }
};

QTEST_MAIN(TestDepthGradientsView)
#include "tst_depth_gradients_view.moc"
