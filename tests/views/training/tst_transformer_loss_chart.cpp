// The transformer lab's loss chart: the phase change and the replay are named on the plot beside
// their lines, so the legend keeps its three entries whole at the size the chart has beside the
// length table at 1024 x 768 (a fourth, "phase change (100)", was cut to "phase chang..." or hid
// the legend).
#include "views/training/transformer_loss_chart.h"
#include "views/widgets/chart_label.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QTest>

#include <cmath>
#include <vector>

using namespace fb;

namespace {

// An induction run drawn as the lab draws it: 1,500 steps from ln 16, the repeat loss falling at
// step 100, the held-out loss every 100 steps
void drawInductionRun(TransformerLossChart &chart)
{
    chart.startRun(1500, std::log(16.0), true);
    std::vector<double> losses;
    for (int t = 0; t < 1500; ++t) losses.push_back(1.39 + 1.38 / (1.0 + std::exp((t - 90.0) / 15.0)));
    chart.appendLosses(losses);
    std::vector<int> steps;
    std::vector<double> held, repeat;
    for (int t = 0; t <= 1500; t += 100) {
        steps.push_back(t);
        held.push_back(losses[std::size_t(std::min(t, 1499))]);
        repeat.push_back(t < 100 ? 2.7 - 0.02 * t : 0.01);
    }
    chart.setHeldout(steps, held, repeat);
}

QStringList legendNames(QChart *chart)
{
    QStringList names;
    for (QLegendMarker *m : chart->legend()->markers())
        if (m->isVisible()) names << m->label();
    return names;
}

ChartLabel *labelSaying(QChart *chart, const QString &start)
{
    for (ChartLabel *l : chart->findChildren<ChartLabel *>())
        if (l->text().startsWith(start)) return l;
    return nullptr;
}

} // namespace

class TestTransformerLossChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void markersAreNamedOnThePlot_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::newRow("beside the length table, 1024 x 768") << QSize(390, 230) << 1.0;
        QTest::newRow("1920 x 1080") << QSize(760, 300) << 1.0;
        QTest::newRow("a slide at 1024 x 768") << QSize(600, 260) << 1.6;
    }
    void markersAreNamedOnThePlot()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        TransformerLossChart chart;
        chart.setFontScale(scale);
        chart.resize(size);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        drawInductionRun(chart);
        chart.setPhaseChange(100);
        chart.setReplayStep(1355);
        chart.settleLayout();
        QCoreApplication::processEvents();

        QVERIFY(chart.chart()->legend()->isVisible());
        QCOMPARE(legendNames(chart.chart()), (QStringList { QStringLiteral("training"), QStringLiteral("held-out"),
                                                            QStringLiteral("repeat") }));
        QVERIFY2(chart.layoutProblems().isEmpty(), qPrintable(chart.layoutProblems().join(QLatin1Char('\n'))));

        const QRectF plot = chart.chart()->plotArea();
        ChartLabel *phase = labelSaying(chart.chart(), QStringLiteral("phase change"));
        ChartLabel *replay = labelSaying(chart.chart(), QStringLiteral("replay"));
        QVERIFY(phase && replay);
        QCOMPARE(phase->text(), QStringLiteral("phase change (100)"));
        QCOMPARE(replay->text(), QStringLiteral("replay (1355)"));
        for (ChartLabel *l : { phase, replay }) {
            QVERIFY2(plot.adjusted(-1, -1, 1, 1).contains(l->rect()),
                     qPrintable(QStringLiteral("'%1' outside the plot").arg(l->text())));
        }
        QVERIFY2(!phase->rect().intersects(replay->rect()), "the two names overlap");
        // each beside its own line: the line's x within a few pixels of the label's left or right edge
        const qreal x100 = chart.chart()->mapToPosition(QPointF(100, 0)).x();
        QVERIFY(std::min(std::abs(phase->rect().left() - x100), std::abs(phase->rect().right() - x100)) < 8);

        // no phase change, no replay: no names
        chart.setPhaseChange(-1);
        chart.setReplayStep(-1);
        QVERIFY(phase->rect().isEmpty());
        QVERIFY(replay->rect().isEmpty());
        QCOMPARE(legendNames(chart.chart()).size(), 3);
    }
};

QTEST_MAIN(TestTransformerLossChart)
#include "tst_transformer_loss_chart.moc"
