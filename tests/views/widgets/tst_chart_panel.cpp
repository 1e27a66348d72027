// ChartPanel's range and replace helpers: the round range of an axis set in one step equals what
// QValueAxis::applyNiceNumbers() gives, and series whose points do not change are left alone.
#include "views/widgets/chart_panel.h"
#include "views/widgets/chart_label.h"
#include "views/widgets/minor_grid.h"

#include <QGraphicsScene>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QValueAxis>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>

using namespace fb;

class TestChartPanel : public QObject {
    Q_OBJECT
private:
    // A loss chart's axes and a falling line for each name (the legend's entries)
    static void addLossCurves(ChartPanel &panel, std::initializer_list<const char *> names)
    {
        panel.setValueAxis(Qt::Horizontal, QStringLiteral("training step"));
        panel.setValueAxis(Qt::Vertical, QStringLiteral("loss (nats)"));
        for (const char *name : names) {
            QLineSeries *s = panel.addLine(QString::fromLatin1(name), Qt::black);
            s->append({ QPointF(0, 3), QPointF(400, 1) });
        }
    }

    // Shown at size: the legend stands on the right, visible, and nothing in the chart is cut
    static void legendStandsRightAt(ChartPanel &panel, QSize size)
    {
        panel.resize(size);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QLegend *legend = panel.chart()->legend();
        QTRY_COMPARE(legend->alignment(), Qt::AlignRight);
        QTRY_VERIFY2(panel.layoutProblems().isEmpty(), qPrintable(panel.layoutProblems().join(QLatin1Char('\n'))));
        QVERIFY(legend->isVisible());
    }

private Q_SLOTS:
    // The same ranges and tick counts as setRange followed by applyNiceNumbers from the tick count
    // asked for, over random ranges (tiny, huge, negative, empty) and tick counts set now and then.
    void roundRangeAsQtsNiceNumbers()
    {
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> u(-3.0, 3.0), e(-6.0, 6.0);
        QValueAxis qt, ours;
        int asked = ours.tickCount();
        for (int i = 0; i < 20000; ++i) {
            const double lo = u(rng) * std::pow(10.0, e(rng));
            const double hi = i % 7 == 0 ? lo : lo + std::fabs(u(rng)) * std::pow(10.0, e(rng));
            const double padFraction = (i % 3) * 0.04;
            const int ticks = 2 + int(rng() % 9);
            // A count set by hand is seen only if it differs from the one the last range left.
            if (i % 5 == 0 && ticks != ours.tickCount()) {
                asked = ticks;
                ours.setTickCount(ticks);
            }
            double pad = (hi - lo) * padFraction;
            if (hi == lo) pad = std::max(std::fabs(hi) * 0.05, 1e-9);
            qt.setRange(lo - pad, hi + pad);
            qt.setTickCount(asked);
            qt.applyNiceNumbers();
            ChartPanel::setRange(&ours, lo, hi, padFraction);
            QCOMPARE(ours.min(), qt.min());
            QCOMPARE(ours.max(), qt.max());
            QCOMPARE(ours.tickCount(), qt.tickCount());
        }
    }

    // Setting the same range again gives the same axis: 0 to 300 steps took 4 ticks of 100, and the
    // next call stepped by 200 from those 4 ticks and ran the loss chart's step axis to 400.
    void sameRangeSameAxis()
    {
        QValueAxis axis;
        for (int i = 0; i < 3; ++i) {
            ChartPanel::setRange(&axis, 0.0, 300.0, 0.0);
            QCOMPARE(axis.max(), 300.0);
            QCOMPARE(axis.tickCount(), 4);
        }
        axis.setTickCount(11);  // a count set by hand is asked for from then on: steps of 50
        for (int i = 0; i < 3; ++i) {
            ChartPanel::setRange(&axis, 0.0, 300.0, 0.0);
            QCOMPARE(axis.max(), 300.0);
            QCOMPARE(axis.tickCount(), 7);
        }
    }

    // An axis whose round range does not change is not set again (no layout of its labels).
    void unchangedRangeIsNotSetAgain()
    {
        QValueAxis axis;
        ChartPanel::setRange(&axis, 0.0, 103.0, 0.0);
        QSignalSpy spy(&axis, &QValueAxis::rangeChanged);
        ChartPanel::setRange(&axis, 0.0, 104.0, 0.0);
        ChartPanel::setRange(&axis, 0.0, 106.0, 0.0);
        QCOMPARE(spy.count(), 0);
    }

    void unchangedPointsAreNotReplaced()
    {
        ChartPanel panel(QStringLiteral("test"));
        panel.setValueAxis(Qt::Horizontal, QStringLiteral("x"));
        panel.setLogAxis(Qt::Vertical, QStringLiteral("y"));
        QLineSeries *s = panel.addLine(QStringLiteral("s"), Qt::black);
        QSignalSpy spy(s, &QXYSeries::pointsReplaced);
        const QList<QPointF> points { { 0, 1e-30 }, { 1, 1.0 }, { 2, -1.0 } };  // -1 is dropped (log axis)
        panel.replacePoints(s, points);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(s->count(), 2);
        panel.replacePoints(s, points);
        QCOMPARE(spy.count(), 1);
        // A change far below QPointF's fuzzy comparison still counts.
        panel.replacePoints(s, { { 0, 2e-30 }, { 1, 1.0 } });
        QCOMPARE(spy.count(), 2);
        QCOMPARE(s->at(0).y(), 2e-30);
        panel.replacePoints(s, {});
        QCOMPARE(spy.count(), 3);
        QCOMPARE(s->count(), 0);
    }

    // A vertical axis title too long for a low chart shows the short title the view gave, and the
    // whole one again (not the short one) once the chart is tall enough; without a short title
    // nothing is shown there. The whole title is in the tooltip meanwhile.
    void shortAxisTitleOnALowChart()
    {
        const QString whole = QStringLiteral("bits per step boundary, on a log scale");
        ChartPanel panel(QStringLiteral("test"));
        panel.setValueAxis(Qt::Horizontal, QStringLiteral("x"));
        QAbstractAxis *y = panel.setLogAxis(Qt::Vertical, whole);
        panel.addLine(QStringLiteral("s"), Qt::black);
        panel.setShortAxisTitle(y, QStringLiteral("bits"));
        panel.resize(600, 170);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_COMPARE(y->titleText(), QStringLiteral("bits"));
        QVERIFY(panel.toolTip().contains(whole));
        panel.resize(600, 700);
        QTRY_COMPARE(y->titleText(), whole);
        QVERIFY(!panel.toolTip().contains(whole));
        panel.setShortAxisTitle(y, QString());
        panel.resize(600, 170);
        QTRY_COMPARE(y->titleText(), QStringLiteral(" "));
    }

    // A label at a data point takes the chart's font scale (lecture mode), as the axes do: at the
    // usual size an annotation was small print on a slide.
    void labelsTakeTheFontScale()
    {
        ChartPanel panel(QStringLiteral("test"));
        panel.setValueAxis(Qt::Horizontal, QStringLiteral("x"));
        panel.setValueAxis(Qt::Vertical, QStringLiteral("y"));
        QLineSeries *s = panel.addLine(QStringLiteral("s"), Qt::black);
        s->append({ QPointF(0, 0), QPointF(1, 1) });
        auto *label = new ChartLabel(panel.chart(), s, Qt::black);
        label->set(QStringLiteral("n = 6d"), QPointF(0.5, 0.5));
        QCOMPARE(label->pointSize(), ChartLabel::kPointSize);
        panel.setFontScale(1.6);
        QCOMPARE(label->pointSize(), ChartLabel::kPointSize * 1.6);
        panel.setFontScale(1.0);
        QCOMPARE(label->pointSize(), ChartLabel::kPointSize);
    }

    // A label with other places takes the first that hides the least: a horizontal line through its
    // first place sends it to the second; without other places it stays on the line; two labels
    // never share a place.
    void labelTakesThePlaceThatHidesLeast()
    {
        ChartPanel panel(QStringLiteral("test"));
        ChartPanel::setRange(panel.setValueAxis(Qt::Horizontal, QStringLiteral("x")), 0.0, 10.0, 0.0);
        ChartPanel::setRange(panel.setValueAxis(Qt::Vertical, QStringLiteral("y")), 0.0, 10.0, 0.0);
        QLineSeries *line = panel.addLine(QStringLiteral("line"), Qt::black);
        line->append({ QPointF(0, 5), QPointF(10, 5) });
        panel.resize(600, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const auto crossesLine = [&](const QRectF &box) {
            const double y = panel.chart()->mapToPosition(QPointF(5, 5), line).y();
            return box.top() <= y && box.bottom() >= y;
        };
        // the labels annotate another series (a label never counts its own series' line)
        QLineSeries *anchor = panel.addLine(QStringLiteral("anchor"), Qt::black);
        auto *stays = new ChartLabel(panel.chart(), anchor, Qt::black);
        stays->set(QStringLiteral("on the line"), QPointF(2, 5), Qt::AlignLeft | Qt::AlignVCenter, QPointF(0, 0));
        QVERIFY(crossesLine(stays->rect()));
        auto *moves = new ChartLabel(panel.chart(), anchor, Qt::black);
        moves->set(QStringLiteral("beside the line"), QPointF(8, 5), Qt::AlignRight | Qt::AlignVCenter, QPointF(0, 0));
        QVERIFY(crossesLine(moves->rect()));
        moves->set(QStringLiteral("beside the line"), QPointF(8, 5), Qt::AlignRight | Qt::AlignVCenter, QPointF(0, 0),
                   { { QPointF(2, 5), Qt::AlignLeft | Qt::AlignBottom, QPointF(0, -4) },
                     { QPointF(8, 5), Qt::AlignRight | Qt::AlignBottom, QPointF(0, -4) } });
        // the first free place would be over the other label's: the second
        QVERIFY(!crossesLine(moves->rect()));
        QVERIFY(!moves->rect().intersects(stays->rect()));
        QVERIFY(moves->rect().left() > panel.chart()->mapToPosition(QPointF(5, 5), line).x());
        // and it moves with the chart
        panel.resize(800, 300);
        QTRY_VERIFY(!crossesLine(moves->rect()) && moves->rect().left() > 400);
    }

    // A short, wide chart at lecture size: its bottom legend would leave the axes too little height
    // (Qt Charts then cuts their ticks), so the entries stand on the right, none of them cut; tall
    // again, the legend is back at the bottom.
    void shortWideChartKeepsItsLegendOnTheRight()
    {
        ChartPanel panel(QStringLiteral("Loss while training"));
        addLossCurves(panel, { "training", "held-out", "repeat" });
        panel.setFontScale(1.3);
        legendStandsRightAt(panel, QSize(620, 200));
        if (QTest::currentTestFailed()) return;
        QLegend *legend = panel.chart()->legend();
        panel.resize(620, 600);
        QTRY_COMPARE(legend->alignment(), Qt::AlignBottom);
        QVERIFY(legend->isVisible());
    }

    // The induction slide's loss chart at 1024 x 768 in lecture mode (1.6): four entries. At the
    // full 16.8 points the legend fitted nowhere and was hidden (its names only in the tooltip); the
    // legend grows with the square root of the scale, 13.3 points, and stands on the right, whole;
    // the axis titles fit the plot laid out.
    void lectureLegendOfFourEntriesIsShown()
    {
        ChartPanel panel(QStringLiteral("Loss while training"));
        addLossCurves(panel, { "training", "held-out", "repeat", "phase change (100)" });
        panel.setFontScale(1.6);
        QCOMPARE(panel.chart()->legend()->font().pointSizeF(), 10.5 * std::sqrt(1.6));
        legendStandsRightAt(panel, QSize(636, 250));
        if (QTest::currentTestFailed()) return;
        // The vertical title is as small as the plot laid out needs, no smaller: it showed at 60%
        // of its size, fitted to the plot Qt Charts had before it laid the chart out at this size
        // (and the legend on the right), with no resize after to fit it again.
        QAbstractAxis *y = nullptr;
        for (QAbstractAxis *axis : panel.chart()->axes())
            if (axis->orientation() == Qt::Vertical) y = axis;
        QVERIFY(y);
        QTRY_COMPARE(y->titleText(), QStringLiteral("loss (nats)"));
        QFont full = y->titleFont();
        full.setPointSizeF(11.0 * 1.6);  // chart_panel.cpp's axis titles (11 points) at the scale
        const qreal need = QFontMetricsF(full).horizontalAdvance(y->titleText()) + 8;
        const qreal fits = std::min(1.0, panel.chart()->plotArea().height() / need);
        const qreal expected = full.pointSizeF() * std::max(0.6, fits * 0.97);
        QVERIFY2(expected > 0.7 * full.pointSizeF(), "the plot leaves room for more than the least size");
        QTRY_VERIFY2(std::abs(y->titleFont().pointSizeF() - expected) < 0.05 * full.pointSizeF(),
                     qPrintable(QStringLiteral("title %1 pt, the plot (%2 px high) fits %3 pt")
                                    .arg(y->titleFont().pointSizeF()).arg(panel.chart()->plotArea().height())
                                    .arg(expected)));
    }

    // A bottom legend that would leave the plot less than its least height (Qt Charts cuts no text,
    // the plot is only short) moves to the right: a wide, low chart keeps a plot to read.
    void bottomLegendLeavesThePlotItsHeight()
    {
        ChartPanel panel(QStringLiteral("Loss while training"));
        addLossCurves(panel, { "training", "held-out" });
        panel.setFontScale(1.6);
        panel.resize(1000, 290);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY2(panel.layoutProblems().isEmpty(), qPrintable(panel.layoutProblems().join(QLatin1Char('\n'))));
        QVERIFY(panel.chart()->plotArea().height() >= ChartPanel::kMinPlotHeight * 1.6);
    }

    // A chart held while a result is drawn shows the same picture as one that is not: a series
    // replaced and then given a new range is laid out by the range; one whose range stays is told
    // of its points when the hold ends.
    void heldReplotsDrawTheSame()
    {
        auto build = [](ChartPanel &panel) {
            panel.setValueAxis(Qt::Horizontal, QStringLiteral("x"));
            panel.setValueAxis(Qt::Vertical, QStringLiteral("y"));
            QLineSeries *s = panel.addLine(QStringLiteral("s"), Qt::black);
            panel.replacePoints(s, { { 0, 0 }, { 1, 1 }, { 2, 0 } });
            panel.axisX()->setRange(0, 2);
            panel.axisY()->setRange(0, 1);
            panel.resize(400, 300);
            panel.show();
            return s;
        };
        ChartPanel plain(QStringLiteral("chart")), held(QStringLiteral("chart"));
        QLineSeries *a = build(plain);
        QLineSeries *b = build(held);
        QVERIFY(QTest::qWaitForWindowExposed(&plain) && QTest::qWaitForWindowExposed(&held));
        const auto same = [&] {
            plain.settleLayout();
            return plain.grab().toImage() == held.grab().toImage();
        };
        held.settleLayout();
        QVERIFY(same());
        QSignalSpy told(b, &QXYSeries::pointsReplaced);
        // New points and a new range.
        plain.replacePoints(a, { { 0, 1 }, { 1, 0 }, { 2, 3 } });
        plain.axisY()->setRange(0, 3);
        held.holdReplots();
        held.replacePoints(b, { { 0, 1 }, { 1, 0 }, { 2, 3 } });
        held.axisY()->setRange(0, 3);
        held.settleLayout();
        QCOMPARE(told.count(), 0);  // the range laid it out
        QVERIFY(same());
        // New points, the same range.
        plain.replacePoints(a, { { 0, 2 }, { 1, 2 }, { 2, 0 } });
        held.holdReplots();
        held.replacePoints(b, { { 0, 2 }, { 1, 2 }, { 2, 0 } });
        held.settleLayout();
        QCOMPARE(told.count(), 1);
        QVERIFY(same());
    }
    // A base-10 log axis has a minor grid line at 2 ... 9 times each power of ten, where Qt Charts
    // itself maps those values, drawn by one item one crisp pixel wide, in the pixel that holds the
    // position (Qt's own minor ticks stay off). It follows a new range and draws into exports; other
    // bases, a hidden axis and a hidden minor grid have none.
    void minorGridOnBaseTen()
    {
        ChartPanel panel(QStringLiteral("test"));
        QLogValueAxis *x = panel.setLogAxis(Qt::Horizontal, QStringLiteral("x"));
        QLogValueAxis *y = panel.setLogAxis(Qt::Vertical, QStringLiteral("y"));
        QLineSeries *s = panel.addLine(QStringLiteral("s"), Qt::black);
        panel.replacePoints(s, { { 1, 1 }, { 1000, 1 } });  // along the bottom edge
        x->setRange(1, 1000);
        y->setRange(1, 100);
        panel.resize(600, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.settleLayout();
        MinorGrid *grid = nullptr;
        for (QGraphicsItem *item : panel.scene()->items())
            if (auto *g = dynamic_cast<MinorGrid *>(item)) grid = g;
        QVERIFY(grid);
        QCOMPARE(x->minorTickCount(), 0);
        QCOMPARE(y->minorTickCount(), 0);

        QChart *chart = panel.chart();
        const auto xOf = [&](double v) { return chart->mapToPosition(QPointF(v, 10), s).x(); };
        const auto yOf = [&](double v) { return chart->mapToPosition(QPointF(10, v), s).y(); };
        const auto minors = [](int decades) {
            QList<double> v;
            for (int d = 0; d < decades; ++d)
                for (int m = 2; m <= 9; ++m) v << m * std::pow(10.0, d);
            return v;
        };
        const auto same = [](const QList<qreal> &at, const QList<qreal> &want) {
            if (at.size() != want.size()) return false;
            for (qsizetype i = 0; i < at.size(); ++i)
                if (std::fabs(at[i] - want[i]) > 1e-6) return false;
            return true;
        };
        QList<qreal> wantX, wantY;
        for (double v : minors(3)) wantX << xOf(v);
        for (double v : minors(2)) wantY << yOf(v);
        QVERIFY(same(grid->positions(Qt::Horizontal), wantX));  // 2 ... 9, 20 ... 90, 200 ... 900
        QVERIFY(same(grid->positions(Qt::Vertical), wantY));    // 2 ... 9, 20 ... 90

        // One pixel of the minor grid's colour between white ones: a vertical line (at x = 2) on
        // the row of y = 1.4, a horizontal one (at y = 2) in the column of x = 1.4.
        const QColor minor = x->minorGridLinePen().color();
        const QPoint origin = panel.mapFromScene(QPointF(0, 0));
        const auto pixel = [&](const QImage &image, double px, double py, int dx, int dy) {
            return QColor(image.pixel(origin.x() + int(std::floor(px)) + dx, origin.y() + int(std::floor(py)) + dy));
        };
        QImage image = panel.viewport()->grab().toImage();
        QCOMPARE(pixel(image, xOf(2), yOf(1.4), 0, 0), minor);
        QCOMPARE(pixel(image, xOf(2), yOf(1.4), 1, 0), QColor(Qt::white));
        QCOMPARE(pixel(image, xOf(2), yOf(1.4), -1, 0), QColor(Qt::white));
        QCOMPARE(pixel(image, xOf(1.4), yOf(2), 0, 0), minor);
        QCOMPARE(pixel(image, xOf(1.4), yOf(2), 0, 1), QColor(Qt::white));
        QCOMPARE(pixel(image, xOf(1.4), yOf(2), 0, -1), QColor(Qt::white));

        // A new range: the lines move with Qt's mapping.
        x->setRange(1, 100);
        panel.settleLayout();
        wantX.clear();
        for (double v : minors(2)) wantX << xOf(v);
        QVERIFY(same(grid->positions(Qt::Horizontal), wantX));
        image = panel.viewport()->grab().toImage();
        QCOMPARE(pixel(image, xOf(3), yOf(1.4), 0, 0), minor);

        // An export at its own size has the grid too (unantialiased: the exact colour, hundreds of pixels).
        const QImage exported = panel.renderImage(QSize(800, 500));
        int minorPixels = 0;
        for (int py = 0; py < exported.height(); ++py)
            for (int px = 0; px < exported.width(); ++px) minorPixels += QColor(exported.pixel(px, py)) == minor;
        QVERIFY2(minorPixels > 2000, qPrintable(QString::number(minorPixels)));

        y->setMinorGridLineVisible(false);
        image = panel.viewport()->grab().toImage();
        QCOMPARE(pixel(image, xOf(1.4), yOf(2), 0, 0), QColor(Qt::white));
        x->setBase(2.0);
        QVERIFY(grid->positions(Qt::Horizontal).isEmpty());
        y->setVisible(false);
        QVERIFY(grid->positions(Qt::Vertical).isEmpty());
    }

    // An export at a device pixel ratio of 3 draws the hairline grid one logical pixel (three
    // device pixels) wide, as the window shows it, and leaves the chart's own pens as they were.
    void exportedGridKeepsItsWeight()
    {
        ChartPanel panel(QStringLiteral("test"));
        panel.setValueAxis(Qt::Horizontal, QStringLiteral("x"));
        panel.setValueAxis(Qt::Vertical, QStringLiteral("y"));
        QLineSeries *s = panel.addLine(QStringLiteral("s"), Qt::black);
        panel.replacePoints(s, { { 0, -1 }, { 1, -1 } });
        panel.axisX()->setRange(0, 1);
        panel.axisY()->setRange(-1, 1);
        // The vertical grid lines' width in device pixels: over rows between two horizontal grid
        // lines, the narrowest of each row's widest run of non-white pixels inside the plot.
        const auto gridWidth = [&](qreal dpr) {
            const QImage image = panel.renderImage(QSize(400, 300), dpr);
            int narrowest = image.width();
            for (int y = int(image.height() * 0.30); y < int(image.height() * 0.45); ++y) {
                int widest = 0, run = 0;
                for (int x = int(image.width() * 0.2); x < int(image.width() * 0.95); ++x) {
                    run = image.pixel(x, y) == qRgb(255, 255, 255) ? 0 : run + 1;
                    widest = std::max(widest, run);
                }
                narrowest = std::min(narrowest, widest);
            }
            return narrowest;
        };
        const int one = gridWidth(1.0), three = gridWidth(3.0);
        QVERIFY2(one >= 1 && one <= 2, qPrintable(QString::number(one)));
        QVERIFY2(three >= 3 && three <= 5, qPrintable(QString::number(three)));
        QCOMPARE(panel.axisX()->gridLinePen().widthF(), 0.0);
        QCOMPARE(panel.axisX()->linePen().widthF(), 0.0);
        QCOMPARE(panel.axisY()->minorGridLinePen().widthF(), 0.0);
    }
};

QTEST_MAIN(TestChartPanel)
#include "tst_chart_panel.moc"
