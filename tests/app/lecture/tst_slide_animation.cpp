// Slides that hold an animation (app/scene/scene_animation.h): the deck's "animation" object is checked
// like `fullband animate --sweep` (errors name the place and the valid range) and round-trips; in
// lecture mode the slide plays live in its lab (the swept value changes from frame to frame), space
// pauses (the value holds) and resumes, leaving the slide stops it; elsewhere space steps the deck.
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "app/scene/scene.h"
#include "app/lecture/slide_player.h"
#include "views/lab/lab_view.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

namespace {
const QString kDeck = QStringLiteral(FULLBAND_SOURCE_DIR "/resources/decks/road-to-transformers.fullband");

QByteArray deckWith(const QByteArray &animation)
{
    return "{\"format\": 1, \"deck\": \"x\", \"scenes\": [{\"lab\": \"capacity\"}, "
           "{\"lab\": \"decay-bound\", \"title\": \"sweep\", \"animation\": " + animation + "}, "
           "{\"lab\": \"capacity\"}]}";
}
} // namespace

class TestSlideAnimation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandSlideAnimationTest"));
    }

    void parsesAndRoundTrips()
    {
        const SceneParse r = parseSceneOrDeck(deckWith("{\"sweep\": \"base=100:1e6:log\", \"frames\": 40, \"fps\": 20}"), labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        QVERIFY(!r.deck.scenes[0].animation.isSet());
        const SceneAnimation &a = r.deck.scenes[1].animation;
        QCOMPARE(a.sweep, QStringLiteral("base=100:1e6:log"));
        QCOMPARE(a.frames, 40);
        QCOMPARE(a.fps, 20);
        const SceneParse again = parseSceneOrDeck(serializeDeck(r.deck, labSpec), labSpec);
        QVERIFY2(again.error.isEmpty(), qPrintable(again.error));
        QVERIFY(again.deck.scenes[1].animation == a);
        QVERIFY(!again.deck.scenes[0].animation.isSet());
        // frames and fps may be left out: 150 frames at 30 fps, as on the command line.
        const SceneParse d = parseSceneOrDeck(deckWith("{\"sweep\": \"d=16:128\"}"), labSpec);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.deck.scenes[1].animation.frames, 150);
        QCOMPARE(d.deck.scenes[1].animation.fps, 30);
    }

    void errorsNameThePlace_data()
    {
        QTest::addColumn<QByteArray>("animation");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("not an object") << QByteArray("\"base=100:1e6\"") << QStringList { "scenes[1].animation must be an object" };
        QTest::newRow("no sweep") << QByteArray("{\"frames\": 10}") << QStringList { "scenes[1].animation.sweep", "base" };
        QTest::newRow("unknown key") << QByteArray("{\"sweep\": \"nope=1:2\"}") << QStringList { "scenes[1].animation.sweep", "nope", "keys" };
        QTest::newRow("below range") << QByteArray("{\"sweep\": \"base=0.5:1e6:log\"}") << QStringList { "scenes[1].animation.sweep", "base", "[" };
        QTest::newRow("no range") << QByteArray("{\"sweep\": \"base=100\"}") << QStringList { "scenes[1].animation.sweep", "FROM:TO" };
        QTest::newRow("bad scale") << QByteArray("{\"sweep\": \"base=100:1000:cubic\"}") << QStringList { "scenes[1].animation.sweep", "log" };
        QTest::newRow("text parameter") << QByteArray("{\"sweep\": \"scaling=1:2\"}") << QStringList { "scenes[1].animation.sweep", "not a numeric" };
        QTest::newRow("one frame") << QByteArray("{\"sweep\": \"base=100:1e6\", \"frames\": 1}") << QStringList { "scenes[1].animation.frames", "[2, 3000]", "got 1" };
        QTest::newRow("fractional frames") << QByteArray("{\"sweep\": \"base=100:1e6\", \"frames\": 2.5}") << QStringList { "scenes[1].animation.frames", "[2, 3000]" };
        QTest::newRow("fps 0") << QByteArray("{\"sweep\": \"base=100:1e6\", \"fps\": 0}") << QStringList { "scenes[1].animation.fps", "[1, 60]" };
        QTest::newRow("fps text") << QByteArray("{\"sweep\": \"base=100:1e6\", \"fps\": \"fast\"}") << QStringList { "scenes[1].animation.fps", "'fast'" };
        QTest::newRow("extra key") << QByteArray("{\"sweep\": \"base=100:1e6\", \"loop\": true}") << QStringList { "scenes[1].animation.loop" };
    }
    void errorsNameThePlace()
    {
        QFETCH(QByteArray, animation);
        QFETCH(QStringList, names);
        const SceneParse r = parseSceneOrDeck(deckWith(animation), labSpec);
        QVERIFY(!r.error.isEmpty());
        for (const QString &n : names) QVERIFY2(r.error.contains(n), qPrintable(r.error));
        QVERIFY2(!r.error.contains(QStringLiteral("--sweep")), qPrintable(r.error));
    }

    void shippedDeckHasAnAnimationSlide()
    {
        const SceneParse parsed = readSceneFile(kDeck, labSpec);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        int animated = 0;
        for (const Scene &s : parsed.deck.scenes)
            if (s.animation.isSet()) {
                ++animated;
                QCOMPARE(s.lab, QStringLiteral("decay-bound"));
                QCOMPARE(s.animation.sweep, QStringLiteral("base=100:1e6:log"));
            }
        QCOMPARE(animated, 1);
    }

    void lectureModePlaysPausesAndStops()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deck.fullband"));
        QCOMPARE(writeFileAtomically(path, deckWith("{\"sweep\": \"base=100:1e6:log\", \"frames\": 12, \"fps\": 30}")), QString());
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.openPath(path), QString());
        LectureMode *lecture = w.lecture();
        SlidePlayer *player = lecture->player();
        QVERIFY(!player->isActive());  // not in lecture mode yet
        lecture->enter();
        QVERIFY(!player->isActive());  // slide 1 is a still
        // Space on a still steps the deck: to the animation slide, which starts playing.
        QTest::keyClick(&w, Qt::Key_Space);
        QCOMPARE(lecture->position(), 1);
        LabView *lab = w.currentLab();
        QCOMPARE(lab->name(), QStringLiteral("decay-bound"));
        QVERIFY(player->isActive());
        QVERIFY(!player->isPaused());
        QCOMPARE(lab->values().number("base"), 100.0);  // frame 0: the sweep's start
        // It plays: the lab's value moves through the frames' values.
        QTRY_VERIFY_WITH_TIMEOUT(player->frame() >= 3, 20000);
        QVERIFY(lab->values().number("base") > 100.0);
        QCOMPARE(lab->values().number("base"), player->value());
        // Space pauses: the value holds.
        QTest::keyClick(&w, Qt::Key_Space);
        QCOMPARE(lecture->position(), 1);  // space did not step the deck
        QVERIFY(player->isPaused());
        QVERIFY2(lecture->header()->text().contains(QStringLiteral("paused")), qPrintable(lecture->header()->text()));
        const double held = lab->values().number("base");
        const int heldFrame = player->frame();
        QTest::qWait(300);  // ~9 frames at 30 fps, were it playing
        QCOMPARE(lab->values().number("base"), held);
        QCOMPARE(player->frame(), heldFrame);
        // Space resumes.
        QSignalSpy shown(player, &SlidePlayer::frameShown);
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(!player->isPaused());
        QVERIFY(!lecture->header()->text().contains(QStringLiteral("paused")));
        QTRY_VERIFY_WITH_TIMEOUT(player->frame() != heldFrame, 20000);
        // At the end (1e6) it runs back down instead of jumping to the start.
        const int last = player->frames() - 1;
        auto turned = [&] {
            for (qsizetype i = 1; i < shown.size(); ++i)
                if (shown[i - 1].first().toInt() == last && shown[i].first().toInt() == last - 1) return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(turned(), 20000);
        QVERIFY(!shown.isEmpty());
        // Leaving the slide stops it; the decay lab keeps the value it was showing.
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lecture->position(), 2);
        QVERIFY(!player->isActive());
        const double left = w.lab(labIndex(QStringLiteral("decay-bound")))->values().number("base");
        QTest::qWait(200);
        QCOMPARE(w.lab(labIndex(QStringLiteral("decay-bound")))->values().number("base"), left);
        // Back on the slide it starts again from its scene; Esc leaves lecture mode and stops it.
        QTest::keyClick(&w, Qt::Key_PageUp);
        QVERIFY(player->isActive());
        QCOMPARE(player->frame(), 0);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!lecture->isActive());
        QVERIFY(!player->isActive());
    }
};

QTEST_MAIN(TestSlideAnimation)
#include "tst_slide_animation.moc"
