// The gated-fusion lab (218.6.2): at the chapter's values the figures it prints, every series equal to
// what core computes, a drag of alpha that draws nothing again, the sensitivity exactly 0 at alpha = 0,
// refused values that keep the state, and exports that are not blank.
#include "support/export_checks.h"

#include "core/cells/glu_fusion.h"
#include "core/labs/glu_fusion_lab.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/exportable.h"
#include "views/labs/glu_fusion_view.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

using namespace fb;

namespace {
ParamValues with(ParamValues v, const std::string &key, const std::string &value)
{
    if (!setFromText(GluFusionLab::spec(), v, key, value).empty()) qFatal("bad test value %s=%s", key.c_str(), value.c_str());
    return v;
}
} // namespace

class TestGluFusionView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsShowTheChaptersFigures()
    {
        GluFusionView view;
        view.waitForResult();
        const ReadoutPanel *r = view.readouts();
        QCOMPARE(r->value(QStringLiteral("mean")), QStringLiteral("0.495   (the chapter prints 0.495)"));
        QCOMPARE(r->value(QStringLiteral("open")), QStringLiteral("0.493 = 1,009 of 2,048   (the chapter prints 0.493)"));
        QCOMPARE(r->value(QStringLiteral("zeroed")), QStringLiteral("0.0e+00   (the chapter prints 0.0e+00)"));
        QCOMPARE(r->value(QStringLiteral("params")), QStringLiteral("1,048,576 of 100,663,296: 1.04%"));
        QCOMPARE(r->value(QStringLiteral("flops")), QStringLiteral("2,097,152 of 201,326,592: 1.04%"));
        const QString table = view.overheadText();
        QVERIFY2(table.contains(QStringLiteral("4d²")) && table.contains(QStringLiteral("8d²"))
                     && table.contains(QStringLiteral("12d²L")) && table.contains(QStringLiteral("24d²L")),
                 qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("1.04%")), qPrintable(table));
        QVERIFY(view.histogramChart()->title().contains(QStringLiteral("1,009 open")));
    }

    // Every series is core's: the histogram's steps are the counts, the curve is the sensitivity at each
    // alpha, the markers sit at the current alpha and at 0.
    void seriesEqualCore_data()
    {
        QTest::addColumn<QString>("alpha");
        QTest::newRow("chapter") << "1";
        QTest::newRow("half open") << "0.5";
        QTest::newRow("closed") << "0";
    }
    void seriesEqualCore()
    {
        QFETCH(QString, alpha);
        GluFusionView view;
        view.waitForResult();
        const ParamValues v = with(with(view.values(), "alpha", alpha.toStdString()), "bins", "20");
        QCOMPARE(view.setValues(v), QString());
        view.waitForResult();
        const GluFusionParams p = GluFusionLab::params(v);
        const GluFusionResult core = gluFusion(p);

        const QList<QPointF> steps = view.histogramSeries()->points();
        QCOMPARE(steps.size(), 2 * 20 + 2);
        for (int k = 0; k < 20; ++k) {
            QCOMPARE(steps[1 + 2 * k], QPointF(k / 20.0, core.gateHistogram[std::size_t(k)]));
            QCOMPARE(steps[2 + 2 * k].y(), double(core.gateHistogram[std::size_t(k)]));
        }
        QCOMPARE(view.meanGateLine()->at(0).x(), core.meanGate);
        const QList<QPointF> curve = view.sensitivitySeries()->points();
        QCOMPARE(curve.size(), qsizetype(core.curveSensitivity.size()));
        for (qsizetype k = 0; k < curve.size(); ++k) {
            QCOMPARE(curve[k].x(), core.curveAlpha[std::size_t(k)]);
            QCOMPARE(curve[k].y(), core.curveSensitivity[std::size_t(k)]);
        }
        QVERIFY(curve.front().y() == 0.0);  // exactly 0 at alpha = 0
        QCOMPARE(view.currentAlphaMarker()->points(), (QList<QPointF> { QPointF(p.alpha, core.sensitivity) }));
        QCOMPARE(view.standardDecoderMarker()->count(), 1);
        QVERIFY(view.standardDecoderMarker()->at(0).x() == 0.0 && view.standardDecoderMarker()->at(0).y() == 0.0);
        QVERIFY2(view.alphaLabel().startsWith(QStringLiteral("α = ")), qPrintable(view.alphaLabel()));
        if (p.alpha == 0.0) {
            QVERIFY(core.sensitivity == 0.0);
            QCOMPARE(view.alphaLabel(), QStringLiteral("α = 0.00: 0.0e+00"));
        }
        QCOMPARE(view.readouts()->value(QStringLiteral("mean")).left(5), QString::number(core.meanGate, 'f', 3));
        for (QXYSeries *s : { static_cast<QXYSeries *>(view.histogramSeries()), static_cast<QXYSeries *>(view.sensitivitySeries()),
                              static_cast<QXYSeries *>(view.currentAlphaMarker()) })
            QVERIFY(testing::fitsLogAxes(s));
    }

    // A drag of alpha (many values, latest wins) ends at the last one, and widths and seed are the only
    // keys that draw again (GluFusionLab::draws, tst_cell_labs); here the view follows the drag.
    void alphaDragEndsAtTheLastValue()
    {
        GluFusionView view;
        view.waitForResult();
        for (int i = 0; i <= 20; ++i) view.setValues(with(view.values(), "alpha", std::to_string(1.0 - i / 20.0)));
        view.waitForResult();
        QCOMPARE(view.values().number("alpha"), 0.0);
        QVERIFY(view.currentAlphaMarker()->at(0).x() == 0.0 && view.currentAlphaMarker()->at(0).y() == 0.0);
        QCOMPARE(view.readouts()->value(QStringLiteral("sensitivity")), QStringLiteral("α = 0.00: 0"));
    }

    void refusedValuesKeepState()
    {
        GluFusionView view;
        view.waitForResult();
        const ParamValues before = view.values();
        const QList<QPointF> curveBefore = view.sensitivitySeries()->points();
        const QString meanBefore = view.readouts()->value(QStringLiteral("mean"));

        ParamValues bad = before;
        bad.numbers["alpha"] = 1.5;
        QString err = view.setValues(bad);
        QVERIFY2(err.contains(QStringLiteral("alpha must be a number in [0, 1]")), qPrintable(err));
        QVERIFY(view.values() == before);
        bad = before;
        bad.numbers["d_model"] = 0;
        err = view.setValues(bad);
        QVERIFY2(err.contains(QStringLiteral("d_model")) && err.contains(QStringLiteral("[1, 2048]")), qPrintable(err));
        QVERIFY(view.values() == before);
        err = view.panel()->setValue("alpha", "open");
        QVERIFY2(err.contains(QStringLiteral("alpha")) && err.contains(QStringLiteral("not a number")), qPrintable(err));
        QCOMPARE(view.panel()->message(), err);
        err = view.panel()->setValue("batch", "nan");
        QVERIFY2(err.contains(QStringLiteral("batch")), qPrintable(err));

        view.waitForResult();
        QVERIFY(view.values() == before);
        QCOMPARE(view.sensitivitySeries()->points(), curveBefore);
        QCOMPARE(view.readouts()->value(QStringLiteral("mean")), meanBefore);
    }

    void otherSizesFollow()
    {
        GluFusionView view;
        view.waitForResult();
        ParamValues v = with(with(with(with(view.values(), "d_model", "64"), "d_emb", "32"), "batch", "8"), "layers", "4");
        QCOMPARE(view.setValues(v), QString());
        view.waitForResult();
        const GluFusionOverhead o = gluFusionOverhead(GluFusionLab::params(v));
        QCOMPARE(o.fusionParams, 2.0 * 64 * (32 + 64));
        QVERIFY(view.readouts()->value(QStringLiteral("open")).contains(QStringLiteral(" of 512 ")));
        QVERIFY(view.histogramChart()->title().contains(QStringLiteral("512 gates (batch 8 × d 64)")));
        QVERIFY2(!view.overheadText().contains(QStringLiteral("= 4d²")), qPrintable(view.overheadText()));  // d_e != d
        QVERIFY(view.overheadText().contains(QStringLiteral("12,288")));  // 2 · 64 · 96
    }

    // The lab fits a 1024 x 768 projector beside the window's lab list (about 230 pixels).
    void fitsAProjector()
    {
        GluFusionView view;
        view.waitForResult();
        const QSize least = view.minimumSizeHint();
        QVERIFY2(least.width() <= 1024 - 240 && least.height() <= 768 - 60,
                 qPrintable(QStringLiteral("minimum %1 x %2").arg(least.width()).arg(least.height())));
    }

    void exportIsNotBlank_data()
    {
        QTest::addColumn<int>("chart");
        QTest::newRow("histogram") << 0;
        QTest::newRow("sensitivity") << 1;
    }
    void exportIsNotBlank()
    {
        QFETCH(int, chart);
        GluFusionView view;
        view.resize(1024, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.waitForResult();
        QCOMPARE(view.exportables().size(), 2);
        const QImage image = view.exportables()[chart]->renderImage(QSize(800, 500), 2.0);
        QCOMPARE(image.size(), QSize(1600, 1000));
        QVERIFY(testing::looksDrawn(image, 0.01, 8));
        QVERIFY(!view.exportables()[chart]->csv().isEmpty());
    }
};

QTEST_MAIN(TestGluFusionView)
#include "tst_glu_fusion_view.moc"
