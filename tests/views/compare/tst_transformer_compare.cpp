// The transformer lab's comparison mode (issue 29), offscreen at tiny sizes: the panel fills its
// table and charts from hand-made rows, the run controls start, hold and stop a comparison, and a
// stopped one says where each configuration stopped.
#include "support/small_transformer_view.h"
#include "views/compare/compare_chart.h"
#include "views/compare/compare_panel.h"
#include "views/compare/compare_table.h"
#include "views/interpret/interpret_tabs.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/palette.h"
#include "views/writing/writing_tabs.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QProgressBar>
#include <QTest>

#include <cmath>
#include <memory>

using namespace fb;
using test::kPatienceMs;

class TestTransformerCompare : public QObject {
    Q_OBJECT
private:
    static std::unique_ptr<TransformerView> makeView(int steps) { return test::smallTransformerView(steps); }

private Q_SLOTS:
    // Comparison mode (issue 29), no training: the panel fills its table and charts from hand-made
    // rows; a task without exact answers shows that sentence in place of the accuracy chart.
    void compareFillsItsTable()
    {
        auto view = makeView(20);
        view->setCompareMode(true);
        QVERIFY(view->comparePanel()->isVisible());
        QVERIFY(!view->tabs()->isVisible());
        std::vector<CompareRow> rows(2);
        rows[0].label = "base";
        rows[0].params = 101632;
        rows[0].flopsPerStep = 2.5e8;
        rows[0].kv.bytesPerToken = 1024;
        rows[0].msPerStep = 3.25;
        rows[0].heldoutLoss = 1.2345;
        rows[0].sinkShare = 0.5;
        rows[0].status = TrainStatus::Finished;
        rows[0].config.steps = 20;
        rows[0].config.task = TransformerTask::Accumulator;  // no exact answers, no repeat
        rows[0].curve = { 2.0, 1.9, 1.8 };
        rows[0].heldoutCurve = { { 0, 2.1 }, { 20, 1.2345 } };
        rows[1] = rows[0];
        rows[1].label = "kv_heads=1";
        rows[1].kv.bytesPerToken = 256;
        rows[1].status = TrainStatus::Cancelled;
        rows[1].stepsDone = 7;
        ComparePanel *panel = view->comparePanel();
        panel->showRows(rows);
        CompareTable *t = panel->table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->cell(0, CompareTable::ConfigColumn), QStringLiteral("base"));
        QCOMPARE(t->cell(0, CompareTable::LossColumn), QStringLiteral("1.234"));
        QCOMPARE(t->cell(0, CompareTable::AccuracyColumn), QStringLiteral("—"));
        QCOMPARE(t->cell(1, CompareTable::KvColumn), QStringLiteral("256"));
        QVERIFY(t->cell(1, CompareTable::StatusColumn).contains(QStringLiteral("stopped at 7")));
        QCOMPARE(panel->lossChart()->curves(), 2);
        QCOMPARE(panel->lossChart()->heldoutPoints(1).size(), 2);
        QVERIFY(!panel->accuracyShown());  // no exact answers
        rows[1].accuracy = 0.75;
        rows[1].heldoutCurve[1].accuracy = 0.75;
        panel->showRows(rows);
        QVERIFY(panel->accuracyShown());
        QCOMPARE(t->cell(1, CompareTable::AccuracyColumn), QStringLiteral("0.750"));
        QCOMPARE(panel->accuracyChart()->heldoutPoints(1).size(), 1);
        QVERIFY(!panel->recallShown());  // no recall points
        // mqar: the recall by number of pairs takes the accuracy chart's place, a curve per row in
        // its row's colour; an animation's step brings the accuracy over steps back
        rows[0].recallByPairs = { { 1, 1.0 }, { 2, 0.9 }, { 3, 0.5 } };
        rows[1].recallByPairs = { { 1, 1.0 }, { 2, std::nan("") }, { 3, 0.25 } };
        panel->showRows(rows);
        QVERIFY(panel->recallShown());
        QCOMPARE(panel->recallChart()->curves(), 2);
        QCOMPARE(panel->recallChart()->heldoutPoints(0), (QList<QPointF> { { 1, 1.0 }, { 2, 0.9 }, { 3, 0.5 } }));
        QCOMPARE(panel->recallChart()->heldoutPoints(1).size(), 2);  // NaN left out
        QVERIFY(!panel->recallChart()->renderImage(QSize(800, 500)).isNull());
        panel->showStep(10);
        QVERIFY(!panel->recallShown());
        panel->showStep(panel->longestRun());  // an animation ends where the comparison ended
        QVERIFY(panel->recallShown());
        // a list of mixers names its Gated DeltaNets GDN in the table and counts a run of equal
        // layers once (one line at a slide's width), the whole list in the tooltip; one mixer for all
        // layers keeps its name
        rows[0].label = "mixer=gated-deltanet,gated-deltanet,gated-deltanet,softmax, lr=0.01";
        rows[1].label = "mixer=gated-deltanet";
        panel->showRows(rows);
        QCOMPARE(t->cell(0, CompareTable::ConfigColumn), QStringLiteral("mixer=3×GDN,softmax, lr=0.01"));
        // the whole list in the tooltip, with the sizes a narrow table leaves out
        QCOMPARE(t->item(0, CompareTable::ConfigColumn)->toolTip(),
                 QString::fromStdString(rows[0].label) + QStringLiteral("\n101,632 parameters, 250.0 MFLOP per training step"));
        QCOMPARE(t->cell(1, CompareTable::ConfigColumn), QStringLiteral("mixer=gated-deltanet"));
        rows[0].label = "mixer=softmax,linear,linear,gated-deltanet";
        rows[1].label = "lr=0.01, mixer=deltanet, softmax,softmax";  // read as the comparison reads it
        panel->showRows(rows);
        QCOMPARE(t->cell(0, CompareTable::ConfigColumn), QStringLiteral("mixer=softmax,2×linear,GDN"));
        QCOMPARE(t->cell(1, CompareTable::ConfigColumn), QStringLiteral("lr=0.01, mixer=deltanet,2×softmax"));
        // Narrow (slide 15 beside its explanation at 1024 x 768: 740 px), the parameters and FLOPs
        // columns are left out, and a hybrid's list takes at most two lines (it took four, and the
        // third row was cut); wide, they come back
        rows[0].label = "mixer=gated-deltanet,gated-deltanet,gated-deltanet,softmax";
        rows[1].label = "mixer=softmax,gated-deltanet,gated-deltanet,gated-deltanet";
        CompareTable narrow;
        QFont lecture = narrow.font();  // lecture mode's application font (its scale, 1.6, in app/)
        lecture.setPointSizeF(lecture.pointSizeF() * 1.6);
        narrow.setFont(lecture);
        narrow.setRows(rows, true, { 0, 1 });
        narrow.resize(740, 300);
        narrow.show();
        QVERIFY(QTest::qWaitForWindowExposed(&narrow));
        QVERIFY(narrow.isColumnHidden(CompareTable::ParamsColumn));
        QVERIFY(narrow.isColumnHidden(CompareTable::FlopsColumn));
        for (int r = 0; r < 2; ++r)
            QVERIFY2(narrow.rowHeight(r) <= 2 * narrow.fontMetrics().lineSpacing() + 12,
                     qPrintable(QString::number(narrow.rowHeight(r))));
        narrow.resize(1000, 300);
        QTRY_VERIFY(!narrow.isColumnHidden(CompareTable::ParamsColumn));
        QVERIFY(!narrow.isColumnHidden(CompareTable::FlopsColumn));
        view->setCompareMode(false);
        QVERIFY(!view->comparePanel()->isVisible());
        QVERIFY(view->tabs()->isVisible());
    }

    // A comparison trained by the lab's Start on its worker: a row per line, finished, held-out
    // curves drawn; a bad line is refused in one line naming its configuration and key, nothing
    // started. The mode cannot be switched during the run.
    void compareRunsFromThePanel()
    {
        auto view = makeView(20);
        view->resize(1024, 768);
        view->setCompareMode(true);
        ComparePanel *panel = view->comparePanel();
        panel->line(0)->setText(QStringLiteral("base"));
        panel->line(1)->setText(QStringLiteral("kv_heads=3"));
        panel->line(2)->clear();
        panel->line(3)->clear();
        QVERIFY(!view->button(QStringLiteral("ghost"))->isVisibleTo(view.get()));
        view->start();
        QCOMPARE(view->state(), TrainingLabView::State::Idle);
        const QString err = panel->status()->text();
        QVERIFY2(err.contains(QStringLiteral("configuration 2")) && err.contains(QStringLiteral("kv_heads")),
                 qPrintable(err));
        QVERIFY(!panel->running());
        panel->line(1)->setText(QStringLiteral("kv_heads=1"));
        view->start();
        QCOMPARE(view->state(), TrainingLabView::State::Running);
        QVERIFY(view->comparing());
        QVERIFY(panel->running());
        QVERIFY(!view->compareButton()->isEnabled());
        QCOMPARE(view->stepsTotal(), 40);  // two configurations of 20 steps
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TrainingLabView::State::Done, kPatienceMs);
        QVERIFY(!panel->running());
        QVERIFY(view->compareButton()->isEnabled());
        QCOMPARE(view->stepsDone(), 40);
        QCOMPARE(panel->table()->rowCount(), 2);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(panel->table()->cell(r, CompareTable::StatusColumn), QStringLiteral("finished"));
        QCOMPARE(panel->lossChart()->heldoutPoints(0).size(), 2);  // steps 0 and 20
        QVERIFY(!panel->accuracyShown());  // induction: no exact answers
        // induction: the chart and a column give the loss on the repeat (the first half is random)
        QVERIFY(panel->showsRepeat());
        QVERIFY(!panel->table()->isColumnHidden(CompareTable::RepeatColumn));
        QVERIFY(panel->table()->cell(0, CompareTable::RepeatColumn) != QStringLiteral("—"));
        QVERIFY(panel->lossChart()->heldoutPoints(0).back().y() < 3.0);
        // an animation's frames: the curves as they were at a step, then all of them again
        QCOMPARE(view->replaySteps(), 20);
        view->showStep(10);
        QCOMPARE(panel->lossChart()->heldoutPoints(0).size(), 1);
        view->showStep(view->replaySteps());
        QCOMPARE(panel->lossChart()->heldoutPoints(1).size(), 2);
        // a click on a configuration's row shows its attention maps in the curves' place
        QVERIFY(!panel->mapsShown());
        QTest::mouseClick(panel->table()->viewport(), Qt::LeftButton, {},
                          panel->table()->visualItemRect(panel->table()->item(1, 0)).center());
        QVERIFY(panel->mapsShown());
        QCOMPARE(int(panel->maps()->data().images.size()), 2);  // 1 layer x 2 heads
        panel->showCurves();
        QVERIFY(!panel->mapsShown());
        QVERIFY(!panel->showMaps(5));
        // a scene keeps the comparison's lines; another view takes them back, a bad one changes nothing
        const QJsonObject kept = view->extraState();
        QCOMPARE(kept.value(QStringLiteral("compare")).toArray().size(), 5);
        auto other = makeView(20);
        QCOMPARE(other->setExtraState(kept), QString());
        QVERIFY(other->comparePanel()->isVisibleTo(other.get()));
        QCOMPARE(other->comparePanel()->line(1)->text(), QStringLiteral("kv_heads=1"));
        QJsonObject bad;
        bad.insert(QStringLiteral("compare"), QJsonArray { 1, 2 });
        QVERIFY(other->setExtraState(bad).startsWith(QStringLiteral("extra.compare must be")));
        QCOMPARE(other->comparePanel()->line(1)->text(), QStringLiteral("kv_heads=1"));
        QCOMPARE(other->setExtraState({}), QString());
        QVERIFY(!other->comparePanel()->isVisibleTo(other.get()));
        QVERIFY(other->extraState().isEmpty());
        if (const QString dir = qEnvironmentVariable("FULLBAND_SHOTS"); !dir.isEmpty())
            view->grab().save(dir + QStringLiteral("/transformer_compare.png"));
        // out of compare mode with no model of its own trained: the untrained model's maps and no
        // steps; back in it, the comparison as it ended
        view->maps()->setData({});
        view->setCompareMode(false);
        QTRY_VERIFY_WITH_TIMEOUT(!view->maps()->data().images.isEmpty(), kPatienceMs);
        QVERIFY(view->maps()->data().title.contains(QStringLiteral("before training")));
        QCOMPARE(view->stepsDone(), 0);
        view->setCompareMode(true);
        QCOMPARE(panel->table()->rowCount(), 2);
        QCOMPARE(view->stepsDone(), 40);
    }

    // Pause holds a comparison (no step runs), Stop ends it after the current steps: every row says
    // where it was cancelled. Reset empties the table.
    void compareStops()
    {
        auto view = makeView(100000);
        view->setCompareMode(true);
        ComparePanel *panel = view->comparePanel();
        panel->line(0)->setText(QStringLiteral("base"));
        panel->line(1)->clear();
        panel->line(2)->setText(QStringLiteral("window=4"));
        panel->line(3)->clear();
        QCOMPARE(view->toggleTraining(), QStringLiteral("training"));  // a lecture's space
        // each configuration keeps its line's colour, the empty line skipped
        const auto swatchOf = [panel](int row) {
            return QColor(panel->table()->item(row, CompareTable::ConfigColumn)->icon().pixmap(8, 8).toImage().pixel(4, 4));
        };
        QCOMPARE(swatchOf(0), seriesColor(0));
        QCOMPARE(swatchOf(1), seriesColor(2));
        QTRY_VERIFY_WITH_TIMEOUT(panel->lossChart()->heldoutPoints(1).size() >= 1, kPatienceMs);
        // while they train, the table shows each one's latest held-out figures (not "…"), in grey
        QTRY_VERIFY_WITH_TIMEOUT(panel->table()->cell(1, CompareTable::LossColumn) != QStringLiteral("…"), kPatienceMs);
        bool number = false;
        const double loss = panel->table()->cell(1, CompareTable::LossColumn).toDouble(&number);
        QVERIFY2(number && loss > 0.0, qPrintable(panel->table()->cell(1, CompareTable::LossColumn)));
        QVERIFY(panel->table()->item(1, CompareTable::LossColumn)->toolTip().startsWith(QStringLiteral("Held-out at step")));
        QCOMPARE(panel->table()->cell(1, CompareTable::MsColumn), QStringLiteral("…"));  // known at the end
        QCOMPARE(view->toggleTraining(), QStringLiteral("paused"));
        QTRY_VERIFY_WITH_TIMEOUT(view->isHeld(), kPatienceMs);
        for (int r = 0; r < 2; ++r)  // the table says it too (it said "training" while paused)
            QCOMPARE(panel->table()->cell(r, CompareTable::StatusColumn), QStringLiteral("paused"));
        QCOMPARE(view->toggleTraining(), QStringLiteral("training"));
        QCOMPARE(panel->table()->cell(0, CompareTable::StatusColumn), QStringLiteral("training"));
        QVERIFY(view->button(QStringLiteral("stop"))->isEnabled());
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TrainingLabView::State::Done, kPatienceMs);
        QVERIFY(!panel->running());
        for (int r = 0; r < 2; ++r) {
            QVERIFY2(panel->table()->cell(r, CompareTable::StatusColumn).startsWith(QStringLiteral("stopped at")),
                     qPrintable(panel->table()->cell(r, CompareTable::StatusColumn)));
            // the final figures, no longer the grey ones of the run
            QVERIFY(!panel->table()->item(r, CompareTable::LossColumn)->toolTip().startsWith(QStringLiteral("Held-out at step")));
        }
        QCOMPARE(view->progressBar()->format().contains(QStringLiteral("(2 configurations)")), true);
        view->reset();
        QCOMPARE(panel->table()->rowCount(), 0);
        QVERIFY(!view->comparing());
    }

};

QTEST_MAIN(TestTransformerCompare)
#include "tst_transformer_compare.moc"
