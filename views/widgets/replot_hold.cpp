#include "views/widgets/replot_hold.h"

#include <QLogValueAxis>
#include <QSignalBlocker>
#include <QValueAxis>

#include <cmath>
#include <limits>
#include <utility>

namespace fb {

namespace {

// The range of a value or log axis; NaN for one whose range cannot be read here (categories,
// dates), which never counts as having laid the series out: it is told of its points (laid out
// twice at worst).
QPointF axisRange(const QAbstractAxis *axis)
{
    if (auto *v = qobject_cast<const QValueAxis *>(axis)) return { v->min(), v->max() };
    if (auto *l = qobject_cast<const QLogValueAxis *>(axis)) return { l->min(), l->max() };
    return { std::numeric_limits<double>::quiet_NaN(), 0.0 };
}

QList<QPointF> axisRanges(QXYSeries *series)
{
    QList<QPointF> ranges;
    for (const QAbstractAxis *axis : series->attachedAxes()) ranges << axisRange(axis);
    return ranges;
}

} // namespace

void ReplotHold::replace(QXYSeries *series, const QList<QPointF> &points)
{
    {
        const QSignalBlocker quiet(series);
        series->replace(points);
    }
    const QList<QPointF> ranges = axisRanges(series);
    for (Held &h : held_)
        if (h.series == series) {
            h.ranges = ranges;
            return;
        }
    held_.append({ series, ranges });
}

void ReplotHold::release()
{
    holding_ = false;
    for (const Held &h : std::exchange(held_, {})) {
        if (!h.series) continue;
        const QList<QPointF> now = axisRanges(h.series);
        bool laidOut = false;  // by a range that changed since: with its new points already
        for (qsizetype i = 0; i < now.size() && i < h.ranges.size(); ++i)
            laidOut = laidOut || (!std::isnan(now[i].x()) && now[i] != h.ranges[i]);
        // A series emptied while held is told in any case: a range change lays out a series from
        // its points, and with none Qt Charts keeps drawing the path it had (a cleared run's curve
        // stayed on the transformer's new axes).
        if (!laidOut || h.series->count() == 0) Q_EMIT h.series->pointsReplaced();
    }
}

} // namespace fb
