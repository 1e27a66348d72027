// The main window: labs listed and switchable, export writes complete PNGs or nothing,
// the last lab and geometry come back, closing is clean.
#include "app/lecture/lecture_mode.h"
#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "app/window/model_actions.h"
#include "views/training/transformer_loss_chart.h"
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/replay_bar.h"
#include "views/training/transformer_view.h"
#include "views/writing/writing_panel.h"
#include "core/lab/lab.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "support/test_settings.h"
#include "support/text_run.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonDocument>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace fb;

namespace {
// Writes a scene or deck file for a test; false when it cannot be written.
bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
}

// Fraction of pixels that are not (near) white: a blank export scores ~0.
double inkFraction(const QImage &image)
{
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    qint64 ink = 0;
    for (int y = 0; y < img.height(); y += 2) {
        const QRgb *row = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); x += 2)
            if (qRed(row[x]) < 230 || qGreen(row[x]) < 230 || qBlue(row[x]) < 230) ++ink;
    }
    return double(ink) / (double(img.width() / 2) * double(img.height() / 2));
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        fb::test::useFreshTestSettings(QStringLiteral("FullBandTest"));
    }

    void listsEveryLab()
    {
        // Core's list of the window's labs, in its order: the registry under test is not the reference.
        std::vector<const LabSpec *> expected;
        for (const LabDefinition &def : labDefinitions())
            if (def.inWindow) expected.push_back(&def.spec());
        QVERIFY(expected.size() >= 10);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *list = w.findChild<QListWidget *>(QStringLiteral("labList"));
        QVERIFY(list);
        QCOMPARE(list->count(), int(expected.size()));
        QCOMPARE(w.labCount(), int(expected.size()));
        for (int i = 0; i < list->count(); ++i) {
            const QString title = QString::fromStdString(expected[std::size_t(i)]->title);
            // The title is the tooltip always, and the text unless the list is narrowed to icons (below 1200 px).
            QCOMPARE(list->item(i)->toolTip(), title);
            QVERIFY(list->item(i)->text().isEmpty() || list->item(i)->text() == title);
            w.showLab(i);
            QCOMPARE(w.currentLab(), w.lab(i));
            QCOMPARE(w.currentLab()->name(), QString::fromStdString(expected[std::size_t(i)]->name));
        }
    }

    void exportsCompleteNonBlankPngs()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        for (int i = 0; i < w.labCount(); ++i) {
            // the training labs train first; their own tests export them
            if (w.lab(i)->name() == QLatin1String("training") || w.lab(i)->name() == QLatin1String("transformer")) continue;
            w.showLab(i);
            const QString path = dir.filePath(QStringLiteral("lab%1.png").arg(i));
            w.currentLab()->waitForResult();  // export draws what is shown: the result first
            QCOMPARE(w.exportChart(0, path, QSize(800, 500), 2.0), QString());
            QImage img(path);
            QCOMPARE(img.size(), QSize(1600, 1000));
            const double ink = inkFraction(img);
            QVERIFY2(ink > 0.01, qPrintable(QStringLiteral("%1: ink %2").arg(w.lab(i)->name()).arg(ink)));
        }
    }

    void exportAllWritesOneFilePerChart()
    {
        MainWindow w;
        w.show();
        QTemporaryDir dir;
        w.showLab(labIndex(QStringLiteral("decay-bound")));
        w.currentLab()->waitForResult();  // export draws what is shown: the result first
        QCOMPARE(w.exportAllCharts(dir.path(), QSize(640, 400), 1.0), QString());
        QCOMPARE(QDir(dir.path()).entryList({ QStringLiteral("*.png") }).size(),
                 w.currentLab()->exportables().size());
    }

    void failedExportLeavesNothing()
    {
        MainWindow w;
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/x.png"));
        QVERIFY(!w.exportChart(0, missing, QSize(640, 400), 1.0).isEmpty());
        QVERIFY(!QFile::exists(missing));
        QVERIFY(!w.exportChart(99, dir.filePath(QStringLiteral("y.png")), QSize(640, 400), 1.0).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("y.png"))));
    }

    // File → Save model after a tiny text run; File → Open model in a fresh window restores the lab as
    // it ended (losses, held-out loss, length table) and writes; a damaged file gets one line naming
    // what is wrong and changes nothing.
    void savesAndOpensAModel()
    {
        QTemporaryDir dir;
        const QString text = dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < 40; ++i) f.write("the cat sat on the mat; ");
        }
        const QString model = dir.filePath(QStringLiteral("notes.fbmodel"));
        const int index = labIndex(QStringLiteral("transformer"));
        QVERIFY(index >= 0);
        std::vector<double> losses;
        {
            MainWindow w;
            auto *view = qobject_cast<TransformerView *>(w.lab(index));
            auto *actions = w.findChild<ModelActions *>();
            QVERIFY(view && actions);
            QVERIFY(!actions->saveModel(model).isEmpty());  // nothing trained yet
            const ParamValues v = fb::test::textValues(view->values(), text, { { "seq_len", 8 }, { "batch", 4 }, { "layers", 1 },
                                                                         { "heads", 2 }, { "d_model", 8 }, { "steps", 30 },
                                                                         { "eval_every", 10 } });
            QCOMPARE(view->setValues(v), QString());
            view->start();
            QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, 120000);
            losses = view->chart()->losses();
            QSignalSpy saved(actions, &ModelActions::finished);
            QCOMPARE(actions->saveModel(model), QString());
            QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 120000);
            QCOMPARE(saved.at(0).at(0).toString(), QString());
        }
        MainWindow fresh;
        fresh.show();
        auto *view = qobject_cast<TransformerView *>(fresh.lab(0 + index));
        auto *actions = fresh.findChild<ModelActions *>();
        QSignalSpy opened(actions, &ModelActions::finished);
        // A damaged file: one line, the lab unchanged.
        const QString bad = dir.filePath(QStringLiteral("bad.fbmodel"));
        {
            QFile in(model), out(bad);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            out.write(in.readAll().left(100));
        }
        // The text file is known in this window (a model file keeps no path): the panel takes the
        // model's values.
        ParamValues known = view->values();
        known.texts["text"] = text.toStdString();
        QCOMPARE(view->setValues(known), QString());
        const ParamValues before = view->values();
        QCOMPARE(actions->openModel(bad), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 120000);
        const QString error = opened.at(0).at(0).toString();
        QVERIFY2(!error.isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(error));
        QVERIFY(view->values() == before);
        QCOMPARE(view->state(), TransformerView::State::Idle);
        QCOMPARE(actions->openModel(model), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 120000);
        QCOMPARE(opened.at(1).at(0).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, 120000);
        QCOMPARE(fresh.currentLab(), fresh.lab(index));
        QVERIFY(view->chart()->losses() == losses);
        QVERIFY(view->result() && std::isfinite(view->result()->heldoutLoss));
        QCOMPARE(view->values().number("d_model"), 8.0);
        WritingPanel *w = view->writing();
        QTRY_VERIFY_WITH_TIMEOUT(w->isVisible() && w->model(), 120000);
        w->length()->setValue(20);
        w->pace()->setValue(0);
        w->write();
        QTRY_VERIFY_WITH_TIMEOUT(!w->isWriting(), 120000);
        QCOMPARE(w->output()->toPlainText().size(), 4 + 20);  // after the prompt "The "

        // A slide naming the model file (relative to the slide's folder) and a replay step: the
        // model opens as trained (the replay step itself: tst_transformer_view::replayDuringARun).
        const QString slide = dir.filePath(QStringLiteral("slide.fullband"));
        QVERIFY(writeFile(slide, QStringLiteral("{\"format\": 1, \"lab\": \"transformer\", \"model\": \"%1\", \"replay\": 10}")
                                     .arg(QFileInfo(model).fileName()).toUtf8()));
        QCOMPARE(fresh.openPath(slide), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 3, 120000);
        QCOMPARE(opened.at(2).at(0).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TransformerView::State::Done, 120000);
        QVERIFY(view->chart()->losses() == losses);
        // the model file kept the run's replay (a snapshot at every held-out evaluation at least): the
        // slide holds the frame of step 10, as it was trained
        QVERIFY(view->interpret()->replay()->framesKept() >= 3);
        QVERIFY(!view->interpret()->replay()->live());
        // the frame's maps are drawn from values a worker hands back: wait for them, not for a fixed time
        QTRY_COMPARE_WITH_TIMEOUT(view->chart()->replayStep(), 10, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(view->maps()->data().title.endsWith(QStringLiteral("step 10")), 120000);
        // and one naming a damaged file: its one line, the lab as it was
        const QString badSlide = dir.filePath(QStringLiteral("bad-slide.fullband"));
        QVERIFY(writeFile(badSlide, "{\"format\": 1, \"lab\": \"transformer\", \"model\": \"bad.fbmodel\"}"));
        const double kept = view->result()->heldoutLoss;
        const ParamValues beforeSlide = view->values();
        QCOMPARE(fresh.openPath(badSlide), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 4, 120000);
        QVERIFY(!opened.at(3).at(0).toString().isEmpty());
        QVERIFY(view->result() && view->result()->heldoutLoss == kept);
        QVERIFY(view->values() == beforeSlide);
        QCOMPARE(fresh.currentLab(), fresh.lab(index));

        // In a window that does not know the text (a model brought to class): the panel shows the
        // model's own values all the same, its text file empty, and Train asks for the file in one
        // line, the opened model kept.
        MainWindow other;
        other.show();
        auto *view2 = qobject_cast<TransformerView *>(other.lab(index));
        auto *actions2 = other.findChild<ModelActions *>();
        QVERIFY(view2 && actions2 && view2->values().text("text").empty());
        QSignalSpy opened2(actions2, &ModelActions::finished);
        QCOMPARE(actions2->openModel(model), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened2.count(), 1, 120000);
        QCOMPARE(opened2.at(0).at(0).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view2->state() == TransformerView::State::Done, 120000);
        QVERIFY(view2->chart()->losses() == losses);
        for (const auto &[key, value] : std::map<std::string, double> { { "d_model", 8 }, { "layers", 1 }, { "heads", 2 },
                                                                       { "seq_len", 8 }, { "steps", 30 } })
            QCOMPARE(view2->values().number(key), value);
        QCOMPARE(view2->values().text("task"), std::string("text"));
        QVERIFY(view2->values().text("text").empty());
        QVERIFY2(view2->readouts()->note().contains(QStringLiteral("choose its text file")),
                 qPrintable(view2->readouts()->note()));
        const double trained = view2->result()->heldoutLoss;
        view2->start();
        QCOMPARE(view2->state(), TransformerView::State::Done);
        QVERIFY2(view2->readouts()->note().contains(QStringLiteral("text must name")), qPrintable(view2->readouts()->note()));
        QVERIFY(view2->result() && view2->result()->heldoutLoss == trained);
        // Saved as a scene so: the scene names the model file (from the scene's folder) and leaves the
        // unknown text out (an empty text would be refused when the scene is opened).
        const QString sceneOfModel = dir.filePath(QStringLiteral("opened.fullband"));
        QCOMPARE(other.saveScene(sceneOfModel), QString());
        {
            QFile in(sceneOfModel);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QJsonObject o = QJsonDocument::fromJson(in.readAll()).object();
            QCOMPARE(o.value(QStringLiteral("model")).toString(), QFileInfo(model).fileName());  // from the scene's folder
            QVERIFY(!o.value(QStringLiteral("params")).toObject().contains(QStringLiteral("text")));
            QCOMPARE(o.value(QStringLiteral("params")).toObject().value(QStringLiteral("d_model")).toDouble(), 8.0);
        }
        // Browse… with the text: the rules hold again, and the lab's preview with them.
        QVERIFY(view2->panel()->rulesSkipped());
        QCOMPARE(view2->panel()->setValue("text", text.toStdString()), QString());
        QVERIFY(!view2->panel()->rulesSkipped());
        QCOMPARE(view2->values().number("d_model"), 8.0);

        // A slide that names the model and its text: a window that knew neither takes both.
        const QString withText = dir.filePath(QStringLiteral("with-text.fullband"));
        QVERIFY(writeFile(withText, QJsonDocument(QJsonObject {
            { QStringLiteral("format"), 1 }, { QStringLiteral("lab"), QStringLiteral("transformer") },
            { QStringLiteral("params"), QJsonObject { { QStringLiteral("text"), text } } },
            { QStringLiteral("model"), QFileInfo(model).fileName() } }).toJson()));
        MainWindow third;
        third.show();
        auto *view3 = qobject_cast<TransformerView *>(third.lab(index));
        QSignalSpy opened3(third.findChild<ModelActions *>(), &ModelActions::finished);
        QCOMPARE(third.openPath(withText), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened3.count(), 1, 120000);
        QCOMPARE(opened3.at(0).at(0).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view3->state() == TransformerView::State::Done, 120000);
        QCOMPARE(view3->values().text("text"), text.toStdString());
        QCOMPARE(view3->values().number("d_model"), 8.0);
        QVERIFY(!view3->panel()->rulesSkipped());
        QVERIFY2(!view3->readouts()->note().contains(QStringLiteral("choose")), qPrintable(view3->readouts()->note()));
        // The scene saved from the model opened without its text opens here, with this window's text.
        QCOMPARE(third.openPath(sceneOfModel), QString());
        QTRY_COMPARE_WITH_TIMEOUT(opened3.count(), 2, 120000);
        QCOMPARE(opened3.at(1).at(0).toString(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view3->state() == TransformerView::State::Done, 120000);
        QCOMPARE(view3->values().text("text"), text.toStdString());
        QVERIFY(!view3->panel()->rulesSkipped());

        // A deck's slide naming the model without its text, in lecture mode: the header offers the
        // text file, not space (which would only refuse). Once the file is chosen the lab stands at
        // the model's values, its run cleared as for any change of values, and space trains them.
        const QString deck = dir.filePath(QStringLiteral("class.fullband"));
        QVERIFY(writeFile(deck, QJsonDocument(QJsonObject {
            { QStringLiteral("format"), 1 }, { QStringLiteral("deck"), QStringLiteral("Brought to class") },
            { QStringLiteral("scenes"), QJsonArray { QJsonObject { { QStringLiteral("lab"), QStringLiteral("transformer") },
                                                                   { QStringLiteral("model"), QFileInfo(model).fileName() } } } } })
                                    .toJson()));
        MainWindow fourth;
        fourth.show();
        auto *view4 = qobject_cast<TransformerView *>(fourth.lab(index));
        QSignalSpy opened4(fourth.findChild<ModelActions *>(), &ModelActions::finished);
        QCOMPARE(fourth.openPath(deck), QString());
        fourth.lecture()->enter();
        QTRY_COMPARE_WITH_TIMEOUT(opened4.count(), 1, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(view4->state() == TransformerView::State::Done, 120000);
        QTRY_VERIFY2_WITH_TIMEOUT(fourth.lecture()->header()->text().contains(QStringLiteral("choose its text file to train again")),
                                  qPrintable(fourth.lecture()->header()->text()), 120000);
        QVERIFY(!fourth.lecture()->header()->text().contains(QStringLiteral("space")));
        QCOMPARE(view4->panel()->setValue("text", text.toStdString()), QString());
        QTRY_COMPARE_WITH_TIMEOUT(view4->state(), TransformerView::State::Idle, 120000);
        QCOMPARE(view4->values().number("d_model"), 8.0);
        QTRY_VERIFY2_WITH_TIMEOUT(fourth.lecture()->header()->text().contains(QStringLiteral("space\u00a0trains")),
                                  qPrintable(fourth.lecture()->header()->text()), 120000);
        fourth.lecture()->leave();
    }

    void restoresLastLab()
    {
        const int target = labRegistry().size() - 1;
        {
            MainWindow w;
            w.show();
            w.showLab(target);
            w.close();
        }
        MainWindow again;
        QCOMPARE(again.currentLab()->name(), labRegistry()[target].name);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
