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
};

QTEST_MAIN(TestCompareChart)
#include "tst_compare_chart.moc"
