// The transformer lab, offscreen: a small induction run trains on its worker while the window's
// event loop runs; the attention maps change while it trains (snapshots drawn live), pause parks
// the worker, and at the end the length table and the induction scores are shown. Tiny sizes, so
// that it takes seconds, also under the sanitizers.
#include "views/widgets/exportable.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/offset_profile_chart.h"
#include "views/interpret/replay_bar.h"
#include "views/interpret/state_page.h"
#include "views/interpret/value_grid.h"
#include "views/widgets/heatmap_grid.h"
#include "views/training/length_table.h"
#include "views/widgets/readout_panel.h"
#include "views/training/transformer_loss_chart.h"
#include "views/training/transformer_view.h"
#include "views/compare/compare_chart.h"
#include "views/compare/compare_panel.h"
#include "views/widgets/palette.h"
#include "views/writing/writing_tabs.h"
#include "support/layout_walk.h"
#include "support/lecture_font.h"
#include "support/small_transformer_view.h"
#include "support/text_run.h"
#include "views/lab/param_panel.h"
#include "views/writing/cache_strips.h"
#include "views/writing/writing_panel.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSet>
#include <QSpinBox>
#include <QTemporaryDir>

#include <QApplication>
#include <QComboBox>
#include <QProgressBar>
#include <QSlider>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

#include <cmath>
#include <memory>
#include <optional>

using namespace fb;

using test::kPatienceMs;

class TestTransformerView : public QObject {
    Q_OBJECT
private:
    static std::unique_ptr<TransformerView> makeView(int steps) { return test::smallTransformerView(steps); }

    static QImage firstMap(const TransformerView &v)
    {
        const auto &images = v.maps()->data().images;
        return images.isEmpty() ? QImage() : images.first();
    }

    // A text of 1,140 characters with "-->", "<f32>" and "&" in it.
    static void writeText(const QString &path)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 60; ++i) f.write("a --> b <f32> & c;\n");
    }

private Q_SLOTS:
    // The cache strips' caption is a whole wording wherever one fits: narrowing the column steps from
    // "Each head over the KV cache" to "Heads over the KV cache" to "KV cache", and only that last one
    // is ever elided (lecture mode at 1024 x 768 cut the first to "Each head over the KV...").
    void cacheStripsCaptionFits()
    {
        CacheStrips strips;
        strips.setFontScale(1.8);
        const QStringList wordings = { QStringLiteral("Each head over the KV cache"),
                                       QStringLiteral("Heads over the KV cache"), QStringLiteral("KV cache") };
        int last = 0;
        QSet<int> seen;
        for (int width = 1200; width >= 20; width -= 5) {
            strips.resize(width, 200);
            const QString c = strips.caption();
            int which = int(wordings.indexOf(c));
            if (which < 0) {
                // elided, down to nothing in a column narrower than "K..."
                const bool elided = c.endsWith(QChar(0x2026)) && QStringLiteral("KV cache").startsWith(c.chopped(1));
                QVERIFY2(c.isEmpty() || elided,
                         qPrintable(QStringLiteral("width %1: '%2'").arg(width).arg(c)));
                which = 3;
            }
            QVERIFY2(which >= last, qPrintable(QStringLiteral("width %1: '%2' after a shorter one").arg(width).arg(c)));
            last = which;
            seen.insert(which);
        }
        QCOMPARE(seen.size(), 4);  // every step was taken
    }

    void preview()
    {
        TransformerView view;
        view.LabView::waitForResult();  // the preview only (the view's own waitForResult trains)
        QVERIFY(view.readouts()->value(QStringLiteral("params")).contains(QStringLiteral("101")));
        // Beside Start: how long it will train (measured speed; a lower estimate).
        QVERIFY2(view.readouts()->value(QStringLiteral("expected")).startsWith(QStringLiteral("about ")),
                 qPrintable(view.readouts()->value(QStringLiteral("expected"))));
        QVERIFY2(view.progressBar()->format().contains(QStringLiteral("Start trains for about ")),
                 qPrintable(view.progressBar()->format()));
    }

    // A model over the preview's memory (one Gated DeltaNet head of 64: 94 MB) builds no untrained
    // model; the maps say so and that Start draws them, instead of "Computing…" until then.
    void previewTooLargeSaysWhy()
    {
        TransformerView view;
        ParamValues v = view.values();
        v.texts["mixer"] = "gated-deltanet";
        v.numbers["heads"] = 1;
        QCOMPARE(view.setValues(v), QString());
        view.LabView::waitForResult();
        QVERIFY2(view.maps()->data().images.isEmpty(), "no untrained maps");
        const QString title = view.maps()->data().title;
        QVERIFY2(title.startsWith(QStringLiteral("The maps appear once training starts (Start)")) &&
                     title.contains(QStringLiteral("over 64 MB")) && title.contains(QStringLiteral("94 MB")),
                 qPrintable(title));
    }

    // The maps are redrawn while training: a later snapshot's first map differs from the first.
    void mapsChangeWhileTraining()
    {
        auto view = makeView(100000);
        view->start();
        QCOMPARE(view->state(), TransformerView::State::Running);
        QTRY_VERIFY_WITH_TIMEOUT(view->framesShown() >= 1 && !firstMap(*view).isNull(), kPatienceMs);
        QCOMPARE(view->maps()->data().images.size(), 2);  // 1 layer x 2 heads
        const QImage before = firstMap(*view);
        const int stepBefore = view->lastFrameStep();
        QTRY_VERIFY_WITH_TIMEOUT(view->lastFrameStep() > stepBefore + 50 && firstMap(*view) != before, kPatienceMs);
        QVERIFY(view->stepsDone() > 0);
        view->pause();
        QTRY_VERIFY_WITH_TIMEOUT(view->isHeld(), kPatienceMs);
        const int held = view->stepsDone();
        view->pull();
        QVERIFY(view->stepsDone() >= held);
        view->resume();
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(view->result().has_value());
        QCOMPARE(view->result()->status, TrainStatus::Cancelled);
        QVERIFY(view->button(QStringLiteral("ghost"))->isEnabled());
        view->keepGhost();
        QCOMPARE(view->chart()->ghostCount(), 1);
    }

    // A finished run: the length table (rope and its rescalings at T, 2T, 4T) and the scores.
    void finishedRunShowsTheTable()
    {
        auto view = makeView(60);
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QCOMPARE(view->stepsDone(), 60);
        QCOMPARE(view->result()->status, TrainStatus::Finished);
        QVERIFY(view->lengthTable()->rowCount() >= 4);
        QVERIFY(view->chart()->heldoutPoints() >= 2);
        QVERIFY(view->readouts()->value(QStringLiteral("induction")) != QStringLiteral("—"));
        QVERIFY(view->maps()->data().panelTitles.first().contains(QStringLiteral("ind")));
        QVERIFY(!view->chart()->accuracyShown());
        QCOMPARE(view->readouts()->value(QStringLiteral("accuracy")), QStringLiteral("—"));
        // squeezed to its minimum height (a tall explanation above it at 1024 x 768), the loss chart
        // still shows every text whole (at 170 pixels its step labels were "...")
        TransformerLossChart *chart = view->chart();
        chart->setFixedSize(380, chart->minimumHeight());
        for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
        chart->settleLayout();
        QVERIFY2(chart->layoutProblems().isEmpty(), qPrintable(chart->layoutProblems().join(QLatin1Char('\n'))));
    }

    // The length table takes its place when a run starts, its cells "…", and the loss curves beside
    // it keep their width when the numbers come (slide 9: the curves narrowed by a third as the run
    // ended, the table appearing beside them).
    void lossChartKeepsItsWidthWhenARunEnds_data()
    {
        QTest::addColumn<bool>("lecture");
        QTest::newRow("desk") << false;
        QTest::newRow("lecture (fonts 1.6 times, no parameter column)") << true;
    }
    void lossChartKeepsItsWidthWhenARunEnds()
    {
        QFETCH(bool, lecture);
        std::optional<test::LectureFont> font;
        auto view = makeView(100000);  // stopped below
        if (lecture) {  // as lecture mode sets it
            font.emplace();
            view->setPresentationScale(1.6);
            view->setSideVisible(false);
        }
        view->resize(1024, 680);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QVERIFY(!view->lengthTable()->isVisible());  // nothing trained: the curves take the width
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->framesShown() >= 1, kPatienceMs);
        QVERIFY(view->lengthTable()->isVisible());
        QCOMPARE(view->lengthTable()->rowCount(), 4);  // rope and its three rescalings
        QCOMPARE(view->lengthTable()->item(0, 0)->text(), QStringLiteral("rope"));
        QCOMPARE(view->lengthTable()->item(0, 1)->text(), QStringLiteral("…"));
        for (int k = 0; k < 4; ++k) QCoreApplication::processEvents();
        const int during = view->chart()->width();
        view->stop();  // a stopped run is measured too
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        for (int k = 0; k < 4; ++k) QCoreApplication::processEvents();
        QVERIFY(view->lengthTable()->item(0, 1)->text() != QStringLiteral("…"));
        QVERIFY2(view->chart()->width() == during,
                 qPrintable(QStringLiteral("%1 px during the run, %2 after").arg(during).arg(view->chart()->width())));
    }

    // A task with exact answers: the held-out and training accuracy drawn on the loss chart's second
    // axis and read out (modular-addition: both), the length table empty (one sequence length).
    void answerTaskShowsAccuracy()
    {
        auto view = makeView(40);
        ParamValues v = view->values();
        v.texts["task"] = "modular-addition";
        v.numbers["p"] = 7;
        QCOMPARE(view->setValues(v), QString());
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(std::isfinite(view->result()->accuracy));
        QVERIFY(view->chart()->accuracyShown());
        QVERIFY(view->readouts()->value(QStringLiteral("accuracy")).contains(QStringLiteral("training pairs")));
        QCOMPARE(view->lengthTable()->rowCount(), 0);
    }

    // The filled table beside the curves on a slide with the parameter column shown (1024 px, fonts
    // at 1.3): every cell whole, no scroll bar (it read "0.…" and lost its 4T column).
    void filledTableIsWholeOnASlideWithParameters()
    {
        auto view = makeView(40);
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        // As lecture mode sets it: the application's font 1.6 times larger, the charts' 1.3.
        const test::LectureFont font;
        for (int k = 0; k < 4; ++k) QCoreApplication::processEvents();
        view->setPresentationScale(1.3);
        view->resize(1024, 680);
        for (int k = 0; k < 4; ++k) QCoreApplication::processEvents();
        view->setSideVisible(true);  // F6, once the fonts are in: the column takes the width they need
        for (int k = 0; k < 4; ++k) QCoreApplication::processEvents();
        QStringList problems;
        layoutwalk::checkCells(view->lengthTable(), problems);
        // and the parameter column beside is not squeezed
        if (auto *side = view->findChild<QScrollArea *>(QStringLiteral("labSide"))) layoutwalk::walkPanel(side->widget(), problems);
        const bool scrolls = view->lengthTable()->horizontalScrollBar()->isVisible();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(!scrolls);
    }

    // Replay during a run: the slider's left end holds an early frame (maps, the marker on the
    // curves) while newer frames are recorded; its right end is live again.
    void replayDuringARun()
    {
        auto view = makeView(100000);
        view->start();
        ReplayBar *replay = view->interpret()->replay();
        QTRY_VERIFY_WITH_TIMEOUT(replay->framesKept() >= 3, kPatienceMs);
        QVERIFY(replay->live());
        replay->slider()->setValue(0);
        QVERIFY(!replay->live());
        const int step = view->chart()->replayStep();
        QVERIFY(step >= 0);
        const QString title = view->maps()->data().title;
        QVERIFY2(title.endsWith(QStringLiteral("step %1").arg(step)), qPrintable(title));
        const int kept = replay->framesKept();
        QTRY_VERIFY_WITH_TIMEOUT(replay->framesKept() > kept || view->lastFrameStep() > step + 50, kPatienceMs);
        QCOMPARE(view->maps()->data().title, title);  // held while the run goes on
        QVERIFY(!view->readouts()->value(QStringLiteral("replay")).isEmpty());
        replay->slider()->setValue(replay->slider()->maximum());
        QVERIFY(replay->live());
        QCOMPARE(view->chart()->replayStep(), -1);
        // a slide's "replay" asked during the run is held once the run ends; after it, at once
        view->holdReplayAt(0);
        QVERIFY(replay->live());
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(!replay->live());
        QVERIFY(view->chart()->replayStep() >= 0);
        replay->slider()->setValue(replay->slider()->maximum());
        view->holdReplayAt(0);
        QVERIFY(!replay->live());
    }

    // What the parameters say is what the charts show. A change after a run has ended sets the run
    // aside as a labelled ghost beside the untrained preview of the new values; one during a run is
    // announced (panel and progress bar), and when that run ends it is set aside the same way.
    void runsOfOtherValuesAreCleared()
    {
        auto view = makeView(60);
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QCOMPARE(view->stepsDone(), 60);
        ParamValues v = view->values();
        v.numbers["seed"] = 7;
        QCOMPARE(view->setValues(v), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Idle, kPatienceMs);
        QCOMPARE(view->stepsDone(), 0);
        QCOMPARE(view->chart()->ghostCount(), 1);  // the ended run, labelled, to compare with
        QVERIFY(!view->result().has_value());
        QCOMPARE(view->lengthTable()->rowCount(), 0);

        v.numbers["steps"] = 100000;
        QCOMPARE(view->setValues(v), QString());
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 0, kPatienceMs);
        v.numbers["seed"] = 8;  // during the run
        QCOMPARE(view->setValues(v), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->progressBar()->format().contains(QStringLiteral("new values at the next Start")), kPatienceMs);
        QCOMPARE(view->state(), TransformerView::State::Running);
        QTRY_VERIFY_WITH_TIMEOUT(view->readouts()->note().contains(QStringLiteral("new values apply")), kPatienceMs);
        // the run's values again: that note goes, and only that one (a result drawn with the run's
        // values cleared any note, an opened model's "choose its text file" among them)
        v.numbers["seed"] = view->runValues().number("seed");
        QCOMPARE(view->setValues(v), QString());
        QTRY_VERIFY2_WITH_TIMEOUT(view->readouts()->note().isEmpty(), qPrintable(view->readouts()->note()), kPatienceMs);
        // a result drawn with the run's values (as a model's preview that comes while it is opened)
        view->readouts()->setNote(QStringLiteral("Opened m.fbmodel."));
        struct Shown : TransformerView {
            static void call(TrainingLabView *lab) { (lab->*(&Shown::valuesShown))(); }
        };
        Shown::call(view.get());
        QCOMPARE(view->readouts()->note(), QStringLiteral("Opened m.fbmodel."));
        v.numbers["seed"] = 8;  // other values again: the run that ends is set aside
        QCOMPARE(view->setValues(v), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->readouts()->note().contains(QStringLiteral("new values apply")), kPatienceMs);
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Idle, kPatienceMs);
        QCOMPARE(view->chart()->ghostCount(), 2);  // the run that ended, labelled
        QCOMPARE(view->stepsDone(), 0);
        QVERIFY(view->runValues() != view->values());
    }

    // Choosing task = text in the panel brings the text's model size (chosen before its file: both
    // apply once the file is chosen); the vocabulary row says it comes from the text; back to an
    // induction task, the induction sizes.
    void textTaskBringsItsSize()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        writeText(path);
        TransformerView view;
        ParamPanel *panel = view.panel();
        panel->setFileChooser([path](const QString &) { return path; });
        QComboBox *task = nullptr;
        for (QComboBox *c : panel->findChildren<QComboBox *>())
            if (c->findText(QStringLiteral("text")) >= 0) task = c;
        QVERIFY(task);
        task->setCurrentText(QStringLiteral("text"));  // refused: no file yet
        QCOMPARE(QString::fromStdString(view.values().text("task")), QStringLiteral("induction-fixed"));
        panel->browse("text");
        QCOMPARE(QString::fromStdString(view.values().text("task")), QStringLiteral("text"));
        QCOMPARE(view.values().number("layers"), 4.0);
        QCOMPARE(view.values().number("d_model"), 128.0);
        QCOMPARE(view.values().number("seq_len"), 64.0);
        QCOMPARE(view.values().number("weight_decay"), 0.1);
        QVERIFY(panel->note("vocab").contains(QStringLiteral("from the text")));
        task->setCurrentText(QStringLiteral("induction"));
        QCOMPARE(view.values().number("d_model"), 64.0);
        QVERIFY(panel->note("vocab").isEmpty());
    }

    // A text run: the writing panel writes with the weights of a snapshot while the model trains, the
    // characters themselves ("-->" stays "-->"), one attention strip per head over the cache, the
    // cache's bytes and both speeds; after the run, with the trained model.
    void writesWhileTraining()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        writeText(path);
        auto view = std::make_unique<TransformerView>();
        ParamValues v = fb::test::textValues(view->values(), path, { { "seq_len", 16 }, { "batch", 4 }, { "layers", 2 },
                                                                     { "heads", 2 }, { "d_model", 16 }, { "steps", 100000 },
                                                                     { "eval_every", 50 } });
        QCOMPARE(view->setValues(v), QString());
        view->resize(1024, 700);
        view->show();
        WritingPanel *w = view->writing();
        QTRY_VERIFY_WITH_TIMEOUT(w->isVisible(), kPatienceMs);
        QVERIFY(!w->writeButton()->isEnabled());  // nothing to write with yet
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(w->model() != nullptr, kPatienceMs);
        w->prompt()->setText(QStringLiteral("-->"));
        w->length()->setValue(40);
        w->pace()->setValue(0);
        w->write();
        QVERIFY(w->isWriting());
        QTRY_VERIFY_WITH_TIMEOUT(!w->isWriting(), kPatienceMs);
        const QString out = w->output()->toPlainText();
        QVERIFY2(out.startsWith(QStringLiteral("-->")) && out.size() == 43, qPrintable(out));
        QCOMPARE(w->strips()->layers(), 2);
        QCOMPARE(w->strips()->heads(), 2);
        QVERIFY(w->strips()->positions() >= 8 && w->strips()->positions() <= 16);
        QVERIFY2(w->cacheLine()->text().contains(QStringLiteral("bytes")), qPrintable(w->cacheLine()->text()));
        QVERIFY2(w->speedLine()->text().contains(QStringLiteral("with the cache")), qPrintable(w->speedLine()->text()));
        view->stop();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, kPatienceMs);
        QVERIFY(view->result() && view->result()->model);
        QCOMPARE(w->model(), view->result()->model);
        QVERIFY(view->modelToSave().has_value());
        // Stopped halfway: the writing is abandoned and joined when the lab goes.
        w->pace()->setValue(5);
        w->write();
        view.reset();
    }

    // Closing while training abandons the run and joins its thread.
    void closeWhileTraining()
    {
        auto view = makeView(100000);
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->stepsDone() > 0 || view->framesShown() > 0, kPatienceMs);
        view.reset();
    }

    // An animation records the single run too: the loss curve up to the step and the replay's maps of
    // that step, then the whole run again at the last frame.
    void replayShowsAStep()
    {
        auto view = makeView(60);
        QCOMPARE(view->startTraining(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->isTrained(), kPatienceMs);
        QCOMPARE(view->replaySteps(), 60);
        QCOMPARE(int(view->chart()->losses().size()), 60);
        const int points = view->chart()->heldoutPoints();
        view->showStep(30);
        QCOMPARE(int(view->chart()->losses().size()), 30);
        QCOMPARE(view->chart()->heldoutPoints(), 2);  // steps 0 and 20
        view->showStep(view->replaySteps());
        QCOMPARE(int(view->chart()->losses().size()), 60);
        QCOMPARE(view->chart()->heldoutPoints(), points);
        QCOMPARE(view->chart()->replayStep(), -1);  // live again
    }
};

QTEST_MAIN(TestTransformerView)
#include "tst_transformer_view.moc"
