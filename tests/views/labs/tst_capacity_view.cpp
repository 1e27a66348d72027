// The Channel capacity lab: the chapter's tables at defaults, series equal to what core computes,
// log axes that only ever receive positive values, refused input, export.
#include "support/export_checks.h"
#include "support/lecture_font.h"

#include "core/channel/capacity.h"
#include "core/labs/capacity_lab.h"
#include "views/labs/capacity_view.h"
#include "views/lab/explanation_panel.h"
#include "views/widgets/chart_label.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/exportable.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QAreaSeries>
#include <QChart>
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
    void labelsKeepOffTheCurvesInALecture_data();
    void labelsKeepOffTheCurvesInALecture();
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

// Slide 7 at 1024 x 768 in lecture mode: the chart is low, and the ratio's label halfway up the
// gap lay across the SNR 1 line and overlapped the band's label. On the slide each label now hides at
// most a corner's cut of the lines and band edges (twice its height in all, walked a pixel at a time
// here: a line across it would hide its width; the ratio's label just over the band clips the SNR 1
// line by 45 px, its height 28). Beside the explanation (F7) the plot is narrower than the band's
// label and no place is free, but the two labels still never overlap (they did) and stay in the chart.
void TestCapacityView::labelsKeepOffTheCurvesInALecture_data()
{
    QTest::addColumn<bool>("explained");
    QTest::newRow("slide") << false;
    QTest::newRow("slide with its explanation (F7)") << true;
}

void TestCapacityView::labelsKeepOffTheCurvesInALecture()
{
    QFETCH(bool, explained);
    // as lecture mode: the application's font and the lab's charts 1.6 times their size
    const test::LectureFont font;
    CapacityView view;
    static_cast<LabView &>(view).setPresentationScale(1.6);
    view.setSideVisible(false);  // as lecture mode shows a slide
    view.explanation()->setExpanded(explained);
    view.explanation()->setVisible(explained);
    view.resize(1008, 680);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.waitForResult();
    QChart *chart = view.findChild<ChartPanel *>()->chart();
    const QList<ChartLabel *> labels = chart->findChildren<ChartLabel *>(Qt::FindDirectChildrenOnly);
    QCOMPARE(labels.size(), 2);
    QTRY_VERIFY(!labels[0]->rect().isEmpty() && !labels[1]->rect().isEmpty());
    const auto text = [](const QRectF &r) { return QStringLiteral("(%1, %2) %3 x %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); };
    QVERIFY2(!labels[0]->rect().intersects(labels[1]->rect()),
             qPrintable(text(labels[0]->rect()) + QStringLiteral(" and ") + text(labels[1]->rect()) + QStringLiteral(" in ") + text(chart->plotArea())));
    for (const ChartLabel *label : labels) {
        const QRectF box = label->rect();
        QVERIFY(QRectF(QPointF(0, 0), chart->size()).contains(box));  // wider than the plot beside F7
        if (explained) continue;
        double inside = 0.0;
        for (QXYSeries *s : { static_cast<QXYSeries *>(view.latentSeries()), static_cast<QXYSeries *>(view.snrOneSeries()),
                              static_cast<QXYSeries *>(view.bandLower()), static_cast<QXYSeries *>(view.bandUpper()) }) {
            QAbstractSeries *placed = s;  // the band's edges are placed through the band
            if (s == view.bandLower() || s == view.bandUpper())
                for (QAbstractSeries *a : chart->series())
                    if (a->type() == QAbstractSeries::SeriesTypeArea) placed = a;
            const QList<QPointF> pts = s->points();
            for (qsizetype i = 1; i < pts.size(); ++i) {
                const QPointF a = chart->mapToPosition(pts[i - 1], placed), b = chart->mapToPosition(pts[i], placed);
                const int steps = std::max(1, int(std::hypot(b.x() - a.x(), b.y() - a.y())));
                for (int k = 0; k < steps; ++k)
                    inside += box.contains(a + (b - a) * (k + 0.5) / steps) ? 1.0 : 0.0;
            }
        }
        // at most a corner's cut: a line across the label hides at least its width
        QVERIFY2(inside <= 2.0 * box.height(),
                 qPrintable(QStringLiteral("'%1' hides %2 px of the lines").arg(label->text()).arg(inside)));
    }
}

QTEST_MAIN(TestCapacityView)
#include "tst_capacity_view.moc"
