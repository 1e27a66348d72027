// The Compute accounting lab: the chapter's Part C figures at defaults, the formulas with values
// substituted, the saving sweep equal to core, negative savings, refused input, export.
#include "support/export_checks.h"

#include "core/channel/accounting.h"
#include "core/labs/accounting_lab.h"
#include "views/labs/accounting_view.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/exportable.h"
#include "views/widgets/formula_panel.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QTest>

using namespace fb;

class TestAccountingView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsPrintTheChapterFigures();
    void formulasShowSubstitutedValues();
    void layerSweepEqualsCore();
    void phiSweepEqualsCore();
    void negativeSavingsAreDrawn();
    void badValuesAreRefused();
    void exportRendersChartAndFormulas();
};

static AccountingParams paramsOf(const ParamValues &v)
{
    const std::string err = AccountingLab::check(v);
    if (!err.empty()) qFatal("%s", err.c_str());
    return AccountingLab::params(v);
}

void TestAccountingView::defaultsPrintTheChapterFigures()
{
    AccountingView view;
    view.waitForResult();
    ReadoutPanel *r = view.readouts();
    QCOMPARE(r->value(QStringLiteral("param")), QStringLiteral("1.04%"));
    QCOMPARE(r->value(QStringLiteral("decode")), QStringLiteral("1.04%"));
    QCOMPARE(r->value(QStringLiteral("phase")), QStringLiteral("1.367"));
    QCOMPARE(r->value(QStringLiteral("run")), QStringLiteral("1.073"));
    QCOMPARE(r->value(QStringLiteral("total")), QStringLiteral("1.085"));
    QCOMPARE(r->value(QStringLiteral("saving")), QStringLiteral("27.7%"));
}

void TestAccountingView::formulasShowSubstitutedValues()
{
    AccountingView view;
    view.waitForResult();
    const QString t = view.formulaPanel()->plainText();
    for (const char *needle : { "4 / (12 · L)", "4 / (12 · 32)", "1.04%", "1 / (3 · 32)",
                                "(1 − ρ)·Mk + ρ·Mk′", "0.9 · 1.333 + 0.1 · 1.667", "1.367",
                                "0.8 + 0.2 · 1.367", "1.073", "1.073 · 1.0104", "1.085",
                                "1 − 1.085 / 1.5", "27.7%", "9 ND", "6.51 ND" })
        QVERIFY2(t.contains(QString::fromUtf8(needle)), qPrintable(QStringLiteral("'%1' not in:\n%2").arg(QString::fromUtf8(needle), t)));
    // A formula breaks only between its terms: "(k + 2) / 3" never as "(k + 2) /" over "3".
    const QString html = view.formulaPanel()->formulas();
    for (const char *whole : { "(k&nbsp;+&nbsp;2)&nbsp;/&nbsp;3", "(2&nbsp;+&nbsp;2)&nbsp;/&nbsp;3", "4&nbsp;/&nbsp;(12&nbsp;·&nbsp;32)",
                               "0.9&nbsp;· 1.333&nbsp;+ 0.1&nbsp;· 1.667" })
        QVERIFY2(html.contains(QString::fromUtf8(whole)), whole);
}

void TestAccountingView::layerSweepEqualsCore()
{
    AccountingView view;
    view.waitForResult();
    ParamValues v = view.values();
    v.numbers["layers"] = 8;
    v.numbers["phi"] = 0.5;
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();

    AccountingParams q = paramsOf(view.values());
    const auto pts = view.savingSeries()->points();
    QCOMPARE(pts.size(), 128);
    for (const QPointF &p : pts) {
        q.layers = int(p.x());
        QCOMPARE(p.y(), 100.0 * accounting(q).saving);
    }
    const AccountingResult now = accounting(paramsOf(view.values()));
    QCOMPARE(view.pointSeries()->points(), QList<QPointF>({ QPointF(8, 100.0 * now.saving) }));
    QCOMPARE(view.readouts()->value(QStringLiteral("param")), QStringLiteral("%1%").arg(100.0 * now.paramOverhead, 0, 'f', 2));
    // L is on a log axis: every point positive.
    QCOMPARE(view.chartPanel()->axisX()->type(), QAbstractAxis::AxisTypeLogValue);
    for (QXYSeries *s : { static_cast<QXYSeries *>(view.savingSeries()), static_cast<QXYSeries *>(view.zeroSeries()),
                          static_cast<QXYSeries *>(view.nominalSeries()), static_cast<QXYSeries *>(view.pointSeries()) })
        QVERIFY2(testing::fitsLogAxes(s), qPrintable(s->name()));
    QCOMPARE(view.zeroSeries()->points().first().y(), 0.0);
}

void TestAccountingView::phiSweepEqualsCore()
{
    AccountingView view;
    view.waitForResult();
    QCOMPARE(view.panel()->setValue("sweep", "phi"), QString());
    view.waitForResult();
    QCOMPARE(view.chartPanel()->axisX()->type(), QAbstractAxis::AxisTypeValue);
    QCOMPARE(view.chartPanel()->chart()->axes(Qt::Horizontal).size(), 1);
    AccountingParams q = paramsOf(view.values());
    const auto pts = view.savingSeries()->points();
    QVERIFY(pts.size() > 50);
    QCOMPARE(pts.first().x(), 0.0);
    QCOMPARE(pts.last().x(), 1.0);
    for (const QPointF &p : pts) {
        q.phi = p.x();
        QCOMPARE(p.y(), 100.0 * accounting(q).saving);
    }
    // Back to L: the log axis returns and the series are still attached.
    QCOMPARE(view.panel()->setValue("sweep", "layers"), QString());
    view.waitForResult();
    QCOMPARE(view.chartPanel()->axisX()->type(), QAbstractAxis::AxisTypeLogValue);
    QCOMPARE(view.savingSeries()->attachedAxes().size(), 2);
}

void TestAccountingView::negativeSavingsAreDrawn()
{
    AccountingView view;
    view.waitForResult();
    ParamValues v = view.values();
    v.numbers["phi"] = 1.0;
    v.numbers["rho"] = 1.0;
    v.numbers["layers"] = 4;
    QCOMPARE(view.setValues(v), QString());
    view.waitForResult();
    const AccountingResult now = accounting(paramsOf(view.values()));
    QVERIFY(now.saving < 0);
    QVERIFY(view.readouts()->value(QStringLiteral("saving")).startsWith(QLatin1Char('-')));
    const QPointF point = view.pointSeries()->points().first();
    QCOMPARE(point.y(), 100.0 * now.saving);
    auto *y = qobject_cast<QValueAxis *>(view.chartPanel()->axisY());
    QVERIFY(y);
    QVERIFY(y->min() < point.y());
    QVERIFY(y->max() > 0.0);
    QVERIFY(view.formulaPanel()->plainText().contains(QStringLiteral("costs more")));
}

void TestAccountingView::badValuesAreRefused()
{
    AccountingView view;
    view.waitForResult();
    const ParamValues before = view.values();
    const QList<QPointF> seriesBefore = view.savingSeries()->points();

    ParamValues v = before;
    v.numbers["layers"] = 0;
    QString err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("layers")), qPrintable(err));
    QVERIFY(view.values() == before);

    v = before;
    v.numbers["phi"] = 1.5;
    err = view.setValues(v);
    QVERIFY2(err.contains(QStringLiteral("phi")), qPrintable(err));
    QVERIFY(view.values() == before);

    err = view.panel()->setValue("sweep", "rho");
    QVERIFY2(err.contains(QStringLiteral("sweep")) && err.contains(QStringLiteral("layers|phi")), qPrintable(err));
    QVERIFY(view.values() == before);

    view.waitForResult();
    QCOMPARE(view.savingSeries()->points(), seriesBefore);
    QCOMPARE(view.readouts()->value(QStringLiteral("saving")), QStringLiteral("27.7%"));
}

void TestAccountingView::exportRendersChartAndFormulas()
{
    AccountingView view;
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.waitForResult();
    QCOMPARE(view.exportables().size(), 2);
    for (Exportable *e : view.exportables()) {
        const QImage image = e->renderImage(QSize(900, 600), 2.0);
        QCOMPARE(image.size(), QSize(1800, 1200));
        QVERIFY2(testing::looksDrawn(image, 0.005), qPrintable(e->exportTitle()));
    }
}

QTEST_MAIN(TestAccountingView)
#include "tst_accounting_view.moc"
