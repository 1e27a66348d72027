// The comparison's charts (views/compare/compare_chart.h): the steps axis ends at the last step
// with ticks at a round spacing from 0, whatever the step count (3,000 steps were drawn on an axis
// to 4,000).
#include "views/compare/compare_chart.h"

#include <QValueAxis>
#include <QTest>

using namespace fb;

class TestCompareChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepsAxisEndsAtTheLastStep_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("interval");
        QTest::newRow("3000") << 3000 << 1000.0;
        QTest::newRow("1500") << 1500 << 500.0;
        QTest::newRow("400") << 400 << 100.0;
        QTest::newRow("7") << 7 << 2.0;
        QTest::newRow("1") << 1 << 1.0;
    }
    void stepsAxisEndsAtTheLastStep()
    {
        QFETCH(int, steps);
        QFETCH(double, interval);
        CompareChart chart(QStringLiteral("loss"), QStringLiteral("nats"), true, 0.0);
        chart.resize(500, 300);
        chart.show();
        chart.start({ QStringLiteral("a"), QStringLiteral("b") }, steps);
        chart.setCurves(0, { 3.0, 2.5, 2.0 }, { QPointF(0, 3.0), QPointF(steps, 2.0) });
        auto *x = qobject_cast<QValueAxis *>(chart.axisX());
        QVERIFY(x);
        QCOMPARE(x->min(), 0.0);
        QCOMPARE(x->max(), double(steps));
        QCOMPARE(x->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(x->tickAnchor(), 0.0);
        QCOMPARE(x->tickInterval(), interval);
        // a second comparison of other length moves the axis with it
        chart.start({ QStringLiteral("a") }, steps * 2);
        QCOMPARE(x->max(), double(steps * 2));
    }

    // A narrow chart with a slide's large labels takes fewer of them: a 1,000-step comparison's last
    // label was cut to "10..." on the accuracy chart of a 1024 x 768 slide.
    void narrowChartTakesFewerLabels()
    {
        CompareChart chart(QStringLiteral("accuracy"), QStringLiteral("accuracy"), false, 1.0);
        QFont font = chart.axisX()->labelsFont();
        font.setPointSizeF(font.pointSizeF() * 2.0);
        chart.axisX()->setLabelsFont(font);
        chart.resize(330, 260);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.start({ QStringLiteral("a") }, 1000);
        chart.setCurves(0, {}, { QPointF(0, 0.1), QPointF(1000, 0.9) });
        auto *x = qobject_cast<QValueAxis *>(chart.axisX());
        QVERIFY(x->tickInterval() >= 500.0);
        QTRY_VERIFY2(chart.layoutProblems().isEmpty(), qPrintable(chart.layoutProblems().join(QStringLiteral("; "))));
        chart.resize(900, 400);  // room again: five gaps
        QTRY_COMPARE(x->tickInterval(), 200.0);
        QCOMPARE(x->max(), 1000.0);
        // room for one gap only: 0 and the last step, not a round 500 past the end (0 alone)
        font.setPointSizeF(font.pointSizeF() * 3.0);
        chart.axisX()->setLabelsFont(font);
        chart.resize(320, 260);
        chart.start({ QStringLiteral("a") }, 300);
        QTRY_COMPARE(x->tickInterval(), 300.0);
    }
};

QTEST_MAIN(TestCompareChart)
#include "tst_compare_chart.moc"
