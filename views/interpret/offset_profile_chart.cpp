#include "views/interpret/offset_profile_chart.h"

#include "views/widgets/palette.h"
#include "views/widgets/series_points.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

void extend(double &lo, double &hi, const std::vector<double> &values)
{
    for (double v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
}

} // namespace

OffsetProfileChart::OffsetProfileChart(QWidget *parent)
    : ChartPanel(tr("Mean logit against offset"), parent)
{
    setValueAxis(Qt::Horizontal, tr("offset Δ = i − j (positions)"));
    setValueAxis(Qt::Vertical, tr("mean logit"));
    profile_ = addLine(tr("mean logit"), seriesColor(0), 3.0);
    bound_ = addLine(tr("decay bound"), QColor(120, 120, 120), 2.0, Qt::DashLine);
    clearHead();
}

void OffsetProfileChart::clearHead()
{
    setTitle(tr("Mean logit against offset: after a run"));
    replacePoints(profile_, {});
    replacePoints(bound_, {});
    for (QLineSeries *s : pairLines_) removeSeries(s);
    pairLines_.clear();
    bound_->setVisible(false);
    for (QLegendMarker *m : chart()->legend()->markers(bound_)) m->setVisible(false);
    setRange(axisX(), 0, 16, 0.0);
    setRange(axisY(), -1, 1, 0.0);
}

void OffsetProfileChart::setHead(const QString &name, const std::vector<double> &profile,
                                 const std::vector<std::vector<double>> &pairs, const std::vector<double> &bound)
{
    const bool rope = !pairs.empty();
    setTitle(rope ? tr("%1: mean logit against offset, by RoPE pair").arg(name)
                  : tr("%1: mean logit against offset").arg(name));
    if (pairLines_.size() != pairs.size()) {
        for (QLineSeries *s : pairLines_) removeSeries(s);
        pairLines_.clear();
        for (std::size_t p = 0; p < pairs.size(); ++p) {
            const double t = pairs.size() > 1 ? double(p) / double(pairs.size() - 1) : 0.0;
            QString label;
            if (p == 0) label = tr("fastest pair");
            else if (p + 1 == pairs.size()) label = tr("slowest pair");
            QLineSeries *s = addLine(label, viridis(0.9 * t), 1.5);
            pairLines_.push_back(s);
            if (label.isEmpty())
                for (QLegendMarker *m : chart()->legend()->markers(s)) m->setVisible(false);
        }
    }
    double lo = 0.0, hi = 0.0;
    extend(lo, hi, profile);
    replacePoints(profile_, indexPoints(profile));
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        replacePoints(pairLines_[p], indexPoints(pairs[p]));
        extend(lo, hi, pairs[p]);
    }
    const bool withBound = rope && !bound.empty();
    bound_->setVisible(withBound);
    for (QLegendMarker *m : chart()->legend()->markers(bound_)) m->setVisible(withBound);
    replacePoints(bound_, withBound ? indexPoints(bound) : QList<QPointF> {});
    if (withBound) extend(lo, hi, bound);
    setRange(axisX(), 0, std::max<double>(1.0, double(profile.size()) - 1.0), 0.0);
    setRange(axisY(), lo, hi > lo ? hi : lo + 1.0);
}

} // namespace fb
