#include "views/widgets/minor_grid.h"

#include <QChart>
#include <QLogValueAxis>
#include <QPainter>

#include <cmath>

namespace fb {

namespace {

constexpr qreal kTick = 2.0;          // Qt Charts' minor tick: half its label padding of 4
constexpr qreal kGridZ = 2.0;         // Qt Charts' grid lies at z 2 (ChartPresenter::GridZValue)
constexpr double kMinDecadePx = 8.0;  // narrower decades get no minor grid (8 lines in under 8 px)

// The device pixel that holds p, back in logical coordinates (scale: device pixels per unit).
qreal snapped(qreal p, qreal scale)
{
    return scale > 0 ? std::floor(p * scale) / scale : std::floor(p);
}

} // namespace

MinorGrid::MinorGrid(QChart *chart)
    : chart_(chart)
{
    setParentItem(chart);
    setZValue(kGridZ - 0.5);  // above the plot's background and shades, below the major grid
    setAcceptedMouseButtons(Qt::NoButton);
    plotAreaChanged(chart->plotArea());
    connect(chart, &QChart::plotAreaChanged, this, &MinorGrid::plotAreaChanged);
}

void MinorGrid::watch(QAbstractAxis *axis)
{
    const auto repaint = [this] { update(); };
    connect(axis, &QAbstractAxis::visibleChanged, this, repaint);
    connect(axis, &QAbstractAxis::minorGridVisibleChanged, this, repaint);
    connect(axis, &QAbstractAxis::minorGridLinePenChanged, this, repaint);
    connect(axis, &QAbstractAxis::lineVisibleChanged, this, repaint);
    connect(axis, &QAbstractAxis::linePenChanged, this, repaint);
    connect(axis, &QAbstractAxis::reverseChanged, this, repaint);
    if (auto *log = qobject_cast<QLogValueAxis *>(axis)) {
        connect(log, &QLogValueAxis::rangeChanged, this, repaint);
        connect(log, &QLogValueAxis::baseChanged, this, repaint);
    }
}

QLogValueAxis *MinorGrid::logAxis(Qt::Orientation orientation) const
{
    for (QAbstractAxis *axis : chart_->axes(orientation)) {
        auto *log = qobject_cast<QLogValueAxis *>(axis);
        if (log && log->isVisible() && log->base() == 10.0 && std::isfinite(log->min()) && std::isfinite(log->max())
            && log->min() > 0.0 && log->max() > log->min())
            return log;
    }
    return nullptr;
}

QList<qreal> MinorGrid::positions(Qt::Orientation orientation) const
{
    return positions(logAxis(orientation), orientation, chart_->plotArea());
}

QList<qreal> MinorGrid::positions(const QLogValueAxis *axis, Qt::Orientation orientation, const QRectF &plot)
{
    QList<qreal> out;
    if (!axis || plot.isEmpty()) return out;
    const double lo = std::log10(axis->min()), hi = std::log10(axis->max());
    const bool horizontal = orientation == Qt::Horizontal;
    const double length = horizontal ? plot.width() : plot.height();
    if (length / (hi - lo) < kMinDecadePx) return out;
    // Measured from the left and from the bottom, as Qt Charts places its ticks (the other end when
    // the axis is reversed).
    const bool fromEnd = axis->isReverse();
    for (double decade = std::floor(lo); decade <= std::ceil(hi); ++decade) {
        for (int m = 2; m <= 9; ++m) {
            const double at = decade + std::log10(double(m));
            if (at <= lo || at >= hi) continue;
            double offset = (at - lo) / (hi - lo) * length;
            if (fromEnd) offset = length - offset;
            out.append(horizontal ? plot.left() + offset : plot.bottom() - offset);
        }
    }
    return out;
}

void MinorGrid::plotAreaChanged(const QRectF &plotArea)
{
    prepareGeometryChange();
    bounds_ = plotArea.adjusted(-kTick - 1, -kTick - 1, kTick + 1, kTick + 1);
}

QRectF MinorGrid::boundingRect() const
{
    return bounds_;
}

void MinorGrid::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF plot = chart_->plotArea();
    if (plot.isEmpty()) return;
    const QTransform device = painter->deviceTransform();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    for (Qt::Orientation o : { Qt::Horizontal, Qt::Vertical }) {
        const QLogValueAxis *axis = logAxis(o);
        if (!axis) continue;
        const bool horizontal = o == Qt::Horizontal;
        const qreal scale = horizontal ? device.m11() : device.m22();
        QList<QLineF> grid, ticks;
        const bool start = axis->alignment() & (Qt::AlignLeft | Qt::AlignTop);
        for (qreal exact : positions(axis, o, plot)) {
            // An unantialiased line at p fills the device pixel [p, p + 1): the one holding the position.
            const qreal p = snapped(exact, scale);
            if (horizontal) {
                if (p < plot.left() || p > plot.right()) continue;
                grid.append(QLineF(p, plot.top(), p, plot.bottom()));
                const qreal y = start ? plot.top() : plot.bottom();
                ticks.append(QLineF(p, y, p, start ? y - kTick : y + kTick));
            } else {
                if (p < plot.top() || p > plot.bottom()) continue;
                grid.append(QLineF(plot.left(), p, plot.right(), p));
                const qreal x = start ? plot.left() : plot.right();
                ticks.append(QLineF(start ? x - kTick : x + kTick, p, x, p));
            }
        }
        if (axis->isMinorGridLineVisible() && !grid.isEmpty()) {
            painter->setPen(axis->minorGridLinePen());
            painter->drawLines(grid);
        }
        if (axis->isLineVisible() && !ticks.isEmpty()) {
            painter->setPen(axis->linePen());
            painter->drawLines(ticks);
        }
    }
    painter->restore();
}

} // namespace fb
