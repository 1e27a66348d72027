// Scenes in the window and lecture mode: every lab's scene round-trips, the shipped deck loads
// completely, PNG exports restore their scene, bad files keep the state, clicker keys step.
#include "app/lab_registry.h"
#include "app/lecture_mode.h"
#include "app/main_window.h"
#include "views/lab_view.h"
#include "views/param_panel.h"

#include <QImageReader>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
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
        QVERIFY(lecture->header()->text().contains(QStringLiteral("1 / ")));
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
};

QTEST_MAIN(TestLectureMode)
#include "tst_lecture_mode.moc"
