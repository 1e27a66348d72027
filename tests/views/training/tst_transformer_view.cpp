// The transformer lab, offscreen: a small induction run trains on its worker while the window's
// event loop runs; the attention maps change while it trains (snapshots drawn live), pause parks
// the worker, and at the end the length table and the induction scores are shown. Tiny sizes, so
// that it takes seconds, also under the sanitizers.
#include "views/widgets/heatmap_grid.h"
#include "views/training/length_table.h"
#include "views/widgets/readout_panel.h"
#include "views/training/transformer_loss_chart.h"
#include "views/training/transformer_view.h"
#include "views/lab/param_panel.h"
#include "views/writing/cache_strips.h"
#include "views/writing/writing_panel.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTemporaryDir>

#include <QProgressBar>
#include <QPushButton>
#include <QTest>

#include <cmath>
#include <memory>

using namespace fb;

namespace {
constexpr int kPatienceMs = 120000;  // generous: a passing test never waits this long
} // namespace

class TestTransformerView : public QObject {
    Q_OBJECT
private:
    static std::unique_ptr<TransformerView> makeView(int steps)
    {
        auto view = std::make_unique<TransformerView>();
        ParamValues v = view->values();
        v.texts["task"] = "induction";
        v.numbers["vocab"] = 8;
        v.numbers["seq_len"] = 12;
        v.numbers["batch"] = 8;
        v.numbers["layers"] = 1;
        v.numbers["heads"] = 2;
        v.numbers["d_model"] = 16;
        v.numbers["steps"] = steps;
        v.numbers["eval_every"] = 20;
        const QString err = view->setValues(v);
        if (!err.isEmpty()) qFatal("%s", qPrintable(err));
        view->resize(1024, 700);
        view->show();
        return view;
    }

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
        ParamValues v = view->values();
        v.texts["task"] = "text";
        v.texts["text"] = path.toStdString();
        v.numbers["seq_len"] = 16;
        v.numbers["batch"] = 4;
        v.numbers["layers"] = 2;
        v.numbers["heads"] = 2;
        v.numbers["d_model"] = 16;
        v.numbers["steps"] = 100000;
        v.numbers["eval_every"] = 50;
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
};

QTEST_MAIN(TestTransformerView)
#include "tst_transformer_view.moc"
