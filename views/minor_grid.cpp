#include "views/minor_grid.h"

#include <QChart>
#include <QLogValueAxis>
#include <QPainter>

#include <cmath>

namespace fb {

namespace {

constexpr qreal kTick = 2.0;        // Qt Charts' minor tick: half its label padding of 4
constexpr qreal kChartZ = 2.0;      // Qt Charts' grid lies at z 2 (ChartPresenter::GridZValue)

} // namespace

MinorGrid::MinorGrid(QChart *chart)
    : chart_(chart)
{
    setParentItem(chart);
    setZValue(kChartZ - 0.5);  // above the plot's background and shades, below the major grid
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
    connect(chart, &QChart::plotAreaChanged, this, &MinorGrid::plotAreaChanged);
}

QLogValueAxis *MinorGrid::logAxis(Qt::Orientation orientation) const
{
    for (QAbstractAxis *axis : chart_->axes(orientation)) {
        auto *log = qobject_cast<QLogValueAxis *>(axis);
        if (log && log->isVisible() && log->base() == 10.0 && log->min() > 0.0 && log->max() > log->min()) return log;
    }
    return nullptr;
}

QList<qreal> MinorGrid::positions(Qt::Orientation orientation) const
{
    QList<qreal> out;
    const QLogValueAxis *axis = logAxis(orientation);
    const QRectF plot = chart_->plotArea();
    if (!axis || plot.isEmpty()) return out;
    const double lo = std::log10(axis->min()), hi = std::log10(axis->max());
    const bool horizontal = orientation == Qt::Horizontal;
    const double length = horizontal ? plot.width() : plot.height();
    for (double decade = std::floor(lo); decade <= std::ceil(hi); ++decade) {
        for (int m = 2; m <= 9; ++m) {
            const double at = decade + std::log10(double(m));
            if (at <= lo || at >= hi) continue;
            const double offset = (at - lo) / (hi - lo) * length;
            // Whole pixels, as Qt Charts places its major grid (floor from the left, up from the bottom).
            out.append(horizontal ? std::floor(plot.left() + offset) : std::ceil(plot.bottom() - offset));
        }
    }
    return out;
}

void MinorGrid::plotAreaChanged(const QRectF &plotArea)
{
    prepareGeometryChange();
    bounds_ = plotArea.adjusted(-kTick - 1, -1, 1, kTick + 1);
}

QRectF MinorGrid::boundingRect() const
{
    return bounds_;
}

void MinorGrid::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF plot = chart_->plotArea();
    if (plot.isEmpty()) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    for (Qt::Orientation o : { Qt::Horizontal, Qt::Vertical }) {
        const QLogValueAxis *axis = logAxis(o);
        if (!axis) continue;
        const QList<qreal> at = positions(o);
        if (at.isEmpty()) continue;
        QList<QLineF> grid, ticks;
        grid.reserve(at.size());
        ticks.reserve(at.size());
        const bool start = axis->alignment() & (Qt::AlignLeft | Qt::AlignTop);
        for (qreal p : at) {
            if (o == Qt::Horizontal) {
                grid.append(QLineF(p, plot.top(), p, plot.bottom()));
                const qreal y = start ? plot.top() : plot.bottom();
                ticks.append(QLineF(p, y, p, start ? y - kTick : y + kTick));
            } else {
                grid.append(QLineF(plot.left(), p, plot.right(), p));
                const qreal x = start ? plot.left() : plot.right();
                ticks.append(QLineF(start ? x - kTick : x + kTick, p, x, p));
            }
        }
        if (axis->isMinorGridLineVisible()) {
            painter->setPen(axis->minorGridLinePen());
            painter->drawLines(grid);
        }
        if (axis->isLineVisible()) {
            painter->setPen(axis->linePen());
            painter->drawLines(ticks);
        }
    }
    painter->restore();
}

} // namespace fb
