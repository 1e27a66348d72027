#include "views/widgets/chart_panel.h"
#include "views/widgets/chart_label.h"

#include "views/widgets/axis_hold.h"
#include "views/widgets/export_pens.h"
#include "views/widgets/fitted_font.h"
#include "views/widgets/minor_grid.h"
#include "views/widgets/nice_number.h"

#include <QChart>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QMetaObject>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace fb {

namespace {
constexpr double kTitlePt = 13.0;
constexpr double kLabelPt = 10.5;
constexpr double kAxisTitlePt = 11.0;
constexpr double kLegendPt = 10.5;

QFont pointFont(double pt, bool bold = false)
{
    QFont f;
    f.setPointSizeF(pt);
    f.setBold(bold);
    return f;
}

// The range and tick count QValueAxis::applyNiceNumbers() gives after setRange(min, max): the same
// arithmetic, so that the axis can be set once instead of to the raw range and then the round one.
// False (nothing changed) where the steps would not fit an int, as for a range far narrower than
// its distance from 0: those are left to Qt.
bool looseNiceNumbers(double &min, double &max, int &ticks)
{
    if (!(max > min) || ticks < 2) return false;
    const double range = niceNumber(max - min, true);
    const double step = niceNumber(range / (ticks - 1), false);
    const double lo = std::floor(min / step), hi = std::ceil(max / step);
    constexpr double kIntLimit = 2147483647.0;
    if (!(std::fabs(lo) < kIntLimit && std::fabs(hi) < kIntLimit && hi - lo + 1 < kIntLimit)) return false;
    ticks = int(hi - lo) + 1;
    min = lo * step;
    max = hi * step;
    return true;
}
} // namespace

ChartPanel::ChartPanel(const QString &title, QWidget *parent)
    : QChartView(parent)
{
    auto *c = new QChart;
    c->setTheme(QChart::ChartThemeLight);
    c->setAnimationOptions(QChart::NoAnimation);  // live data: no animations
    c->setTitle(title);
    fullTitle_ = title;
    c->setBackgroundBrush(Qt::white);
    c->setBackgroundRoundness(0);
    c->setMargins(QMargins(6, 6, 6, 6));
    c->legend()->setAlignment(Qt::AlignBottom);
    c->legend()->setShowToolTips(true);
    // QChartView made a default chart of its own; setChart releases it without deleting it.
    QChart *initial = chart();
    setChart(c);
    delete initial;
    minorGrid_ = new MinorGrid(c);  // owned by the chart
    setRenderHint(QPainter::Antialiasing);
    // A data change moves most of the chart (series, axes, grid): one paint of the whole view is
    // about three times cheaper than the many small regions of the default minimal update.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setMinimumSize(320, 240);
    applyFonts();
}

QString ChartPanel::exportTitle() const
{
    return fullTitle_;
}

void ChartPanel::setTitle(const QString &title)
{
    if (title == fullTitle_) return;
    fullTitle_ = title;
    fitTexts(size());
}

void ChartPanel::resizeEvent(QResizeEvent *event)
{
    fitTexts(event->size());
    QChartView::resizeEvent(event);
    // fitTexts queued settleLayout: once Qt Charts has laid the chart out at this size, a legend it
    // cut after all is hidden.
}

void ChartPanel::fitTexts(QSizeF size, bool exporting)
{
    QChart *c = chart();
    const qreal room = size.width() - c->margins().left() - c->margins().right() - 16;
    // A title too wide shows the part before ": ", and one still too wide is set smaller (down to
    // 70%) rather than cut.
    const QFont titleFont = pointFont(kTitlePt * fontScale_, true);
    QString shown = fullTitle_;
    if (QFontMetricsF(titleFont).horizontalAdvance(shown) > room && shown.contains(QLatin1String(": ")))
        shown = shown.section(QStringLiteral(": "), 0, 0);
    // Qt Charts gives the title less than the chart's inner width (its layout's own margins).
    const QFont fitted = exporting ? titleFont : fittedFont(titleFont, shown, room - 24, 0.65);
    if (c->titleFont() != fitted) c->setTitleFont(fitted);
    if (c->title() != shown) c->setTitle(shown);

    // (an export's hidden names stay out of the panel's tooltip)
    QStringList exportHidden;
    if (!exporting) legendHidden_.clear();
    legendFit_.fit(c, size, room, exporting, exporting ? exportHidden : legendHidden_);
    fitToPlot(c->plotArea().size(), exporting);
    if (exporting) return;
    // Whatever changed the texts (a new legend entry, a title, a font, a size), the legend's fit is
    // checked again once Qt Charts has laid the chart out: a legend that still cuts the axes moves
    // or goes, also when no resize follows (a chart must not stay cut until the next one).
    if (!settling_ && !settleQueued_) {
        settleQueued_ = true;
        QMetaObject::invokeMethod(this, [this] {
            if (std::exchange(settleQueued_, false)) settleLayout();  // unless a direct call came first
        }, Qt::QueuedConnection);
    }
}

void ChartPanel::fitLogBase(qreal width)
{
    // Log-axis tick labels: the first base whose labels fit side by side in the plot's width.
    auto *logX = qobject_cast<QLogValueAxis *>(axisX_);
    if (logX && !logBases_.isEmpty() && logX->min() > 0 && logX->max() > logX->min() && width > 0) {
        const QFontMetricsF fm(logX->labelsFont());
        const QString widest = QString::asprintf(qPrintable(logX->labelFormat()), logX->max());
        const qreal label = fm.horizontalAdvance(widest) + fm.horizontalAdvance(QLatin1Char('0')) * 2;
        double base = logBases_.last();
        for (double b : logBases_)
            if ((std::floor(std::log(logX->max() / logX->min()) / std::log(b)) + 1) * label <= width) {
                base = b;
                break;
            }
        if (logX->base() != base) logX->setBase(base);  // base 10 gets the 2 ... 9 grid (MinorGrid)
    }
}

void ChartPanel::fitToPlot(QSizeF plot, bool exporting)
{
    if (!exporting) fittedPlot_ = plot;
    QStringList hidden = legendHidden_;
    axisTitleFit_.fit(chart(), plot, pointFont(kAxisTitlePt * fontScale_), exporting, hidden);
    fitLogBase(plot.width());
    if (exporting) return;
    // what does not show goes to the tooltip
    if (!hidden.isEmpty()) {
        if (!tipSaved_) toolTipBeforeFit_ = toolTip();
        tipSaved_ = true;
        setToolTip(hidden.join(QLatin1Char('\n')));
    } else if (tipSaved_) {
        setToolTip(toolTipBeforeFit_);
        tipSaved_ = false;
    }
}

void ChartPanel::setShortAxisTitle(QAbstractAxis *axis, const QString &title)
{
    axisTitleFit_.setShortTitle(axis, title);
    fitTexts(size());
}

void ChartPanel::checkCutLegend()
{
    if (legendFit_.noteCuts(chart(), size(), kMinPlotHeight * fontScale_)) fitTexts(size());
}

void ChartPanel::applyFonts()
{
    QChart *c = chart();
    c->setTitleFont(pointFont(kTitlePt * fontScale_, true));
    // The legend grows less than the rest (13.3 points at the lecture's 1.6, not 16.8): a row of
    // four entries at the full size left a small chart on a slide no legend at all.
    c->legend()->setFont(pointFont(kLegendPt * std::sqrt(fontScale_)));
    for (QAbstractAxis *a : c->axes()) {
        a->setLabelsFont(pointFont(kLabelPt * fontScale_));
        a->setTitleFont(pointFont(kAxisTitlePt * fontScale_));
    }
}

void ChartPanel::setFontScale(double scale)
{
    fontScale_ = scale;
    applyFonts();
    // the chart's labels at data points (an annotation of 11 pixels was small print on a slide)
    for (ChartLabel *label : chart()->findChildren<ChartLabel *>(Qt::FindDirectChildrenOnly)) label->setFontScale(scale);
    fitTexts(size());
    // Lines thicken with the fonts so a projector shows them from the back row.
    for (QAbstractSeries *series : chart()->series()) {
        auto *xy = qobject_cast<QXYSeries *>(series);
        const QVariant base = series->property("fbBaseWidth");
        if (!xy || !base.isValid()) continue;
        QPen pen = xy->pen();
        pen.setWidthF(base.toDouble() * scale);
        xy->setPen(pen);
    }
}

void ChartPanel::styleAxis(QAbstractAxis *axis, const QString &title)
{
    axis->setTitleText(title);
    axis->setLabelsColor(QColor(40, 40, 40));
    axis->setTitleBrush(QColor(20, 20, 20));
    // Hairline pens (width 0: one device pixel) for the grid, the axis line and its ticks. Each is a
    // QGraphicsLineItem, whose bounding box with a wider pen is found by stroking the line into a
    // path; with every tick and grid line moved on each new range, that stroking cost more than
    // drawing the curves.
    axis->setGridLinePen(QPen(QColor(225, 225, 225), 0));
    axis->setMinorGridLinePen(QPen(QColor(242, 242, 242), 0));
    axis->setLinePen(QPen(QColor(120, 120, 120), 0));
    axis->setLabelsFont(pointFont(kLabelPt * fontScale_));
    axis->setTitleFont(pointFont(kAxisTitlePt * fontScale_));
}

static void replaceAxis(QChart *chart, QAbstractAxis *&slot, QAbstractAxis *axis, Qt::Alignment align)
{
    if (slot) {
        // Qt Charts deletes the axis' graphics later, from the event loop: hide them first so an
        // export rendered before then (headless, no event loop) does not show the old axis.
        slot->setVisible(false);
        chart->removeAxis(slot);
        delete slot;
    }
    slot = axis;
    chart->addAxis(axis, align);
    for (QAbstractSeries *s : chart->series()) s->attachAxis(axis);
}

QValueAxis *ChartPanel::setValueAxis(Qt::Orientation orientation, const QString &title)
{
    auto *axis = new QValueAxis;
    axis->setLabelFormat(QStringLiteral("%g"));
    styleAxis(axis, title);
    if (orientation == Qt::Horizontal) replaceAxis(chart(), axisX_, axis, Qt::AlignBottom);
    else replaceAxis(chart(), axisY_, axis, Qt::AlignLeft);
    return axis;
}

QLogValueAxis *ChartPanel::setLogAxis(Qt::Orientation orientation, const QString &title, double base)
{
    auto *axis = new QLogValueAxis;
    axis->setBase(base);
    axis->setLabelFormat(QStringLiteral("%g"));
    styleAxis(axis, title);  // no Qt minor ticks: MinorGrid draws base 10's 2 ... 9 grid
    if (orientation == Qt::Horizontal) replaceAxis(chart(), axisX_, axis, Qt::AlignBottom);
    else replaceAxis(chart(), axisY_, axis, Qt::AlignLeft);
    minorGrid_->watch(axis);
    return axis;
}

void ChartPanel::attachSeries(QAbstractSeries *series)
{
    chart()->addSeries(series);
    if (axisX_) series->attachAxis(axisX_);
    if (axisY_) series->attachAxis(axisY_);
}

QLineSeries *ChartPanel::addLine(const QString &name, const QColor &color, qreal width, Qt::PenStyle style)
{
    auto *s = new QLineSeries;
    s->setName(name);
    QPen pen(color);
    pen.setWidthF(width);
    pen.setStyle(style);
    // Square caps on solid lines, flat ones on dashes. Qt Charts draws a solid series segment by
    // segment, and the raster engine rasterises a segment directly only when its cap is flat or
    // square: a round cap sends every segment through the general path stroker (arcs, atan2), which
    // was half of a chart's repaint. Square caps close the joins as round ones did.
    pen.setCapStyle(style == Qt::SolidLine ? Qt::SquareCap : Qt::FlatCap);
    s->setPen(pen);
    s->setProperty("fbBaseWidth", width);
    attachSeries(s);
    return s;
}

void ChartPanel::removeSeries(QXYSeries *series)
{
    chart()->removeSeries(series);
    delete series;
}

void ChartPanel::replacePoints(QXYSeries *series, const QList<QPointF> &points)
{
    const bool logX = axisX_ && axisX_->type() == QAbstractAxis::AxisTypeLogValue;
    const bool logY = axisY_ && axisY_->type() == QAbstractAxis::AxisTypeLogValue;
    QList<QPointF> clean;
    clean.reserve(points.size());
    for (const QPointF &p : points) {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
        if ((logX && p.x() <= 0.0) || (logY && p.y() <= 0.0)) continue;
        clean.append(p);
    }
    // The points the series already shows: replace() would lay the series out and repaint the chart
    // for nothing. Compared exactly (QPointF's == is fuzzy: 1e-30 would equal 2e-30).
    const QList<QPointF> current = series->points();
    const bool same = current.size() == clean.size()
        && std::equal(current.cbegin(), current.cend(), clean.cbegin(), [](const QPointF &a, const QPointF &b) {
               return a.x() == b.x() && a.y() == b.y();
           });
    if (same) return;
    if (held_.isHolding()) held_.replace(series, clean);
    else series->replace(clean);
}

bool ChartPanel::setTickedRange(QValueAxis *axis, double lo, double hi, double interval)
{
    if (!axis || !std::isfinite(lo) || !std::isfinite(hi) || !(interval > 0.0)) return false;
    if (axis->min() == lo && axis->max() == hi && axis->tickInterval() == interval
        && axis->tickType() == QValueAxis::TicksDynamic && axis->tickAnchor() == 0.0)
        return false;
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(interval);
    axis->setRange(lo, hi);
    return true;
}

void ChartPanel::setRange(QAbstractAxis *axis, double lo, double hi, double padFraction)
{
    if (!axis || !std::isfinite(lo) || !std::isfinite(hi)) return;
    if (hi < lo) std::swap(lo, hi);
    AxisHold::adjust(axis, lo, hi);  // an animation's axes stay put over its frames
    if (axis->type() == QAbstractAxis::AxisTypeLogValue) {
        if (hi <= 0.0) return;
        if (lo <= 0.0) lo = hi * 1e-6;
        const double f = std::pow(hi / lo, padFraction);
        if (hi == lo) { lo /= 2.0; hi *= 2.0; }
        axis->setRange(lo / f, hi * f);
        return;
    }
    double pad = (hi - lo) * padFraction;
    if (hi == lo) pad = std::max(std::fabs(hi) * 0.05, 1e-9);  // an empty range, not "no padding"
    double min = lo - pad, max = hi + pad;
    auto *value = qobject_cast<QValueAxis *>(axis);
    if (!value) {
        axis->setRange(min, max);
        return;
    }
    // Round ticks (0, 5, 10, ...) instead of the range's raw ends: the range applyNiceNumbers() would
    // pick, set in one step. An axis whose range does not change is not laid out again, and one that
    // does is laid out once, not twice (each layout rebuilds every tick label).
    // The tick count asked for, not the one the last range left: 0 to 300 takes 4 ticks of 100, and
    // from 4 ticks the next call would step by 200 and end at 400. A count set by hand since is asked for.
    const QVariant asked = value->property("fbAskedTicks"), given = value->property("fbGivenTicks");
    const int askedTicks = asked.isValid() && given.toInt() == value->tickCount() ? asked.toInt() : value->tickCount();
    int ticks = askedTicks;
    value->setProperty("fbAskedTicks", askedTicks);
    if (!looseNiceNumbers(min, max, ticks)) {
        value->setRange(min, max);
        value->setTickCount(askedTicks);
        value->applyNiceNumbers();
        value->setProperty("fbGivenTicks", value->tickCount());
        return;
    }
    value->setRange(min, max);
    value->setTickCount(ticks);
    value->setProperty("fbGivenTicks", ticks);
}

void ChartPanel::settleLayout()
{
    const QScopedValueRollback<bool> inside(settling_, true);
    settleQueued_ = false;  // this call does what a queued one would
    held_.release();
    fitTexts(size());  // a result may have renamed series or retitled the chart
    // The legend's layout request comes first: laying the legend out asks the chart for a layout.
    QChart *c = chart();
    for (QObject *item : { static_cast<QObject *>(c->legend()), static_cast<QObject *>(c) })
        QCoreApplication::sendPostedEvents(item, QEvent::LayoutRequest);
    checkCutLegend();
    for (QObject *item : { static_cast<QObject *>(c->legend()), static_cast<QObject *>(c) })
        QCoreApplication::sendPostedEvents(item, QEvent::LayoutRequest);
    // The axis titles were fitted to the plot Qt Charts had before this layout (a resize's fit runs
    // before the chart takes its new size; a legend moved changes the plot): "loss (nats)" on the
    // induction slide stayed at 60% of its size, fitted to a plot 34 px lower than the one shown.
    // They are fitted again to the plot laid out now, with the log axis' base, the legend left
    // where it is. A title's size can change the plot again (a wider vertical title narrows it), so
    // this repeats, four times at most, fitted to the least plot laid out so far (a title fitted to
    // a plot larger than the one shown would be cut; a smaller title only leaves the plot larger).
    QSizeF least = c->plotArea().size();
    for (int pass = 0; pass < 4 && least != fittedPlot_ && !least.isEmpty(); ++pass) {
        fitToPlot(least, false);
        QCoreApplication::sendPostedEvents(c, QEvent::LayoutRequest);
        least = least.boundedTo(c->plotArea().size());
    }
}

void ChartPanel::paintExport(QPainter &painter, QSize logicalSize)
{
    // Lay the chart out at the export size, render it, and put it back: all on the GUI thread
    // with no event processing in between, so the chart on screen never shows the export size.
    QChart *c = chart();
    const QRectF oldGeometry = c->geometry();
    const ExportPens pens(c, painter.deviceTransform().m11());
    fitTexts(QSizeF(logicalSize), true);
    QCoreApplication::sendPostedEvents(c->legend(), QEvent::LayoutRequest);
    c->setGeometry(QRectF(QPointF(0, 0), QSizeF(logicalSize)));
    if (c->layout()) c->layout()->activate();
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(logicalSize)), Qt::white);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    c->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(logicalSize)), QRectF(QPointF(0, 0), QSizeF(logicalSize)));
    c->setGeometry(oldGeometry);
    fitTexts(size());
    QCoreApplication::sendPostedEvents(c->legend(), QEvent::LayoutRequest);
    if (c->layout()) c->layout()->activate();
}

QString ChartPanel::csv() const
{
    QList<QXYSeries *> series;
    for (QAbstractSeries *s : chart()->series())
        if (auto *xy = qobject_cast<QXYSeries *>(s); xy && xy->isVisible() && xy->count() > 0) series.append(xy);
    if (series.isEmpty()) return {};
    auto quote = [](QString t) { return QLatin1Char('"') + t.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
    QStringList header;
    qsizetype rows = 0;
    for (QXYSeries *s : series) {
        header << quote(s->name() + QStringLiteral(" x")) << quote(s->name() + QStringLiteral(" y"));
        rows = std::max(rows, qsizetype(s->count()));
    }
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (qsizetype r = 0; r < rows; ++r) {
        QStringList cells;
        for (QXYSeries *s : series) {
            if (r < s->count()) {
                const QPointF p = s->at(r);
                cells << QString::number(p.x(), 'g', 17) << QString::number(p.y(), 'g', 17);
            } else {
                cells << QString() << QString();
            }
        }
        out += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QStringList ChartPanel::layoutProblems() const
{
    QStringList problems;
    if (!isVisible() || !scene()) return problems;
    for (const QGraphicsItem *item : scene()->items()) {
        if (!item->isVisible()) continue;
        QString text;
        if (const auto *rich = dynamic_cast<const QGraphicsTextItem *>(item)) text = rich->toPlainText();
        else if (const auto *plain = dynamic_cast<const QGraphicsSimpleTextItem *>(item)) text = plain->text();
        if (text.endsWith(QLatin1String("...")))
            problems << QStringLiteral("chart '%1': text cut to '%2'").arg(exportTitle(), text);
    }
    const QRectF plot = chart()->plotArea();
    if (!chart()->series().isEmpty() && plot.height() < kMinPlotHeight * fontScale_)
        problems << QStringLiteral("chart '%1': plot area %2 px high (at least %3)")
                        .arg(exportTitle()).arg(int(plot.height())).arg(int(kMinPlotHeight * fontScale_));
    return problems;
}

} // namespace fb
