#pragma once
// How much of a drawn line a box would hide, in pixels: for the labels placed inside a chart
// (ChartLabel, the loss chart's floor label), which take the place that hides the least.
#include <QList>
#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <cmath>

namespace fb {

// The length of the segment a-b inside r (Liang-Barsky clipping); 0 for a segment with a
// non-finite end
inline double insideLength(QPointF a, QPointF b, const QRectF &r)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    if (!std::isfinite(dx) || !std::isfinite(dy)) return 0.0;
    double t0 = 0.0, t1 = 1.0;
    const auto clip = [&](double p, double q) {
        if (p == 0.0) return q >= 0.0;
        const double t = q / p;
        if (p < 0.0) {
            if (t > t1) return false;
            t0 = std::max(t0, t);
        } else {
            if (t < t0) return false;
            t1 = std::min(t1, t);
        }
        return true;
    };
    if (clip(-dx, a.x() - r.left()) && clip(dx, r.right() - a.x()) && clip(-dy, a.y() - r.top())
        && clip(dy, r.bottom() - a.y()))
        return (t1 - t0) * std::hypot(dx, dy);
    return 0.0;
}

// The length of the polyline through points (in pixels) inside r
inline double insideLength(const QList<QPointF> &points, const QRectF &r)
{
    double length = 0.0;
    for (qsizetype i = 1; i < points.size(); ++i) length += insideLength(points[i - 1], points[i], r);
    return length;
}

} // namespace fb
