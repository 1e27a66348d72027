#pragma once
// The minor grid of a chart's base-10 logarithmic axes (2, 3, ... 9 times each power of ten) and
// its short ticks, drawn by one item in one paint without antialiasing (one crisp pixel a line).
//
// Qt Charts draws every minor grid line and every minor tick as an item of its own, antialiased
// (two half-covered pixel rows a line): on the capacity lab's log-log chart those ~100 items were
// more than half of each redraw (bench_lab_latency capacity p50 5.6 ms with them, 2.4 without).
// The axes keep a minor tick count of 0; this item reads the axes' ranges and the plot area when
// it paints, so it needs no updates of its own beyond a new plot area.
#include <QGraphicsObject>
#include <QList>

class QChart;
class QLogValueAxis;

namespace fb {

class MinorGrid : public QGraphicsObject {
    Q_OBJECT
public:
    // Becomes a child of the chart, below the major grid.
    explicit MinorGrid(QChart *chart);

    // The minor lines' positions in the chart's coordinates (x for a horizontal axis, y for a
    // vertical one), whole pixels, inside the plot area.
    QList<qreal> positions(Qt::Orientation orientation) const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QLogValueAxis *logAxis(Qt::Orientation orientation) const;
    void plotAreaChanged(const QRectF &plotArea);

    QChart *chart_ = nullptr;
    QRectF bounds_;
};

} // namespace fb
