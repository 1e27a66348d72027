#include "views/widgets/series_points.h"

#include <QAbstractSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>

namespace fb {

QList<QPointF> indexPoints(const std::vector<double> &values)
{
    QList<QPointF> pts;
    pts.reserve(qsizetype(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) pts.append(QPointF(double(i), values[i]));
    return pts;
}

QList<QPointF> xyPoints(const std::vector<double> &x, const std::vector<double> &y, double scale)
{
    QList<QPointF> pts;
    pts.reserve(qsizetype(std::min(x.size(), y.size())));
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) pts.append(QPointF(x[i], y[i] * scale));
    return pts;
}

void hideFromLegend(QChart *chart, QAbstractSeries *series)
{
    for (QLegendMarker *m : chart->legend()->markers(series)) m->setVisible(false);
}

} // namespace fb
