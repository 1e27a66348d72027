// Lecture mode on a projector: every slide of the shipped deck, full screen on one screen of the
// size FULLBAND_SCREEN names (default 1024x768; CTest runs it at 1024 x 768 and 1920 x 1080),
// with the parameter column hidden (as a slide starts) and shown (F6). The same walk as tst_layout: no label or button text cut, no widget sticking out of
// its parent or lying on a sibling, and inside every chart (Qt Charts, heatmaps, the positional
// table) no text cut, shortened or outside the chart.
// The walk starts after a run of the transformer's text task in the window, as a lecturer's
// rehearsal would leave it. On a slide with neither column nor explanation no text scrolls.
// With FULLBAND_SHOTS=folder it also writes a screenshot of every slide there (plain, F6, F7).
#include "app/lecture/lecture_mode.h"
#include "app/registry/lab_registry.h"
#include "views/training/training_lab_view.h"
#include "app/window/main_window.h"
#include "app/lecture/slide_player.h"
#include "views/lab/lab_view.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "support/layout_walk.h"
#include "support/offscreen_screens.h"
#include "support/sanitized.h"
#include "support/test_settings.h"
#include "support/text_run.h"
#include "views/writing/writing_tabs.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include <map>

using namespace fb;
using namespace fb::layoutwalk;

namespace {

const QString kDeck = QStringLiteral(FULLBAND_SOURCE_DIR "/resources/decks/road-to-transformers.fullband");

QSize screenSize()
{
    const QStringList parts = qEnvironmentVariable("FULLBAND_SCREEN", QStringLiteral("1024x768")).split(QLatin1Char('x'));
    const QSize size = parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
    return size.isValid() && !size.isEmpty() ? size : QSize(1024, 768);
}

void settle()
{
    for (int k = 0; k < 10; ++k) QCoreApplication::processEvents();
}

} // namespace

class TestLectureLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // One settings file per screen size: CTest runs the two sizes side by side, and a window
        // geometry saved at 1920 x 1080 would be restored on the 1024 x 768 screen.
        const QSize screen = screenSize();
        fb::test::useFreshTestSettings(QStringLiteral("FullBandLectureLayoutTest-%1x%2").arg(screen.width()).arg(screen.height()));
        QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), screenSize());
    }

    // As main() starts FullBand: a first start (no settings) that opens a scene naming each lab,
    // then shows the window. It fills at most the screen, whatever the lab needs while it is laid
    // out for the first time (the gated-fusion lab once left its window 78 px below the screen).
    void firstStartFitsTheScreen_data()
    {
        QTest::addColumn<QString>("lab");
        MainWindow probe;
        for (int i = 0; i < probe.labCount(); ++i) {
            const QString name = probe.lab(i)->name();
            // Under the sanitizers two labs (a window of its own each): the first start's geometry
            // is the Release build's to check for every lab, its memory the same code for each.
            if (sanitizedBuild() && i > 0 && name != QLatin1String("transformer")) continue;
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void firstStartFitsTheScreen()
    {
        QFETCH(QString, lab);
        QSettings().clear();
        // This process's own file: CTest runs the two screen sizes side by side.
        const QString scene = QDir::temp().filePath(QStringLiteral("fullband-first-start-%1-%2.fullband")
                                                        .arg(QCoreApplication::applicationPid()).arg(lab));
        {
            QFile f(scene);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral(R"({"format":1,"lab":"%1","params":{}})").arg(lab).toUtf8());
        }
        MainWindow w;
        QCOMPARE(w.openPath(scene), QString());
        QFile::remove(scene);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.currentLab()->LabView::waitForResult();
        settle();
        const QRect available = w.screen()->availableGeometry();
        // Within a moment (a loaded machine lays the lab out later).
        QTRY_VERIFY2_WITH_TIMEOUT(available.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("%1: the window lies at %2,%3 %4 x %5, the screen offers %6 x %7 (minimum %8 x %9)")
                                .arg(lab).arg(w.frameGeometry().x()).arg(w.frameGeometry().y())
                                .arg(w.frameGeometry().width()).arg(w.frameGeometry().height())
                                .arg(available.width()).arg(available.height())
                                .arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())), 3000);
        QSettings().clear();
    }

    // A slide of the transformer lab on the text task, trained for a moment, written with and a
    // sentence probed: the writing panel and its cache strips at lecture size, with and without the
    // parameter column.
    void textSlideFits()
    {
        const QSize screen = screenSize();
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *view = qobject_cast<TransformerView *>(w.lab(labIndex(QStringLiteral("transformer"))));
        QVERIFY(view);
        Deck deck;
        Scene scene;
        scene.lab = QStringLiteral("transformer");
        scene.title = QStringLiteral("Your own text");
        scene.values = fb::test::tinyTextValues(view->values(), fb::test::writeLabText(dir.path()));
        deck.scenes << scene;
        LectureMode *lecture = w.lecture();
        lecture->setDeck(deck);
        lecture->enter();
        QCOMPARE(lecture->show(0), QString());
        QVERIFY(fb::test::trainWriteAndProbe(view));
        settle();
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        QStringList problems;
        // (A text model's 16 heads stand in one row at 1024 x 768: maps of about 30 px, whose colour
        // bar is shorter than its title "weight"; the title reaches past the bar's ends.)
        for (bool parameters : { false, true })
            for (int tab : { 0, 1 }) {  // the sentence's maps, the writing
                lecture->setParametersShown(parameters);
                view->tabs()->setCurrentIndex(tab);
                settle();
                QStringList found;
                walk(&w, found);
                found << chartProblems(view);
                const QString state = QStringLiteral("%1%2").arg(tab ? QStringLiteral("writing") : QStringLiteral("maps"),
                                                                 parameters ? QStringLiteral("-parameters") : QString());
                for (const QString &p : found) problems << state + QStringLiteral(": ") + p;
                if (!shots.isEmpty())
                    w.grab().save(QDir(shots).filePath(QStringLiteral("lecture-text-%1-%2x%3.png").arg(state)
                                                           .arg(screen.width()).arg(screen.height())));
            }
        lecture->leave();
        problems.removeDuplicates();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void everySlideFits()
    {
        const QSize screen = screenSize();
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // A short run of the text task first (its large vocabulary and losses stay in no slide).
        QTemporaryDir tmp;
        const QString textPath = tmp.filePath(QStringLiteral("notes.txt"));
        {
            QFile text(textPath);
            QVERIFY(text.open(QIODevice::WriteOnly));
            for (int k = 0; k < 40; ++k) text.write("Attention weighs every earlier token; the cache keeps their keys.\n");
        }
        w.showLab(labIndex(QStringLiteral("transformer")));
        auto *trainer = qobject_cast<TrainingLabView *>(w.currentLab());
        QVERIFY(trainer);
        // (The text task first, as a user chooses it: it brings its own sizes, which the small ones replace.)
        QCOMPARE(trainer->setValues(fb::test::textValues(trainer->values(), textPath, {})), QString());
        QCOMPARE(trainer->setValues(fb::test::textValues(trainer->values(), textPath,
                                                         { { "steps", 20 }, { "layers", 1 }, { "d_model", 32 },
                                                           { "seq_len", 32 }, { "batch", 4 } })),
                 QString());
        trainer->start();
        QTRY_VERIFY_WITH_TIMEOUT(trainer->state() == TrainingLabView::State::Done, 120000);

        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        lecture->enter();
        QStringList problems;
        const int slides = int(lecture->deck().scenes.size());
        for (int i = 0; i < slides; ++i) {
            QCOMPARE(lecture->show(i), QString());
            lecture->player()->stop();  // an animation slide: its first frame holds still
            LabView *lab = w.currentLab();
            // A training slide shows its lab before Start: the untrained preview, not a trained run
            // (the training labs' waitForResult trains to the end).
            lab->LabView::waitForResult();
            settle();
            const QString slide = QStringLiteral("slide %1 (%2)").arg(i + 1).arg(lab->name());
            auto check = [&](const QString &state) {
                QStringList found;
                if (w.size() != screen)
                    found << QStringLiteral("the window is %1 x %2").arg(w.width()).arg(w.height());
                walk(&w, found);
                if (lab->isSideVisible())
                    if (auto *side = lab->findChild<QScrollArea *>(QStringLiteral("labSide"))) walkPanel(side->widget(), found);
                found << chartProblems(lab);
                // A slide's own text (the costs lab's formulas) is whole, not behind a scroll bar.
                if (state.isEmpty())
                    for (const QScrollArea *area : lab->findChildren<QScrollArea *>())
                        if (area->isVisible() && area->objectName() != QLatin1String("labSide")
                            && area->verticalScrollBar()->maximum() > 0)
                            found << QStringLiteral("%1 scrolls (%2 px hidden)").arg(area->objectName())
                                         .arg(area->verticalScrollBar()->maximum());
                for (const QString &p : found) problems << slide + state + QStringLiteral(": ") + p;
            };
            check(QString());
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("lecture-%1-%2-%3x%4.png").arg(i + 1).arg(lab->name())
                                                       .arg(screen.width()).arg(screen.height())));
            lecture->setParametersShown(true);  // F6
            settle();
            check(QStringLiteral(", parameters shown"));
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("lecture-%1-%2-%3x%4-parameters.png").arg(i + 1)
                                                       .arg(lab->name()).arg(screen.width()).arg(screen.height())));
            lecture->setParametersShown(false);
            settle();
            w.setExplanationShown(true);  // F7: the explanation above the charts, at lecture size
            settle();
            check(QStringLiteral(", explanation shown"));
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("lecture-%1-%2-%3x%4-explanation.png").arg(i + 1)
                                                       .arg(lab->name()).arg(screen.width()).arg(screen.height())));
            w.setExplanationShown(false);
            settle();
        }
        lecture->leave();
        problems.removeDuplicates();
        for (const QString &p : problems) qWarning("%s", qPrintable(p));  // every one, not the first few
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The transformer's slide after a short run: the maps' page and the pages of the model taken
    // apart (a head off), at lecture size, parameters hidden, shown (F6), and the explanation (F7).
    void transformerTakenApartFits()
    {
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        lecture->enter();
        int slide = -1;
        for (int i = 0; i < int(lecture->deck().scenes.size()) && slide < 0; ++i) {
            QCOMPARE(lecture->show(i), QString());
            if (w.currentLab()->findChild<InterpretTabs *>()) slide = i;
        }
        QVERIFY(slide >= 0);
        lecture->player()->stop();
        auto *lab = qobject_cast<TrainingLabView *>(w.currentLab());
        QVERIFY(lab);
        lab->reset();  // the slide's own run (train on enter) abandoned: Idle
        QCOMPARE(lab->state(), TrainingLabView::State::Idle);
        ParamValues v = lab->values();
        v.numbers["steps"] = 20;
        v.texts["mixer"] = "softmax,gated-deltanet";  // every page, the linear mixers' states too
        QCOMPARE(lab->setValues(v), QString());
        lab->waitForResult();  // trains the 20 steps
        QCOMPARE(lab->stepsDone(), 20);
        auto *tabs = lab->findChild<InterpretTabs *>();
        tabs->ablation()->toggleHead(0, 0);
        tabs->ablation()->waitForWorker();
        QStringList problems;
        for (int page = 0; page < tabs->count(); ++page) {
            tabs->setCurrentIndex(page);
            settle();
            QStringList found;
            walk(&w, found);
            found << chartProblems(lab);
            for (const QString &p : found) problems << QStringLiteral("page %1: %2").arg(tabs->tabText(page), p);
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("lecture-transformer-run-page%1-%2x%3.png").arg(page)
                                                       .arg(w.width()).arg(w.height())));
            for (const bool parameters : { true, false }) {  // F6, then F7 instead
                lecture->setParametersShown(parameters);
                w.setExplanationShown(!parameters);
                settle();
                QStringList beside;  // the pages (the length table beside them is not theirs)
                walk(tabs, beside);
                beside << chartProblems(tabs);
                for (const QString &p : beside)
                    problems << QStringLiteral("page %1, %2 shown: %3").arg(tabs->tabText(page), parameters ? QStringLiteral("parameters") : QStringLiteral("explanation"), p);
            }
            lecture->setParametersShown(false);
            w.setExplanationShown(false);
            settle();
        }
        lecture->leave();
        problems.removeDuplicates();
        for (const QString &p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

// One offscreen screen of the projector's size: lecture mode goes full screen on it.
int main(int argc, char **argv)
{
    return fb::test::execOnScreens<TestLectureLayout>(argc, argv, { { QStringLiteral("projector"), screenSize() } });
}

#include "tst_lecture_layout.moc"
