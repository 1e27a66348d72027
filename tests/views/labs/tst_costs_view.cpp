// The Costs lab: the encyclopedia page's worked numbers at defaults and through the presets,
// series equal to core, log axes with positive values only, refused input, export.
#include "support/export_checks.h"

#include "core/costs/costs.h"
#include "core/labs/costs_spec.h"
#include "views/widgets/chart_panel.h"
#include "views/labs/costs_view.h"
#include "views/widgets/exportable.h"
#include "views/widgets/formula_panel.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QBarSet>
#include <QComboBox>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTest>

using namespace fb;

class TestCostsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsShowThePageNumbers();
    void presetsLoadThePageConfigurations();
    void parameterChangeRedrawsWithCoreValues();
    void logAxesOnlyGetPositiveValues_data();
    void logAxesOnlyGetPositiveValues();
    void badValuesAreRefused();
    void exportRendersEveryChart();
};

static QList<QXYSeries *> logSeries(const CostsView &view)
{
    QList<QXYSeries *> out;
    for (QAbstractSeries *s : view.kvChart()->chart()->series()) out << qobject_cast<QXYSeries *>(s);
    for (QAbstractSeries *s : view.flopsChart()->chart()->series()) out << qobject_cast<QXYSeries *>(s);
    return out;
}

void TestCostsView::defaultsShowThePageNumbers()
{
    CostsView view;
    view.waitForResult();
    ReadoutPanel *r = view.readouts();
    QVERIFY2(r->value(QStringLiteral("kvtoken")).startsWith(QStringLiteral("0.33 MB")), qPrintable(r->value(QStringLiteral("kvtoken"))));
    QCOMPARE(r->value(QStringLiteral("kv")), QStringLiteral("42.9 GB"));
    QCOMPARE(r->value(QStringLiteral("kvmha")), QStringLiteral("344 GB"));
    QCOMPARE(r->value(QStringLiteral("crossover")), QStringLiteral("49,152 tokens"));
    QCOMPARE(r->value(QStringLiteral("decode")), QStringLiteral("71.4 tokens/s"));
    QCOMPARE(view.presetBox()->currentText(), QStringLiteral("70B-class, 8 KV heads"));
    // The bars: MHA 8x GQA, MQA 1/8 of GQA.
    QCOMPARE(view.barUnit(), 1e9);
    QCOMPARE(view.bar(1)->at(0), 2.0 * 80 * 8 * 128 * 2 * 131072 / 1e9);
    QCOMPARE(view.bar(0)->at(0), 8.0 * view.bar(1)->at(0));
    QCOMPARE(view.bar(2)->at(0), view.bar(1)->at(0) / 8.0);
    const QString f = view.formulaPanel()->plainText();
    for (const char *needle : { "2 × 80 × 8 × 128 × 2 B = 327,680 B ≈ 0.33 MB", "42.9 GB", "344 GB",
                                "12 · 80 · 8,192²", "6d = 49,152", "10 TB/s / (70 billion × 2 B = 140 GB) = 71.4 tokens/s" })
        QVERIFY2(f.contains(QString::fromUtf8(needle)), qPrintable(QStringLiteral("'%1' not in:\n%2").arg(QString::fromUtf8(needle), f)));
}

void TestCostsView::presetsLoadThePageConfigurations()
{
    CostsView view;
    view.waitForResult();
    QCOMPARE(view.applyPreset(0), QString());  // GPT-3
    view.waitForResult();
    QCOMPARE(view.values().number("layers"), 96.0);
    QCOMPARE(view.values().number("d_model"), 12288.0);
    QCOMPARE(view.values().number("kv_heads"), 96.0);
    QCOMPARE(view.readouts()->value(QStringLiteral("params")), QStringLiteral("174 billion"));
    QVERIFY(view.formulaPanel()->plainText().contains(QStringLiteral("12 · 96 · 12,288²")));
    QCOMPARE(view.bar(0)->at(0), view.bar(1)->at(0));  // MHA: GQA has as many KV heads
    QCOMPARE(view.presetBox()->currentText(), QStringLiteral("GPT-3 (175B)"));
    QVERIFY(view.readouts()->value(QStringLiteral("train")).startsWith(QStringLiteral("3.15 × 10²³")));

    QCOMPARE(view.applyPreset(1), QString());  // 70B-class
    view.waitForResult();
    QCOMPARE(view.readouts()->value(QStringLiteral("kv")), QStringLiteral("42.9 GB"));
    QCOMPARE(view.readouts()->value(QStringLiteral("kvmha")), QStringLiteral("344 GB"));
    QCOMPARE(view.readouts()->value(QStringLiteral("decode")), QStringLiteral("71.4 tokens/s"));

    // A hand-made change leaves the preset box on "Custom values".
    QCOMPARE(view.panel()->setValue("context", "4096"), QString());
    QCOMPARE(view.presetBox()->currentIndex(), 0);
    QVERIFY(!view.applyPreset(99).isEmpty());
}

void TestCostsView::parameterChangeRedrawsWithCoreValues()
{
    CostsView view;
    view.waitForResult();
    ParamValues v = view.values();
    v.numbers["d_model"] = 4096;
    v.numbers["layers"] = 32;
    v.numbers["query_heads"] = 32;
    v.numbers["kv_heads"] = 4;
    v.numbers["context"] = 32768;
    v.numbers["bytes_per_value"] = 1;
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();

    const double heads[3] = { 32, 4, 1 };
    for (int variant = 0; variant < 3; ++variant) {
        const auto pts = view.kvSeries(variant)->points();
        QVERIFY(pts.size() > 10);
        for (const QPointF &p : pts)
            QCOMPARE(p.y(), kvCache(KvCacheParams { 32, heads[variant], 128, p.x(), 1 }).bytes / 1e9);
        QCOMPARE(view.bar(variant)->at(0) * view.barUnit(), kvCache(KvCacheParams { 32, heads[variant], 128, 32768, 1 }).bytes);
    }
    for (const QPointF &p : view.attentionSeries()->points()) QCOMPARE(p.y(), attentionFlopsPerTokenLayer(p.x(), 4096));
    for (const QPointF &p : view.denseSeries()->points()) QCOMPARE(p.y(), denseFlopsPerTokenLayer(4096));
    QCOMPARE(view.crossoverSeries()->points(),
             QList<QPointF>({ QPointF(attentionCrossoverContext(4096), denseFlopsPerTokenLayer(4096)) }));
    QCOMPARE(view.readouts()->value(QStringLiteral("crossover")), QStringLiteral("24,576 tokens"));
    QCOMPARE(view.readouts()->value(QStringLiteral("params")), QStringLiteral("6.44 billion"));
}

void TestCostsView::logAxesOnlyGetPositiveValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("atMax");
    for (const char *key : { "layers", "d_model", "head_dim", "context", "bytes_per_value", "kv_heads" }) {
        QTest::newRow(qPrintable(QStringLiteral("%1 min").arg(QLatin1String(key)))) << QString::fromLatin1(key) << false;
        QTest::newRow(qPrintable(QStringLiteral("%1 max").arg(QLatin1String(key)))) << QString::fromLatin1(key) << true;
    }
}

void TestCostsView::logAxesOnlyGetPositiveValues()
{
    QFETCH(QString, key);
    QFETCH(bool, atMax);
    CostsView view;
    view.waitForResult();
    const ParamSpec *spec = costsLabSpec().find(key.toStdString());
    QVERIFY(spec);
    ParamValues v = view.values();
    v.numbers[spec->key] = atMax ? spec->max : spec->min;
    if (spec->key == "kv_heads") v.numbers["query_heads"] = v.numbers["kv_heads"];
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();
    for (QXYSeries *s : logSeries(view)) {
        QVERIFY(s);
        QVERIFY2(testing::fitsLogAxes(s), qPrintable(s->name()));
        QVERIFY2(!s->points().isEmpty(), qPrintable(s->name()));
    }
}

void TestCostsView::badValuesAreRefused()
{
    CostsView view;
    view.waitForResult();
    const ParamValues before = view.values();
    const QString kvBefore = view.readouts()->value(QStringLiteral("kv"));

    ParamValues v = before;
    v.numbers["kv_heads"] = 3;  // does not divide 64 query heads
    QString err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("kv_heads")) && err.contains(QStringLiteral("query_heads")), qPrintable(err));
    QVERIFY(view.values() == before);

    v = before;
    v.numbers["layers"] = 0;
    err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("layers")) && err.contains(QStringLiteral("[1, 256]")), qPrintable(err));
    QVERIFY(view.values() == before);

    err = view.panel()->setValue("context", "-5");
    QVERIFY2(err.contains(QStringLiteral("context")), qPrintable(err));
    QVERIFY(view.values() == before);

    view.waitForResult();
    QCOMPARE(view.readouts()->value(QStringLiteral("kv")), kvBefore);
}

void TestCostsView::exportRendersEveryChart()
{
    CostsView view;
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.waitForResult();
    QCOMPARE(view.exportables().size(), 4);
    for (Exportable *e : view.exportables()) {
        const QImage image = e->renderImage(QSize(1000, 700), 2.0);
        QCOMPARE(image.size(), QSize(2000, 1400));
        QVERIFY2(testing::looksDrawn(image, 0.005), qPrintable(e->exportTitle()));
    }
}

QTEST_MAIN(TestCostsView)
#include "tst_costs_view.moc"
