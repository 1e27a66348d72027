// Scenes in the window and lecture mode: every lab's scene round-trips, the shipped deck loads
// completely, PNG exports restore their scene, bad files keep the state, clicker keys step.
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"
#include "views/compare/compare_panel.h"
#include "views/compare/compare_table.h"
#include "views/training/transformer_view.h"

#include <QAction>
#include <QImageReader>
#include <QScreen>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QSet>
#include <QTest>

using namespace fb;

namespace {
const QString kDeck = QStringLiteral(FULLBAND_SOURCE_DIR "/resources/decks/road-to-transformers.fullband");
}

class TestLectureMode : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandLectureTest"));
    }

    void everyLabRoundTripsThroughAFile()
    {
        MainWindow w;
        QTemporaryDir dir;
        for (int i = 0; i < w.labCount(); ++i) {
            w.showLab(i);
            const Scene before = w.currentScene();
            const QString path = dir.filePath(w.currentLab()->name() + QStringLiteral(".fullband"));
            QCOMPARE(w.saveScene(path), QString());
            w.showLab((i + 1) % w.labCount());
            QCOMPARE(w.openPath(path), QString());
            QCOMPARE(w.currentLab()->name(), before.lab);
            QVERIFY(w.currentScene().values == before.values);
        }
    }

    void shippedDeckLoadsCompletely()
    {
        const SceneParse parsed = readSceneFile(kDeck, labSpec);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QVERIFY(parsed.isDeck);
        QVERIFY(parsed.warnings.isEmpty());
        QVERIFY(parsed.deck.scenes.size() >= 7);
        MainWindow w;
        for (const Scene &s : parsed.deck.scenes) {
            QCOMPARE(w.applyScene(s), QString());
            QCOMPARE(w.currentLab()->name(), s.lab);
            QVERIFY(w.currentLab()->values() == s.values);
        }
    }

    void pngCarriesItsScene()
    {
        MainWindow w;
        w.show();
        w.showLab(labIndex(QStringLiteral("decay-bound")));
        ParamValues v = w.currentLab()->values();
        v.numbers["base"] = 500000;
        v.texts["scaling"] = "ntk";
        QCOMPARE(w.currentLab()->setValues(v), QString());
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("decay.png"));
        w.currentLab()->waitForResult();  // export draws what is shown: the result first
        QCOMPARE(w.exportChart(0, png, QSize(800, 500), 1.0), QString());
        QVERIFY(!QImageReader(png).text(QStringLiteral("fullband-scene")).isEmpty());
        QCOMPARE(w.currentLab()->setValues(w.currentLab()->panel()->spec().defaults()), QString());
        w.showLab(0);
        QCOMPARE(w.openPath(png), QString());
        QCOMPARE(w.currentLab()->name(), QStringLiteral("decay-bound"));
        QVERIFY(w.currentLab()->values() == v);
    }

    void badFilesKeepTheState()
    {
        MainWindow w;
        w.showLab(labIndex(QStringLiteral("decay-bound")));
        const Scene before = w.currentScene();
        QTemporaryDir dir;
        const QList<QByteArray> bad {
            "{ not json",
            "{\"format\": 2, \"lab\": \"decay-bound\"}",
            "{\"format\": 1, \"lab\": \"decay-bound\", \"params\": {\"d\": 63}}",
            "{\"format\": 1, \"lab\": \"nope\"}",
        };
        for (const QByteArray &bytes : bad) {
            const QString path = dir.filePath(QStringLiteral("bad.fullband"));
            QCOMPARE(writeFileAtomically(path, bytes), QString());
            QVERIFY(!w.openPath(path).isEmpty());
            QCOMPARE(w.currentLab()->name(), before.lab);
            QVERIFY(w.currentScene().values == before.values);
        }
        QVERIFY(!w.openPath(dir.filePath(QStringLiteral("missing.fullband"))).isEmpty());
    }

    void clickerKeysStepThroughTheDeck()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        QCOMPARE(lecture->position(), 0);
        lecture->enter();
        QVERIFY(lecture->isActive());
        QVERIFY(lecture->header()->isVisible());
        QVERIFY(lecture->header()->text().contains(QStringLiteral("1\u00a0/\u00a0")));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lecture->position(), 1);
        QCOMPARE(w.currentLab()->name(), lecture->deck().scenes[1].lab);
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(lecture->position(), 2);
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(lecture->position(), 1);
        for (int i = 0; i < 20; ++i) QTest::keyClick(&w, Qt::Key_PageDown);  // clamps at the end
        QCOMPARE(lecture->position(), int(lecture->deck().scenes.size()) - 1);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!lecture->isActive());
        QVERIFY(!lecture->header()->isVisible());
    }

    // A training slide shows the run its parameters say, never an earlier one: a transformer run of
    // other values (still running) is cleared when the slide comes, the slide starts its own
    // training on entering, and space pauses and resumes it (clickers have no Start key).
    void aTrainingSlideShowsItsOwnRunAndSpaceDrivesIt()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int index = labIndex(QStringLiteral("transformer"));
        QVERIFY(index >= 0);
        w.showLab(index);
        auto *lab = qobject_cast<TransformerView *>(w.currentLab());
        QVERIFY(lab);
        ParamValues before = lab->values();
        before.texts["task"] = "induction";
        before.numbers["steps"] = 100000;
        QCOMPARE(lab->setValues(before), QString());
        lab->start();
        QTRY_VERIFY_WITH_TIMEOUT(lab->stepsDone() > 0, 120000);  // the first step: seconds under the sanitizers

        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        int slide = -1;
        for (int i = 0; i < lecture->deck().scenes.size() && slide < 0; ++i)
            if (lecture->deck().scenes[i].lab == QLatin1String("transformer")) slide = i;
        QVERIFY2(slide >= 0, "the shipped deck has a transformer slide");
        QVERIFY(lecture->deck().scenes[slide].trainOnEnter);
        lecture->enter();
        QCOMPARE(lecture->show(slide), QString());
        QCOMPARE(w.currentLab(), lab);
        // The earlier run is gone; the slide's own run trains.
        QVERIFY(lab->runValues() == lecture->deck().scenes[slide].values);
        QCOMPARE(lab->stepsTotal(), int(lecture->deck().scenes[slide].values.integer("steps")));
        QVERIFY(lab->state() == TrainingLabView::State::Running || lab->state() == TrainingLabView::State::Done);
        if (lab->state() == TrainingLabView::State::Running) {
            QTest::keyClick(&w, Qt::Key_Space);
            QCOMPARE(lab->state(), TrainingLabView::State::Paused);
            QVERIFY(lecture->header()->text().contains(QStringLiteral("space\u00a0resumes")));
            QCOMPARE(lecture->position(), slide);  // space did not step the deck
            QTest::keyClick(&w, Qt::Key_Space);
            QCOMPARE(lab->state(), TrainingLabView::State::Running);
        }
        // Every slide of the deck, after that run of another task: a lab that trains shows no run but
        // one of the values its slide names (a run of other values would be stale on the projector).
        for (int i = 0; i < lecture->deck().scenes.size(); ++i) {
            QCOMPARE(lecture->show(i), QString());
            if (auto *trainer = qobject_cast<TrainingLabView *>(w.currentLab());
                trainer && trainer->state() != TrainingLabView::State::Idle)
            {
                QVERIFY2(trainer->runValues() == trainer->values(), qPrintable(QStringLiteral("slide %1").arg(i + 1)));
                if (trainer != lab) trainer->stop();  // the toy's slide trains on entering: not for this test
            }
        }
        QCOMPARE(lecture->show(slide), QString());
        // Ended (stopped here rather than trained to its end: the test waits for states, not steps).
        lab->stop();
        QTRY_VERIFY_WITH_TIMEOUT(lab->state() == TrainingLabView::State::Done, 120000);
        QTRY_VERIFY(lecture->header()->text().contains(QStringLiteral("space\u00a0retrains")));
        QTest::keyClick(&w, Qt::Key_Space);  // again, from the clicker's side of the room
        QVERIFY(lab->state() == TrainingLabView::State::Running || lab->state() == TrainingLabView::State::Done);
        lecture->leave();
        lab->reset();
    }

    // The shipped deck's comparison slide, after a single run on another slide: entering it clears
    // that run and trains its configurations side by side (a clicker has no Start key); space pauses
    // and resumes the comparison; the single-model slide afterwards leaves compare mode and trains
    // its own model again.
    void aComparisonSlideTrainsItsConfigurations()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        int single = -1, compare = -1;
        for (int i = 0; i < lecture->deck().scenes.size(); ++i) {
            const Scene &s = lecture->deck().scenes[i];
            if (s.lab != QLatin1String("transformer")) continue;
            if (s.extra.contains(QStringLiteral("compare"))) compare = compare < 0 ? i : compare;  // the first
            else if (single < 0) single = i;
        }
        QVERIFY2(single >= 0 && compare >= 0, "the shipped deck has a single and a comparison transformer slide");
        QVERIFY(lecture->deck().scenes[compare].trainOnEnter);
        lecture->enter();
        QCOMPARE(lecture->show(single), QString());
        auto *lab = qobject_cast<TransformerView *>(w.currentLab());
        QVERIFY(lab);
        QVERIFY(!lab->compareMode());
        QVERIFY(lab->state() != TrainingLabView::State::Idle);
        QCOMPARE(lecture->show(compare), QString());
        QCOMPARE(w.currentLab(), lab);
        QVERIFY(lab->compareMode());
        QVERIFY(lab->comparing());
        QCOMPARE(lab->comparePanel()->table()->rowCount(), 3);
        QVERIFY(lab->state() == TrainingLabView::State::Running || lab->state() == TrainingLabView::State::Done);
        if (lab->state() == TrainingLabView::State::Running) {
            QTest::keyClick(&w, Qt::Key_Space);
            QCOMPARE(lab->state(), TrainingLabView::State::Paused);
            QVERIFY(lecture->header()->text().contains(QStringLiteral("space\u00a0resumes")));
            QTest::keyClick(&w, Qt::Key_Space);
            QCOMPARE(lab->state(), TrainingLabView::State::Running);
            lab->stop();
        }
        QTRY_VERIFY_WITH_TIMEOUT(lab->state() == TrainingLabView::State::Done, 120000);
        QCOMPARE(lab->comparePanel()->table()->rowCount(), 3);
        QVERIFY(!lab->comparePanel()->running());
        // back to the single model's slide: one model again, trained anew on entering
        QCOMPARE(lecture->show(single), QString());
        QVERIFY(!lab->compareMode());
        QVERIFY(!lab->comparing());
        QVERIFY(lab->state() == TrainingLabView::State::Running || lab->state() == TrainingLabView::State::Done);
        QVERIFY(lab->runValues() == lecture->deck().scenes[single].values);
        lab->stop();
        QTRY_VERIFY_WITH_TIMEOUT(lab->state() == TrainingLabView::State::Done, 120000);
        lecture->leave();
        lab->reset();
    }

    // Every slide of the shipped deck fits a 1024 x 768 projector: no slide (its title in the
    // header, its lab) asks the window for more width or height than the screen has.
    void everySlideFitsTheProjector()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        lecture->enter();
        for (int i = 0; i < lecture->deck().scenes.size(); ++i) {
            QCOMPARE(lecture->show(i), QString());
            QCoreApplication::processEvents();
            const QSize need = w.minimumSizeHint();
            QVERIFY2(need.width() <= 1024 && need.height() <= 768,
                     qPrintable(QStringLiteral("slide %1 (%2) needs %3 x %4").arg(i + 1)
                                    .arg(lecture->deck().scenes[i].title).arg(need.width()).arg(need.height())));
            QVERIFY2(lecture->header()->minimumSizeHint().width() <= 1024,
                     qPrintable(lecture->header()->text()));
            // where the header wraps, no line starts with its separator: a no-break space before each dot
            const QString text = lecture->header()->text();
            for (qsizetype at = text.indexOf(QChar(0x00b7)); at >= 0; at = text.indexOf(QChar(0x00b7), at + 1))
                QVERIFY2(at > 0 && text.at(at - 1) == QChar(0x00a0), qPrintable(text));
            QVERIFY(text.contains(QChar(0x00b7)));
            // a training slide's header keeps its lines whatever space does now: the state's words
            // are of about one length, and the slide below does not jump when it changes
            if (qobject_cast<TrainingLabView *>(w.currentLab())) {
                QLabel *header = lecture->header();
                const QString base = text.left(text.lastIndexOf(QChar(0x00b7)) + 1);
                QSet<int> heights;
                for (const QString &state : LectureMode::spaceWords(header->font())) {
                    header->setText(base + QStringLiteral("   ") + state);
                    heights << header->heightForWidth(header->width());
                }
                header->setText(text);
                QVERIFY2(heights.size() == 1, qPrintable(QStringLiteral("slide %1: %2").arg(i + 1).arg(text)));
            }
        }
        lecture->leave();
    }

    // A clicker and the keyboard drive lecture mode: the window's shortcuts work with the menu bar
    // hidden, B and . black the screen out, the header counts the slides in letters 4% of the
    // screen high.
    void keyboardAndClickerDriveLectureMode()
    {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QCOMPARE(w.openPath(kDeck), QString());
        LectureMode *lecture = w.lecture();
        const int slides = int(lecture->deck().scenes.size());

        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(lecture->isActive());
        QTRY_VERIFY_WITH_TIMEOUT(w.isActiveWindow(), 120000);
        lecture->header()->ensurePolished();
        const int screenHeight = w.screen()->geometry().height();
        QVERIFY2(lecture->header()->fontInfo().pixelSize() >= LectureMode::kTitleFraction * screenHeight - 1,
                 qPrintable(QStringLiteral("title %1 px on a %2 px screen")
                                .arg(lecture->header()->fontInfo().pixelSize()).arg(screenHeight)));
        QVERIFY(lecture->header()->text().contains(QStringLiteral("1\u00a0/\u00a0%1").arg(slides)));

        // F6 shows and hides the parameters.
        QVERIFY(!w.currentLab()->isSideVisible());
        QTest::keyClick(&w, Qt::Key_F6);
        QVERIFY(w.currentLab()->isSideVisible());
        QTest::keyClick(&w, Qt::Key_F6);
        QVERIFY(!w.currentLab()->isSideVisible());

        // Ctrl+2 opens the second lab; every shortcut of the menus is the window's too.
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(w.currentLab(), w.lab(1));
        for (const QKeySequence &key : { QKeySequence(Qt::Key_F5), QKeySequence(Qt::Key_F6),
                                         QKeySequence(Qt::CTRL | Qt::Key_E), QKeySequence(Qt::CTRL | Qt::Key_1) }) {
            bool found = false;
            for (QAction *a : w.actions()) found = found || a->shortcut() == key;
            QVERIFY2(found, qPrintable(key.toString()));
        }

        // The clicker: Page Down / Page Up step and the counter follows.
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lecture->position(), 1);
        QVERIFY(lecture->header()->text().contains(QStringLiteral("2\u00a0/\u00a0%1").arg(slides)));
        QCOMPARE(w.currentLab()->name(), lecture->deck().scenes[1].lab);

        // B blacks out, B again comes back on the same slide.
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(lecture->isBlack());
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(!lecture->isBlack());
        QCOMPARE(lecture->position(), 1);
        // . blacks out; Page Down comes back and steps.
        QTest::keyClick(&w, Qt::Key_Period);
        QVERIFY(lecture->isBlack());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QVERIFY(!lecture->isBlack());
        QCOMPARE(lecture->position(), 2);
        QTest::keyClick(&w, Qt::Key_Up);
        QCOMPARE(lecture->position(), 1);
        // Esc on a black screen only brings the slide back; Esc again leaves.
        QTest::keyClick(&w, Qt::Key_Period);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(lecture->isActive());
        QVERIFY(!lecture->isBlack());
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!lecture->isActive());
        // F5 enters and leaves.
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(lecture->isActive());
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(!lecture->isActive());
    }
};

QTEST_MAIN(TestLectureMode)
#include "tst_lecture_mode.moc"
