// The toy accumulator's loss chart: the Bayes floor's label keeps off the curves, by its line where
// it can, else in the plot's top corner.
#include "views/training/loss_curve_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QTest>

#include <cmath>
#include <vector>

using namespace fb;

namespace {

// A chart shown at size in fonts scale times the usual, with a whole toy run drawn as the run draws
// it: both arms from 1.4, token-only down to its floor by step 40, latent to 0.25 by step 90
void showToyRun(LossCurveChart &chart, QSize size, double scale)
{
    chart.setFontScale(scale);
    chart.setLabelScale(scale);
    chart.resize(size);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    std::vector<double> token, latent;
    for (int t = 0; t < 220; ++t) {
        token.push_back(0.52 + 0.88 * std::exp(-t / 12.0));
        latent.push_back(0.25 + 1.15 / (1.0 + std::exp((t - 35.0) / 8.0)));
    }
    chart.appendLosses(LossCurveChart::kTokenOnly, token);
    chart.appendLosses(LossCurveChart::kLatent, latent);
}

} // namespace

class TestLossCurveChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The floor's label crosses no curve at the end of a run on a short chart (slide 8 at 1024 x 768
    // in lecture mode: under the line at the right it lay on the latent curve, a few pixels under it)
    // nor on a tall one.
    void floorLabelKeepsOffTheCurves_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::newRow("lecture at 1024 x 768") << QSize(1000, 340) << 1.6;
        QTest::newRow("desk") << QSize(900, 500) << 1.0;
    }

    void floorLabelKeepsOffTheCurves()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        LossCurveChart chart;
        showToyRun(chart, size, scale);
        if (QTest::currentTestFailed()) return;
        QTest::qWait(50);
        const QRectF label = chart.floorLabelRect();
        QVERIFY(!label.isEmpty());
        QVERIFY(chart.chart()->plotArea().contains(label));
        for (int arm : { LossCurveChart::kTokenOnly, LossCurveChart::kLatent }) {
            QLineSeries *curve = chart.smoothSeries(arm);
            for (const QPointF &pt : curve->points()) {
                const QPointF at = chart.chart()->mapToPosition(pt, curve);
                QVERIFY2(!label.contains(at), qPrintable(QStringLiteral("arm %1 at step %2 (%3, %4) under the label")
                                                              .arg(arm).arg(pt.x()).arg(at.x()).arg(at.y())));
            }
        }
    }

    // A new run puts the label back by its line while the curves come.
    void newRunPutsTheLabelByItsLine()
    {
        LossCurveChart chart;
        showToyRun(chart, QSize(1000, 340), 1.6);
        if (QTest::currentTestFailed()) return;
        QVERIFY(chart.floorLabelRect().top() < chart.chart()->plotArea().top() + 20);  // in the corner
        chart.startRun(220, 16, 4);
        const double line = chart.chart()->mapToPosition(QPointF(0, 0.5), chart.floorSeries()).y();
        QVERIFY(std::abs(chart.floorLabelRect().center().y() - line) < chart.floorLabelRect().height());
    }
};

QTEST_MAIN(TestLossCurveChart)
#include "tst_loss_curve_chart.moc"
