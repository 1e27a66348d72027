#pragma once
// While an export at a device pixel ratio above 1 renders a chart: its hairline pens (grid, minor
// grid, axis lines and ticks, all width 0: one device pixel) drawn one logical pixel wide instead,
// as the screen shows them. Without it a PNG for a slide at scale 3 has a grid a third as heavy as
// the window's. The pens are put back when this goes out of scope.
#include <QList>
#include <QPen>

class QAbstractAxis;
class QChart;

namespace fb {

class ExportPens {
public:
    ExportPens(QChart *chart, qreal devicePixelRatio);
    ~ExportPens();
    ExportPens(const ExportPens &) = delete;
    ExportPens &operator=(const ExportPens &) = delete;

private:
    struct Saved {
        QAbstractAxis *axis;
        QPen grid, minorGrid, line;
    };
    QList<Saved> saved_;
};

} // namespace fb
