#pragma once
// The minor grid of a chart's base-10 logarithmic axes (2, 3, ... 9 times each power of ten) and
// its short ticks, drawn by one item in one paint without antialiasing (one crisp device pixel a
// line, in the device pixel that holds the exact position).
//
// Qt Charts draws every minor grid line and every minor tick as an item of its own, antialiased
// (two half-covered pixel rows a line): on the capacity lab's log-log chart those ~100 items were
// more than half of each redraw (bench_lab_latency capacity p50 5.6 ms with them, 2.4 without).
// The axes keep a minor tick count of 0. This item reads the axes' ranges and the plot area when
// it paints; watch() repaints it when a watched axis changes what it shows.
#include <QGraphicsObject>
#include <QList>

class QAbstractAxis;
class QChart;
class QLogValueAxis;

namespace fb {

class MinorGrid : public QGraphicsObject {
    Q_OBJECT
public:
    // Becomes a child of the chart, below the major grid.
    explicit MinorGrid(QChart *chart);

    // Repaint when axis changes its range, base, visibility, pens or direction.
    void watch(QAbstractAxis *axis);

    // The minor lines' exact positions in the chart's coordinates (x for a horizontal axis, y for a
    // vertical one), inside the plot area; none over more decades than the plot has room for.
    QList<qreal> positions(Qt::Orientation orientation) const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QLogValueAxis *logAxis(Qt::Orientation orientation) const;
    static QList<qreal> positions(const QLogValueAxis *axis, Qt::Orientation orientation, const QRectF &plot);
    void plotAreaChanged(const QRectF &plotArea);

    QChart *chart_ = nullptr;
    QRectF bounds_;
};

} // namespace fb
