#pragma once
// The points of a chart series from core's vectors, and series kept out of a chart's legend: the
// helpers every chart of the labs needs (they were written in five views).
#include <QList>
#include <QPointF>

#include <vector>

class QAbstractSeries;
class QChart;

namespace fb {

// (i, values[i]) for every i.
QList<QPointF> indexPoints(const std::vector<double> &values);
// (x[i], scale * y[i]) up to the shorter of the two.
QList<QPointF> xyPoints(const std::vector<double> &x, const std::vector<double> &y, double scale = 1.0);
// The series draws but has no entry in the chart's legend.
void hideFromLegend(QChart *chart, QAbstractSeries *series);

} // namespace fb
