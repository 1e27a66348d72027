// The Channel capacity lab: the chapter's tables at defaults, series equal to what core computes,
// log axes that only ever receive positive values, refused input, export.
#include "support/export_checks.h"

#include "core/channel/capacity.h"
#include "core/labs/capacity_lab.h"
#include "views/labs/capacity_view.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/exportable.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QAreaSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

using namespace fb;

class TestCapacityView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsPrintTheChapterTables();
    void parameterChangeRedrawsWithCoreValues();
    void logAxesOnlyGetPositiveValues_data();
    void logAxesOnlyGetPositiveValues();
    void badValuesAreRefused();
    void exportRendersTheChart();
};

static QList<QXYSeries *> allSeries(const CapacityView &view)
{
    return { view.latentSeries(), view.snrOneSeries(), view.latentMarkers(), view.snrOneMarkers(),
             view.bandLower(), view.bandUpper(), view.pointSeries() };
}

void TestCapacityView::defaultsPrintTheChapterTables()
{
    CapacityView view;
    view.waitForResult();
    const QString t = view.tablesText();
    // Exactly as the chapter's cell prints them (Part A of 218.6.5).
    QVERIFY2(t.contains(QStringLiteral("token-only channel: one sampled token per step")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  V =  32,000   log2(V) =  14.97 bits")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  V =  50,257   log2(V) =  15.62 bits")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  V = 128,000   log2(V) =  16.97 bits")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  V = 256,000   log2(V) =  17.97 bits")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("latent-feedback channel: Gaussian capacity of h_t, SNR = 10")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  d =   512   capacity =     885.6 bits   ratio to log2(128000) =    52.2x")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  d =  4096   capacity =    7084.9 bits   ratio to log2(128000) =   417.6x")), qPrintable(t));
    QVERIFY2(t.contains(QStringLiteral("  d =  8192   capacity =   14169.8 bits   ratio to log2(128000) =   835.2x")), qPrintable(t));

    QCOMPARE(view.readouts()->value(QStringLiteral("token")), QStringLiteral("16.97 bits"));
    QCOMPARE(view.readouts()->value(QStringLiteral("latent")), QStringLiteral("7,084.9 bits"));
    QCOMPARE(view.readouts()->value(QStringLiteral("ratio")), QStringLiteral("417.6×"));
    QCOMPARE(view.bandLabel(), QStringLiteral("token-only channel: log2(V), V from 32k to 256k"));
    QCOMPARE(view.gapLabel(), QStringLiteral("7,084.9 bits = 417.6 × 16.97 bits"));
}

void TestCapacityView::parameterChangeRedrawsWithCoreValues()
{
    CapacityView view;
    view.waitForResult();
    ParamValues v = view.values();
    v.numbers["d"] = 1024;
    v.numbers["snr"] = 3;
    v.numbers["vocab"] = 50257;
    v.numbers["vocab_min"] = 1000;
    v.numbers["vocab_max"] = 500000;
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();

    const auto latent = view.latentSeries()->points();
    QVERIFY(latent.size() > 10);
    for (const QPointF &p : latent) QCOMPARE(p.y(), latentBits(p.x(), 3.0));
    for (const QPointF &p : view.snrOneSeries()->points()) QCOMPARE(p.y(), latentBits(p.x(), 1.0));
    const auto marks = view.latentMarkers()->points();
    QCOMPARE(marks.size(), qsizetype(chapterDims().size()));
    for (std::size_t i = 0; i < chapterDims().size(); ++i) {
        QCOMPARE(marks[qsizetype(i)].x(), chapterDims()[i]);
        QCOMPARE(marks[qsizetype(i)].y(), latentBits(chapterDims()[i], 3.0));
    }
    for (const QPointF &p : view.bandLower()->points()) QCOMPARE(p.y(), tokenBits(1000));
    for (const QPointF &p : view.bandUpper()->points()) QCOMPARE(p.y(), tokenBits(500000));
    const CapacityResult r = capacity(CapacityParams { 1024, 3, 50257 });
    const auto point = view.pointSeries()->points();
    QCOMPARE(point.size(), 2);
    QCOMPARE(point[0], QPointF(1024, r.tokenBits));
    QCOMPARE(point[1], QPointF(1024, r.latentBits));
    // Tables follow the chosen SNR and V.
    QVERIFY(view.tablesText().contains(QStringLiteral("SNR = 3")));
    QVERIFY(view.tablesText().contains(QStringLiteral("ratio to log2(50257)")));
    QVERIFY(view.bandLabel().contains(QStringLiteral("V from 1k to 500k")));
    QCOMPARE(view.readouts()->value(QStringLiteral("ratio")), QStringLiteral("%1×").arg(r.ratio, 0, 'f', 1));
}

void TestCapacityView::logAxesOnlyGetPositiveValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("atMax");
    for (const char *key : { "d", "snr", "vocab", "vocab_min" }) {
        QTest::newRow(qPrintable(QStringLiteral("%1 min").arg(QLatin1String(key)))) << QString::fromLatin1(key) << false;
        QTest::newRow(qPrintable(QStringLiteral("%1 max").arg(QLatin1String(key)))) << QString::fromLatin1(key) << true;
    }
}

void TestCapacityView::logAxesOnlyGetPositiveValues()
{
    QFETCH(QString, key);
    QFETCH(bool, atMax);
    CapacityView view;
    view.waitForResult();
    const ParamSpec *spec = CapacityLab::spec().find(key.toStdString());
    QVERIFY(spec);
    ParamValues v = view.values();
    v.numbers[spec->key] = atMax ? spec->max : spec->min;
    if (spec->key == "vocab_min") v.numbers["vocab_max"] = spec->max;
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();
    for (QXYSeries *s : allSeries(view)) QVERIFY2(testing::fitsLogAxes(s), qPrintable(s->name()));
    if (view.values().number("snr") > 0) QVERIFY(!view.latentSeries()->points().isEmpty());
    QVERIFY(!view.bandUpper()->points().isEmpty());
    QVERIFY(!view.pointSeries()->points().isEmpty());
}

void TestCapacityView::badValuesAreRefused()
{
    CapacityView view;
    view.waitForResult();
    const ParamValues before = view.values();
    const QList<QPointF> latentBefore = view.latentSeries()->points();

    ParamValues v = before;
    v.numbers["snr"] = -1;
    QString err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("snr")), qPrintable(err));
    QVERIFY(view.values() == before);

    v = before;
    v.numbers["vocab_min"] = 300000;
    v.numbers["vocab_max"] = 200000;
    err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("vocab_min")) && err.contains(QStringLiteral("vocab_max")), qPrintable(err));
    QVERIFY(view.values() == before);

    err = view.panel()->setValue("d", "wide");
    QVERIFY2(err.contains(QStringLiteral("d")) && err.contains(QStringLiteral("not a number")), qPrintable(err));
    QCOMPARE(view.panel()->message(), err);
    QVERIFY(view.values() == before);

    view.waitForResult();
    QCOMPARE(view.latentSeries()->points(), latentBefore);
}

void TestCapacityView::exportRendersTheChart()
{
    CapacityView view;
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.waitForResult();
    QCOMPARE(view.exportables().size(), 1);
    const QImage image = view.exportables().first()->renderImage(QSize(800, 500), 2.0);
    QCOMPARE(image.size(), QSize(1600, 1000));
    QVERIFY(testing::looksDrawn(image));
}

QTEST_MAIN(TestCapacityView)
#include "tst_capacity_view.moc"
