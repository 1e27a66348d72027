#pragma once
// Holds a chart's series replots while a result is drawn. Qt Charts strokes a series' whole path
// each time it is laid out: once when its points are replaced and again when the axis range that
// usually follows changes. While held, a series takes its new points quietly; when the hold ends,
// a series is told of its points only if no range change has laid it out with them since.
#include <QList>
#include <QPointF>
#include <QPointer>
#include <QXYSeries>

namespace fb {

class ReplotHold {
public:
    void hold() { holding_ = true; }
    bool isHolding() const { return holding_; }
    // The series' new points, its chart item not told yet (holding only).
    void replace(QXYSeries *series, const QList<QPointF> &points);
    // Ends the hold.
    void release();

private:
    // A series replaced while held, with its axes' ranges then.
    struct Held {
        QPointer<QXYSeries> series;
        QList<QPointF> ranges;
    };
    bool holding_ = false;
    QList<Held> held_;
};

} // namespace fb
