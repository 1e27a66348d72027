#include "views/compare/compare_chart.h"

#include "views/widgets/nice_number.h"
#include "views/widgets/palette.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fb {

CompareChart::CompareChart(const QString &title, const QString &yTitle, bool withTraining, double yMax, QWidget *parent,
                           const QString &xTitle)
    : ChartPanel(title, parent)
    , withTraining_(withTraining)
    , yMax_(yMax)
{
    // The steps axis ends at the last step, ticks at a round spacing from 0 (a loose range of
    // round ends drew 3,000 steps on an axis to 4,000).
    auto *x = setValueAxis(Qt::Horizontal, xTitle.isEmpty() ? tr("training step") : xTitle);
    x->setLabelFormat(QStringLiteral("%d"));
    setValueAxis(Qt::Vertical, yTitle);
    updateRanges();
}

void CompareChart::start(const QStringList &labels, int steps, const std::vector<int> &colours)
{
    const auto colourOf = [&colours](int i) { return seriesColor(i < int(colours.size()) ? colours[std::size_t(i)] : i); };
    for (QLineSeries *s : training_) removeSeries(s);
    for (QLineSeries *s : held_) removeSeries(s);
    for (QScatterSeries *s : dots_) removeSeries(s);
    training_.clear();
    held_.clear();
    dots_.clear();
    trainPoints_.assign(std::size_t(labels.size()), {});
    heldPoints_.assign(std::size_t(labels.size()), {});
    steps_ = std::max(1, steps);
    for (int i = 0; i < labels.size(); ++i) {
        const QColor colour = colourOf(i);
        if (withTraining_) {
            QColor faint = colour;
            faint.setAlphaF(0.22);
            training_.push_back(addLine(labels[i] + tr(" (training)"), faint, 1.0));
            for (QLegendMarker *m : chart()->legend()->markers(training_.back())) m->setVisible(false);
        }
    }
    for (int i = 0; i < labels.size(); ++i) {
        const QColor colour = colourOf(i);
        held_.push_back(addLine(labels[i], colour, 2.5));
        auto *dots = attach(new QScatterSeries);
        dots->setColor(colour);
        dots->setBorderColor(colour);
        dots->setMarkerSize(6);
        dots_.push_back(dots);
        for (QLegendMarker *m : chart()->legend()->markers(dots)) m->setVisible(false);
    }
    updateRanges();
}

void CompareChart::appendTraining(int config, const std::vector<double> &values)
{
    if (!withTraining_ || config < 0 || config >= int(training_.size()) || values.empty()) return;
    QList<QPointF> &points = trainPoints_[std::size_t(config)];
    for (double v : values) points.append(QPointF(points.size() + 1, v));
    redraw(config);
}

void CompareChart::appendHeldout(int config, int step, double value)
{
    if (config < 0 || config >= int(held_.size()) || !std::isfinite(value)) return;
    heldPoints_[std::size_t(config)].append(QPointF(step, value));
    redraw(config);
}

void CompareChart::setCurves(int config, const std::vector<double> &training, const QList<QPointF> &heldout)
{
    if (config < 0 || config >= int(held_.size())) return;
    trainPoints_[std::size_t(config)].clear();
    if (withTraining_)
        for (std::size_t k = 0; k < training.size(); ++k)
            trainPoints_[std::size_t(config)].append(QPointF(double(k + 1), training[k]));
    QList<QPointF> held;
    for (const QPointF &p : heldout)
        if (std::isfinite(p.y())) held.append(p);
    heldPoints_[std::size_t(config)] = held;
    redraw(config);
}

void CompareChart::redraw(int config)
{
    const std::size_t i = std::size_t(config);
    if (withTraining_) replacePoints(training_[i], trainPoints_[i]);
    replacePoints(held_[i], heldPoints_[i]);
    replacePoints(dots_[i], heldPoints_[i]);
    updateRanges();
}

void CompareChart::resizeEvent(QResizeEvent *event)
{
    ChartPanel::resizeEvent(event);
    updateStepAxis();  // the values' span does not change with the size
}

void CompareChart::updateStepAxis()
{
    setTickedRange(static_cast<QValueAxis *>(axisX()), 0.0, steps_, stepInterval());
}

double CompareChart::stepInterval() const
{
    // A 1,000-step comparison's last label was cut to "10..." on a 1024 x 768 slide: six labels of
    // the slide's font did not fit the accuracy chart. Each label is given 1.6 times its width; the
    // plot is the chart's width less the vertical axis and the margins.
    const double label = 1.6 * QFontMetricsF(axisX()->labelsFont()).horizontalAdvance(QString::number(steps_));
    const double plot = std::max(1.0, double(width()) - 90.0);
    const double gaps = std::clamp(std::floor(plot / std::max(label, 1.0)), 1.0, 5.0);
    // at most the last step: one gap labels 0 and the end, never 0 alone
    return std::min(niceNumber(std::max(steps_ / gaps, 1.0), true), double(std::max(steps_, 1)));
}

void CompareChart::updateRanges()
{
    updateStepAxis();
    if (yMax_ > 0.0) {
        setRange(axisY(), 0, yMax_, 0.0);
        return;
    }
    // The span of what is drawn (the configurations' differences, not the distance from 0).
    double lo = 0.0, hi = 0.0;
    bool any = false;
    for (const auto *points : { &trainPoints_, &heldPoints_ })
        for (const QList<QPointF> &list : *points)
            for (const QPointF &p : list) {
                if (!std::isfinite(p.y())) continue;
                lo = any ? std::min(lo, p.y()) : p.y();
                hi = any ? std::max(hi, p.y()) : p.y();
                any = true;
            }
    if (!any) {
        lo = 0.0;
        hi = 1.0;
    } else if (hi - lo < 1e-3) {
        lo -= 0.05;
        hi += 0.05;
    }
    // losses are never negative: the padding stops at 0
    const double pad = 0.05 * (hi - lo);
    setRange(axisY(), std::max(0.0, lo - pad), hi + pad, 0.0);
}

} // namespace fb
