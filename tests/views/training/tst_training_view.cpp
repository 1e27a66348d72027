// The latent-feedback training lab: live curves, pause/resume/stop/reset, results that match a
// direct core training, closing while training, refused parameters.
#include "core/training/trainer.h"
#include "views/training/loss_curve_chart.h"
#include "views/training/moving_average.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_configs.h"
#include "views/training/training_results_table.h"
#include "views/training/training_view.h"

#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QTest>

#include <cmath>
#include <memory>

using namespace fb;

namespace {
// How long a test waits for training threads to reach what it checks: generous, for a machine
// whose cores are busy with other work (and sanitizers). A passing test never waits this long.
constexpr int kPatienceMs = 120000;
} // namespace

class TestTrainingView : public QObject {
    Q_OBJECT
private:
    // A lab with the given overrides, shown (as on screen).
    static std::unique_ptr<TrainingView> makeView(const std::map<std::string, double> &numbers,
                                                  const std::string &arm = "both")
    {
        auto view = std::make_unique<TrainingView>();
        ParamValues v = view->values();
        for (const auto &[k, x] : numbers) v.numbers[k] = x;
        v.texts["arm"] = arm;
        const QString err = view->setValues(v);
        if (!err.isEmpty()) qFatal("%s", qPrintable(err));
        view->resize(1400, 900);
        view->show();
        return view;
    }

    // Long enough to stay running while a test looks at it; small batches keep it light.
    static std::unique_ptr<TrainingView> makeLongView()
    {
        return makeView({ { "steps", 100000 }, { "batch", 16 } });
    }

    static bool enabled(TrainingView &v, const char *name) { return v.button(QString::fromLatin1(name))->isEnabled(); }

private Q_SLOTS:
    void movingAverageIsValidConvolution()
    {
        std::vector<double> x;
        for (int i = 0; i < 3000; ++i) x.push_back(std::sin(0.1 * i) + 0.001 * i);
        for (int w : { 1, 2, 15, 101 }) {
            const std::vector<double> m = movingAverage(x, w);
            QCOMPARE(m.size(), x.size() - std::size_t(w) + 1);
            for (std::size_t i = 0; i < m.size(); i += 37) {
                double s = 0;
                for (int j = 0; j < w; ++j) s += x[i + std::size_t(j)];
                QVERIFY(std::fabs(m[i] - s / w) < 1e-12);
            }
        }
        QVERIFY(movingAverage({ 1.0, 2.0 }, 15).empty());
        const std::vector<double> withNan = movingAverage({ 1.0, NAN, 3.0, 4.0, 5.0 }, 2);
        QVERIFY(std::isnan(withNan[0]) && std::isnan(withNan[1]));
        QCOMPARE(withNan[2], 3.5);
    }

    void idleState()
    {
        TrainingView view;
        QCOMPARE(view.state(), TrainingView::State::Idle);
        QCOMPARE(view.name(), QStringLiteral("training"));
        QVERIFY(enabled(view, "start"));
        QVERIFY(!enabled(view, "pause") && !enabled(view, "resume") && !enabled(view, "stop") && !enabled(view, "reset"));
        QCOMPARE(view.exportables().size(), 1);
        QCOMPARE(view.chart()->title(), QStringLiteral("Toy accumulator, 16 decoding steps"));
        QCOMPARE(view.table()->runRows(), 0);
        QCOMPARE(view.table()->item(0, TrainingResultsTable::LossColumn)->text(), QStringLiteral("0.5160"));
        QCOMPARE(view.table()->item(1, TrainingResultsTable::AccuracyColumn)->text(), QStringLiteral("0.896"));
        view.LabView::waitForResult();  // the parameter preview only
        QCOMPARE(view.readouts()->value(QStringLiteral("params")), QStringLiteral("5,700 / 8,356"));
    }

    void startGrowsTheCurve()
    {
        auto view = makeLongView();
        view->start();
        QCOMPARE(view->state(), TrainingView::State::Running);
        QVERIFY(!enabled(*view, "start") && enabled(*view, "pause") && !enabled(*view, "resume") && enabled(*view, "stop"));
        QCOMPARE(view->stepsTotal(), 200000);
        // Each arm's own curves, as the assertions read them: the arms run at their own pace (on a
        // busy machine one may be far ahead of the other).
        auto drawn = [&](int arm) {
            return view->chart()->rawSeries(arm)->count() > 0 && view->chart()->smoothSeries(arm)->count() > 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(drawn(LossCurveChart::kTokenOnly) && drawn(LossCurveChart::kLatent), kPatienceMs);
        const int first = view->stepsDone();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > first + 20, kPatienceMs);
        QVERIFY(view->progressBar()->value() > 0);
        QCOMPARE(view->progressBar()->maximum(), 200000);
    }

    void pauseHoldsAndResumeContinues()
    {
        auto view = makeLongView();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 10, kPatienceMs);
        view->pause();
        QCOMPARE(view->state(), TrainingView::State::Paused);
        QVERIFY(!enabled(*view, "pause") && enabled(*view, "resume") && enabled(*view, "stop") && !enabled(*view, "start"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isHeld(), kPatienceMs);  // the step in flight has landed
        view->pull();
        const int held = view->stepsDone();
        QTest::qWait(300);  // time for steps that must not happen
        view->pull();
        QCOMPARE(view->stepsDone(), held);
        view->resume();
        QCOMPARE(view->state(), TrainingView::State::Running);
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > held + 10, kPatienceMs);
    }

    void stopCancels()
    {
        auto view = makeLongView();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 10, kPatienceMs);
        view->stop();
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), TrainingView::State::Done, kPatienceMs);
        QCOMPARE(view->table()->runRows(), 2);
        for (int row = TrainingResultsTable::kChapterRows; row < view->table()->rowCount(); ++row)
            QVERIFY(view->table()->item(row, TrainingResultsTable::StatusColumn)->text().startsWith(QStringLiteral("cancelled at step")));
        QVERIFY(enabled(*view, "start") && enabled(*view, "reset") && !enabled(*view, "stop") && !enabled(*view, "pause"));
    }

    void stopWhilePaused()
    {
        auto view = makeLongView();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 4, kPatienceMs);
        view->pause();
        view->stop();
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), TrainingView::State::Done, kPatienceMs);
    }

    void resetClears()
    {
        auto view = makeView({ { "steps", 20 } });
        view->waitForResult();
        QCOMPARE(view->state(), TrainingView::State::Done);
        QVERIFY(view->stepsDone() > 0);
        view->keepGhost();
        view->reset();
        QCOMPARE(view->state(), TrainingView::State::Idle);
        QCOMPARE(view->stepsDone(), 0);
        QCOMPARE(view->chart()->rawSeries(LossCurveChart::kTokenOnly)->count(), 0);
        QCOMPARE(view->chart()->smoothSeries(LossCurveChart::kLatent)->count(), 0);
        QCOMPARE(view->table()->runRows(), 0);
        QCOMPARE(view->progressBar()->value(), 0);
        QCOMPARE(view->chart()->ghostCount(), 2);  // ghosts have their own button
        QVERIFY(!enabled(*view, "reset") && enabled(*view, "start") && enabled(*view, "clear"));
    }

    // The bar counts both arms' steps (40 for two arms of 20) while the chart's axis ends at one arm's
    // 20: the bar says so, before, during and after the run; one arm says nothing of arms.
    void progressNamesTheArms()
    {
        auto view = makeView({ { "steps", 20 } });
        QTRY_COMPARE_WITH_TIMEOUT(view->progressBar()->maximum(), 40, kPatienceMs);  // the preview, drawn
        QVERIFY2(view->progressBar()->format().contains(QStringLiteral("(2 arms of 20)")),
                 qPrintable(view->progressBar()->format()));
        view->waitForResult();
        QCOMPARE(view->progressBar()->value(), 40);
        QVERIFY(view->progressBar()->format().contains(QStringLiteral("(2 arms of 20)")));
        auto one = makeView({ { "steps", 20 } }, "token-only");
        QTRY_COMPARE_WITH_TIMEOUT(one->progressBar()->maximum(), 20, kPatienceMs);
        QVERIFY2(!one->progressBar()->format().contains(QStringLiteral("arms")), qPrintable(one->progressBar()->format()));
    }

    void resetWhileRunning()
    {
        auto view = makeLongView();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 4, kPatienceMs);
        view->reset();
        QCOMPARE(view->state(), TrainingView::State::Idle);
        QCOMPARE(view->stepsDone(), 0);
    }

    void smallRunMatchesCoreTraining()
    {
        auto view = makeView({ { "steps", 30 } });
        view->start();
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), TrainingView::State::Done, kPatienceMs);
        QCOMPARE(view->table()->runRows(), 2);
        const auto &configs = view->runConfigs();
        QCOMPARE(int(configs.size()), 2);
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const TrainResult direct = train(configs[i]);
            const int arm = configs[i].arm == Arm::TokenOnly ? LossCurveChart::kTokenOnly : LossCurveChart::kLatent;
            QCOMPARE(view->chart()->losses(arm), direct.curve);  // deterministic: bit for bit
            const int row = TrainingResultsTable::kChapterRows + int(i);
            auto cell = [&](int col) { return view->table()->item(row, col)->text(); };
            QCOMPARE(cell(TrainingResultsTable::ArmColumn), runLabel(configs[i]));
            QCOMPARE(cell(TrainingResultsTable::ParamsColumn), QLocale(QLocale::English).toString(direct.params));
            QCOMPARE(cell(TrainingResultsTable::LossColumn), QString::number(direct.heldoutLoss, 'f', 4));
            QCOMPARE(cell(TrainingResultsTable::AccuracyColumn), QString::number(direct.accuracy, 'f', 3));
            QCOMPARE(cell(TrainingResultsTable::StatusColumn), QStringLiteral("finished"));
        }
        QCOMPARE(view->chart()->rawSeries(LossCurveChart::kLatent)->count(), 30);
        QCOMPARE(view->chart()->smoothSeries(LossCurveChart::kLatent)->count(), 30 - 15 + 1);
        QCOMPARE(view->progressBar()->value(), 60);
        QVERIFY(!view->readouts()->value(QStringLiteral("heldout")).isEmpty());
    }

    // A run again with the same settings (a retrain on a slide) replaces its rows: the same numbers
    // twice, told apart by nothing, filled the table. Other settings add rows, each arm's settings
    // in its label's tooltip; those settings again replace theirs and come to the top.
    void retrainReplacesItsRows()
    {
        auto view = makeView({ { "steps", 12 } });
        const auto runToTheEnd = [&] {
            view->start();
            QTRY_COMPARE_WITH_TIMEOUT(view->state(), TrainingView::State::Done, kPatienceMs);
        };
        const auto topLabel = [&] { return view->table()->item(TrainingResultsTable::kChapterRows, TrainingResultsTable::ArmColumn); };
        runToTheEnd();
        QCOMPARE(view->table()->runRows(), 2);
        runToTheEnd();
        QCOMPARE(view->table()->runRows(), 2);
        QCOMPARE(topLabel()->text(), QStringLiteral("token-only, seed 0"));
        QVERIFY2(topLabel()->toolTip().startsWith(QStringLiteral("12 steps, batch ")), qPrintable(topLabel()->toolTip()));
        ParamValues v = view->values();
        v.numbers["seed"] = 1;
        QVERIFY(view->setValues(v).isEmpty());
        runToTheEnd();
        QCOMPARE(view->table()->runRows(), 4);
        QCOMPARE(topLabel()->text(), QStringLiteral("token-only, seed 1"));
        v.numbers["seed"] = 0;
        QVERIFY(view->setValues(v).isEmpty());
        runToTheEnd();
        QCOMPARE(view->table()->runRows(), 4);
        QCOMPARE(topLabel()->text(), QStringLiteral("token-only, seed 0"));
        QCOMPARE(view->table()->item(TrainingResultsTable::kChapterRows + 2, TrainingResultsTable::ArmColumn)->text(),
                 QStringLiteral("token-only, seed 1"));
        // the steps are not in the label, but in the key: 13 steps add rows
        v.numbers["steps"] = 13;
        QVERIFY(view->setValues(v).isEmpty());
        runToTheEnd();
        QCOMPARE(view->table()->runRows(), 6);
        QVERIFY(topLabel()->toolTip().startsWith(QStringLiteral("13 steps")));
    }

    void waitForResultTrainsToTheEnd()
    {
        auto view = makeView({ { "steps", 12 }, { "passes", 2 } }, "latent-feedback");
        view->waitForResult();
        QCOMPARE(view->state(), TrainingView::State::Done);
        QCOMPARE(view->stepsDone(), 12);
        QCOMPARE(view->chart()->losses(LossCurveChart::kTokenOnly).size(), std::size_t(0));
        QCOMPARE(view->table()->runRows(), 1);
        QVERIFY(!view->exportables().front()->renderImage(QSize(800, 500)).isNull());
    }

    void ghostsAreLabelled()
    {
        auto view = makeView({ { "steps", 16 }, { "passes", 2 } });
        QVERIFY(!enabled(*view, "ghost") && !enabled(*view, "clear"));
        view->waitForResult();
        QVERIFY(enabled(*view, "ghost"));
        view->keepGhost();
        QCOMPARE(view->chart()->ghostCount(), 2);
        QVERIFY(!enabled(*view, "ghost") && enabled(*view, "clear"));
        QCOMPARE(ghostLabel(view->runConfigs()[1]), QStringLiteral("latent k=2, seed 0"));
        TrainConfig exact;
        exact.arm = Arm::LatentFeedback;
        exact.seed = 3;
        QCOMPARE(ghostLabel(exact), QStringLiteral("latent exact, seed 3"));
        view->chart()->setWindow(1);  // re-smooths ghosts too
        view->clearGhosts();
        QCOMPARE(view->chart()->ghostCount(), 0);
        QVERIFY(!enabled(*view, "clear"));
    }

    void ghostsTravelInScenes()
    {
        auto view = makeView({ { "steps", 20 } });
        view->waitForResult();
        view->keepGhost();
        const QJsonObject state = view->extraState();
        QCOMPARE(state.value(QStringLiteral("ghosts")).toArray().size(), 2);

        TrainingView other;
        QVERIFY(other.setExtraState(state).isEmpty());
        QCOMPARE(other.chart()->ghostCount(), 2);
        QVERIFY(other.chart()->hasGhost(QStringLiteral("latent exact, seed 0"), view->chart()->losses(LossCurveChart::kLatent)));
        QVERIFY(other.button(QStringLiteral("clear"))->isEnabled());

        QJsonObject bad = state;
        bad.insert(QStringLiteral("window"), 0);
        QVERIFY(other.setExtraState(bad).contains(QStringLiteral("window")));
        bad = QJsonObject { { QStringLiteral("ghosts"), QJsonArray { QJsonObject { { QStringLiteral("label"), 3 } } } } };
        QVERIFY(other.setExtraState(bad).contains(QStringLiteral("ghosts[0]")));
        QCOMPARE(other.chart()->ghostCount(), 2);  // refused: nothing changed
    }

    // A scene (or a deck's slide) shows its own ghosts only: the run trained before it is gone.
    void sceneClearsEarlierRuns()
    {
        auto view = makeView({ { "steps", 20 } });
        view->waitForResult();
        view->keepGhost();
        QVERIFY(view->stepsDone() > 0);
        QVERIFY(view->table()->runRows() > 0);
        QVERIFY(view->setExtraState(QJsonObject()).isEmpty());
        QCOMPARE(view->state(), TrainingView::State::Idle);
        QCOMPARE(view->stepsDone(), 0);
        QCOMPARE(view->table()->runRows(), 0);
        QCOMPARE(view->chart()->ghostCount(), 0);
        QVERIFY(view->chart()->losses(LossCurveChart::kLatent).empty());
    }

    // Closing abandons the run (core test: abandonSkipsEvaluation); here the window must close
    // while training and while paused without waiting for the run. How long it takes is printed,
    // not asserted (a busy machine is slow); a close that waited for 100,000 steps would hit
    // CTest's timeout.
    void closingWhileTraining()
    {
        auto view = makeView({ { "steps", 100000 } });  // default batch: the slowest steps
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 4, kPatienceMs);
        QElapsedTimer clock;
        clock.start();
        view->close();
        view.reset();
        qInfo("closing during training took %lld ms", qint64(clock.elapsed()));

        auto paused = makeLongView();
        paused->start();
        QTRY_VERIFY_WITH_TIMEOUT(paused->stepsDone() > 4, kPatienceMs);
        paused->pause();
        clock.restart();
        paused.reset();
        qInfo("closing a paused training took %lld ms", qint64(clock.elapsed()));
    }

    void refusedParametersKeepState()
    {
        auto view = makeLongView();
        const ParamValues before = view->values();
        ParamValues bad = before;
        bad.numbers["steps"] = 0;
        QString err = view->setValues(bad);
        QVERIFY(err.contains(QStringLiteral("steps")));
        QCOMPARE(view->values(), before);
        bad = before;
        bad.numbers["passes"] = 20;  // more than seq_len = 16
        err = view->setValues(bad);
        QVERIFY(err.contains(QStringLiteral("passes")));
        QCOMPARE(view->values(), before);

        // Changes during a run apply at the next start, not to the running training.
        view->start();
        ParamValues next = before;
        next.numbers["steps"] = 50;
        next.numbers["seq_len"] = 8;
        QVERIFY(view->setValues(next).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 4, kPatienceMs);
        QCOMPARE(view->runConfigs().front().steps, 100000);
        QCOMPARE(view->runConfigs().front().seqLen, 16);
        QCOMPARE(view->stepsTotal(), 200000);
        QCOMPARE(view->chart()->title(), QStringLiteral("Toy accumulator, 16 decoding steps"));
        // The run of the earlier values ends as a labelled ghost; the charts show the new values.
        view->stop();
        QTRY_COMPARE_WITH_TIMEOUT(view->state(), TrainingView::State::Idle, kPatienceMs);
        QVERIFY(view->chart()->ghostCount() >= 1);
        QCOMPARE(view->chart()->title(), QStringLiteral("Toy accumulator, 8 decoding steps"));
        view->start();
        QCOMPARE(view->runConfigs().front().steps, 50);
        QCOMPARE(view->chart()->title(), QStringLiteral("Toy accumulator, 8 decoding steps"));
    }

    void longCurvesAreThinnedKeepingTheirBand()
    {
        LossCurveChart chart;
        chart.startRun(50000, 16, 4);
        std::vector<double> losses(50000, 0.5);
        losses[12345] = 0.1;  // one low and one high spike must survive the thinning
        losses[40000] = 1.2;
        chart.appendLosses(LossCurveChart::kTokenOnly, losses);
        const QList<QPointF> raw = chart.rawSeries(LossCurveChart::kTokenOnly)->points();
        QVERIFY(raw.size() <= 2400);
        double lo = 1e9, hi = -1e9;
        for (const QPointF &p : raw) { lo = std::min(lo, p.y()); hi = std::max(hi, p.y()); }
        QCOMPARE(lo, 0.1);
        QCOMPARE(hi, 1.2);
        QVERIFY(chart.smoothSeries(LossCurveChart::kTokenOnly)->count() <= 1300);
    }

    void headlessExportTrainsThenDraws()
    {
        const QString bin = qEnvironmentVariable("FULLBAND_BIN");
        if (bin.isEmpty()) QSKIP("FULLBAND_BIN is not set (run through CTest)");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("training.png"));
        QProcess p;
        p.start(bin, { QStringLiteral("export"), QStringLiteral("training"), QStringLiteral("--set"),
                       QStringLiteral("steps=40"), QStringLiteral("--out"), out, QStringLiteral("--size"),
                       QStringLiteral("800x500") });
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(800, 500));
        // The latent curve (vermillion, 213 94 0) was drawn: training ran before the export. The
        // legend, which has a vermillion marker even without data, sits in the right quarter.
        int vermillion = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width() * 3 / 4; ++x)
                if (image.pixelColor(x, y) == QColor(213, 94, 0)) ++vermillion;
        qInfo("vermillion pixels in the plot: %d", vermillion);
        QVERIFY2(vermillion > 100, qPrintable(QString::number(vermillion)));
    }

    void divergenceIsReported()
    {
        auto view = makeView({ { "steps", 200 }, { "lr", 1000 } }, "token-only");
        view->waitForResult();
        QCOMPARE(view->table()->runRows(), 1);
        const QString status = view->table()->item(TrainingResultsTable::kChapterRows,
                                                   TrainingResultsTable::StatusColumn)->text();
        QVERIFY2(status.startsWith(QStringLiteral("diverged")) || status == QStringLiteral("finished"), qPrintable(status));
        qInfo("lr 1000: %s", qPrintable(status));
        // A diverged run is marked on the chart, at the step it reached.
        if (status.startsWith(QStringLiteral("diverged")))
            QCOMPARE(view->chart()->divergedAt(LossCurveChart::kTokenOnly),
                     int(view->chart()->losses(LossCurveChart::kTokenOnly).size()));
    }

    void markedDivergenceIsClearedByTheNextRun()
    {
        LossCurveChart chart;
        chart.appendLosses(LossCurveChart::kLatent, { 1.0, 2.0, 40.0 });
        chart.markDivergence(LossCurveChart::kLatent, 3, QStringLiteral("diverged at step 3: loss 40 > 20"));
        QCOMPARE(chart.divergedAt(LossCurveChart::kLatent), 3);
        chart.startRun(220, 16, 4);
        QCOMPARE(chart.divergedAt(LossCurveChart::kLatent), 0);
    }

    // The x axis follows the run: the planned steps before it starts, then just past the longest curve.
    void xAxisFollowsTheRun()
    {
        QCOMPARE(LossCurveChart::xAxisEnd(220, 0), 220);
        QCOMPARE(LossCurveChart::xAxisEnd(20000, 3), 12);     // ten steps at least, to a round number
        QCOMPARE(LossCurveChart::xAxisEnd(20000, 950), 1000);
        QCOMPARE(LossCurveChart::xAxisEnd(220, 220), 220);     // never past the run's end
        QCOMPARE(LossCurveChart::xAxisEnd(220, 400), 400);     // a longer ghost
        QVERIFY(LossCurveChart::xAxisEnd(20000, 5000) >= 5000);
        QVERIFY(LossCurveChart::xAxisEnd(20000, 5000) <= 6000);
    }
};

QTEST_MAIN(TestTrainingView)
#include "tst_training_view.moc"
