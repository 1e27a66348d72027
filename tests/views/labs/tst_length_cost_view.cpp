// The cost-against-length lab's view: every mixer's measured line, its dashed FLOP prediction and its
// memory line are core's numbers point for point, on log axes that hold them; the KV cache line is
// the costs formula; the readouts name each linear mixer's crossover as core found it; both charts
// export drawn images. Small sizes (T 64 and 128, d 16), so that it takes moments under the sanitizers.
#include "support/export_checks.h"

#include "core/labs/length_cost_lab.h"
#include "views/labs/length_cost_view.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/exportable.h"
#include "views/widgets/readout_panel.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QTest>

using namespace fb;

namespace {
bool near(double a, double b, double tolerance)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}
} // namespace

class TestLengthCostView : public QObject {
    Q_OBJECT
private:
    static ParamValues small(const LengthCostView &view)
    {
        ParamValues v = view.values();
        v.numbers["d_model"] = 16;
        v.numbers["heads"] = 2;
        v.numbers["layers"] = 1;
        v.texts["longest"] = "128";
        v.numbers["tokens"] = 256;
        v.numbers["repeats"] = 1;
        return v;
    }

private Q_SLOTS:
    void drawsCoreNumbers()
    {
        LengthCostView view;
        view.resize(1024, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.setValues(small(view)), QString());
        view.waitForResult();
        // the same values again in core: bytes and counts are exact, times are this machine's
        const LengthCostLabResult r = LengthCostLab().compute(view.values(), RunControl());
        for (int m = 0; m < kLengthCostMixers; ++m) {
            const auto measured = view.measuredSeries(m)->points();
            const auto predicted = view.predictedSeries(m)->points();
            const auto bytes = view.bytesSeries(m)->points();
            QCOMPARE(measured.size(), 2);
            QCOMPARE(predicted.size(), 2);
            QCOMPARE(bytes.size(), 2);
            for (int i = 0; i < 2; ++i) {
                QCOMPARE(measured[i].x(), double(r.lengths[std::size_t(i)]));
                QVERIFY(measured[i].y() > 0.0);
                QVERIFY(near(bytes[i].y(), r.stateBytes[std::size_t(m)][std::size_t(i)] * 1e-3, 1e-12));  // kB
            }
            // the dashed line starts on the measured point and follows the count's ratio
            QVERIFY(near(predicted[0].y(), measured[0].y(), 1e-12));
            const double ratio = r.flopsPerToken[std::size_t(m)][1] / r.flopsPerToken[std::size_t(m)][0];
            QVERIFY(std::fabs(predicted[1].y() / predicted[0].y() - ratio) < 1e-9 * ratio);
            QVERIFY(testing::fitsLogAxes(view.measuredSeries(m)));
            QVERIFY(testing::fitsLogAxes(view.bytesSeries(m)));
        }
        QVERIFY(near(view.bytesSeries(0)->points()[1].y(), 2.0 * 1 * 128 * 16 * 4 * 1e-3, 1e-12));  // 2 L T d 4 bytes, in kB
        // the axes hold every point
        for (ChartPanel *c : { view.timeChart(), view.memoryChart() }) {
            auto *x = qobject_cast<QLogValueAxis *>(c->axisX());
            QVERIFY(x);
            QVERIFY(x->min() <= 64 && x->max() >= 128);
            const auto [lo, hi] = c == view.timeChart()
                ? std::pair { qobject_cast<QValueAxis *>(c->axisY())->min(), qobject_cast<QValueAxis *>(c->axisY())->max() }
                : std::pair { qobject_cast<QLogValueAxis *>(c->axisY())->min(), qobject_cast<QLogValueAxis *>(c->axisY())->max() };
            for (QAbstractSeries *s : c->chart()->series())
                for (const QPointF &p : static_cast<QXYSeries *>(s)->points())
                    QVERIFY2(p.y() >= lo && p.y() <= hi, qPrintable(s->name()));
        }
        // the memory axis runs over whole decades, so that a label stands above the KV cache's end
        auto *kb = qobject_cast<QLogValueAxis *>(view.memoryChart()->axisY());
        for (const double end : { kb->min(), kb->max() })
            QVERIFY2(std::fabs(std::log10(end) - std::round(std::log10(end))) < 1e-12, qPrintable(QString::number(end)));
        QVERIFY(kb->max() > kb->min());
        // four names in the legend, shown whole at 1024 wide (the dashed lines are explained by the
        // axis title)
        QLegend *legend = view.timeChart()->chart()->legend();
        QTRY_VERIFY(legend->isVisible());
        int shown = 0;
        for (QLegendMarker *marker : legend->markers()) shown += marker->isVisible();
        QCOMPARE(shown, kLengthCostMixers);
        // each crossover as the readout says it, worked out again from the drawn times
        const char *names[] = { "softmax", "linear", "deltanet", "gated-deltanet" };
        std::vector<double> softmax;
        for (const QPointF &p : view.measuredSeries(0)->points()) softmax.push_back(p.y());
        for (int m = 1; m < kLengthCostMixers; ++m) {
            std::vector<double> mine;
            for (const QPointF &p : view.measuredSeries(m)->points()) mine.push_back(p.y());
            const int from = lengthCrossover({ 64, 128 }, softmax, mine);
            const QString text = view.readouts()->value(QStringLiteral("cross-") + QLatin1String(names[m]));
            const QString expected = from > 0 ? QStringLiteral("no slower than softmax from T = %1 on").arg(from)
                                              : QStringLiteral("slower than softmax at T = 128");
            QCOMPARE(text, expected);
        }
        QVERIFY(view.readouts()->value(QStringLiteral("bytes")).contains(QStringLiteral("KV cache")));
    }

    // A measurement of the machine runs while the lab is on screen: not at the window's start, behind
    // the other labs (it burned seconds there and measured a busy machine).
    void measuresOnlyWhenShown()
    {
        LengthCostView view;
        QVERIFY(view.computeHeld());
        QCOMPARE(view.setValues(small(view)), QString());  // a change while hidden is held too
        QVERIFY(view.computeHeld());
        QVERIFY(view.measuredSeries(0)->points().isEmpty());
        view.resize(1024, 700);
        view.show();
        QVERIFY(!view.computeHeld());
        QTRY_COMPARE_WITH_TIMEOUT(view.measuredSeries(0)->points().size(), 2, 120000);
        // waiting for the result of a hidden lab (an export) measures it
        LengthCostView hidden;
        QCOMPARE(hidden.setValues(small(hidden)), QString());
        hidden.waitForResult();
        QVERIFY(!hidden.computeHeld());
        QCOMPARE(hidden.measuredSeries(3)->points().size(), 2);
    }

    void exportsBothCharts()
    {
        LengthCostView view;
        view.resize(1024, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.setValues(small(view)), QString());
        view.waitForResult();
        QCOMPARE(view.exportables().size(), 2);
        for (Exportable *e : view.exportables()) {
            const QImage image = e->renderImage(QSize(800, 500), 1.0);
            QCOMPARE(image.size(), QSize(800, 500));
            QVERIFY2(testing::looksDrawn(image, 0.005), qPrintable(e->exportTitle()));
        }
    }
};

QTEST_MAIN(TestLengthCostView)
#include "tst_length_cost_view.moc"
