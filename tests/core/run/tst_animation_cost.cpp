// Animations under the trainers' budget (core/run/animation_cost.h): an MP4 at 8192x8192 is over the
// memory budget (it grew past 3.6 GB before), 3,000 GIF frames at that size over the work budget, the
// default 150 frames at 1600x1000 well within both; and the duration text of the expected time.
#include "core/run/animation_cost.h"
#include "core/run/time_left.h"

#include <QTest>

using namespace fb;

class TestAnimationCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusedWithTheFigure()
    {
        QCOMPARE(checkAnimationBudget(8192, 8192, 150, AnimationFormat::Mp4, "lower --size or --frames"),
                 std::string("150 frames of 8192x8192 as MP4 need 3.8 GiB of memory, at most 2 GiB; lower --size or --frames"));
        QCOMPARE(checkAnimationBudget(8192, 8192, 3000, AnimationFormat::Gif, "lower --size or --frames"),
                 std::string("3000 frames of 8192x8192 as GIF need 1.1e14 floating-point operations, at most 5e13; "
                             "lower --size or --frames"));
        // A GIF at 8192x8192 fits in memory; PNG frames hold no encoder's frames.
        QVERIFY(animationCost(8192, 8192, 150, AnimationFormat::Gif).bytes <= kMaxRunBytes);
        QVERIFY(animationCost(8192, 8192, 150, AnimationFormat::PngFrames).bytes
                < animationCost(8192, 8192, 150, AnimationFormat::Gif).bytes);
    }

    void ordinaryAnimationsFit()
    {
        QCOMPARE(checkAnimationBudget(1600, 1000, 150, AnimationFormat::Mp4, "x"), std::string());
        QCOMPARE(checkAnimationBudget(1600, 1000, 3000, AnimationFormat::Gif, "x"), std::string());
        QCOMPARE(checkAnimationBudget(4096, 4096, 150, AnimationFormat::Mp4, "x"), std::string());
        const Cost c = animationCost(1600, 1000, 150, AnimationFormat::Mp4);
        QVERIFY(c.flops * 100 < kMaxRunFlops);
        QVERIFY(c.bytes < 0.1 * kMaxRunBytes);
    }

    void durationsSaidRoundedUp()
    {
        QCOMPARE(aboutText(3.2), std::string("about 5 s"));
        QCOMPARE(aboutText(41.0), std::string("about 45 s"));
        QCOMPARE(aboutText(61.0), std::string("about 2 min"));
        QCOMPARE(aboutText(3900.0), std::string("about 1 h 5 min"));
        QCOMPARE(aboutText(0.0), std::string());
        QCOMPARE(aboutText(1.0 / 0.0), std::string());
        QCOMPARE(timeLeftText(10.0, 1, 5), std::string("about 40 s left"));
    }
};

QTEST_APPLESS_MAIN(TestAnimationCost)
#include "tst_animation_cost.moc"
