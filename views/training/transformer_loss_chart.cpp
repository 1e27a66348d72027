#include "views/training/transformer_loss_chart.h"

#include "views/training/moving_average.h"
#include "views/widgets/chart_label.h"
#include "views/widgets/palette.h"
#include "views/widgets/series_points.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fb {

TransformerLossChart::TransformerLossChart(QWidget *parent)
    : ChartPanel(tr("Loss while training"), parent)
{
    setValueAxis(Qt::Horizontal, tr("training step"));
    setValueAxis(Qt::Vertical, tr("loss (nats)"));
    QColor faint = seriesColor(0);
    faint.setAlphaF(0.25);
    raw_ = addLine(tr("training, each step"), faint, 1.0);
    smooth_ = addLine(tr("training"), seriesColor(0), 2.5);
    held_ = addLine(tr("held-out"), seriesColor(1), 2.5);
    repeat_ = addLine(tr("repeat"), seriesColor(2), 2.5, Qt::DashLine);
    heldDots_ = attach(new QScatterSeries);
    heldDots_->setColor(seriesColor(1));
    heldDots_->setBorderColor(seriesColor(1));
    heldDots_->setMarkerSize(7);
    heldDots_->setName(QString());
    // one legend entry per quantity: the raw curve and the dots belong to the lines in front of them
    for (QAbstractSeries *s : { static_cast<QAbstractSeries *>(heldDots_), static_cast<QAbstractSeries *>(raw_) })
        hideFromLegend(chart(), s);
    repeat_->setVisible(false);
    // the answer tasks' accuracy: its own axis at the right, 0 .. 1
    accuracy_ = addLine(tr("held-out accuracy"), seriesColor(4), 2.0, Qt::DashDotLine);
    trainAccuracy_ = addLine(tr("training accuracy"), seriesColor(5), 2.0, Qt::DotLine);
    accuracyAxis_ = new QValueAxis;
    accuracyAxis_->setTitleText(tr("accuracy"));
    accuracyAxis_->setRange(0.0, 1.0);
    chart()->addAxis(accuracyAxis_, Qt::AlignRight);
    for (QLineSeries *s : { accuracy_, trainAccuracy_ }) {
        s->detachAxis(axisY());
        s->attachAxis(accuracyAxis_);
    }
    const QColor red(0xd0, 0x10, 0x30), grey(90, 90, 90);
    phase_ = addLine(tr("phase change"), red, 1.5, Qt::DotLine);
    replay_ = addLine(tr("replay"), grey, 1.5, Qt::SolidLine);
    // The markers are named on the plot beside their lines, not in the legend (setMarker): a fourth
    // entry did not fit beside the length table at 1024 x 768 ("phase chang...", or no legend at all).
    phaseLabel_ = new ChartLabel(chart(), phase_, red);
    replayLabel_ = new ChartLabel(chart(), replay_, grey);
    setPhaseChange(-1);
    setReplayStep(-1);
    redrawHeldout();  // hides the accuracy until there is one
    updateRanges();
}

void TransformerLossChart::setMarker(QLineSeries *series, ChartLabel *label, int step, const QString &name)
{
    const bool shown = step >= 0;
    series->setName(name);  // the name of its columns in the chart's CSV
    series->setVisible(shown);
    hideFromLegend(chart(), series);  // (showing the series showed its entry)
    replacePoints(series, shown ? QList<QPointF> { QPointF(step, 0.0), QPointF(step, yTop_) } : QList<QPointF> {});
    label->setVisible(shown);
    if (!shown) return;
    // beside the line's top, right or left of it, or its foot: where it hides the least of the curves
    using Place = ChartLabel::Placement;
    const QPointF top(step, yTop_), foot(step, 0.0);
    label->set(name, top, Qt::AlignLeft | Qt::AlignTop, QPointF(4, 3),
               { Place { top, Qt::AlignRight | Qt::AlignTop, QPointF(-4, 3) },
                 Place { foot, Qt::AlignLeft | Qt::AlignBottom, QPointF(4, -3) },
                 Place { foot, Qt::AlignRight | Qt::AlignBottom, QPointF(-4, -3) } });
}

void TransformerLossChart::setPhaseChange(int step)
{
    phaseStep_ = step;
    setMarker(phase_, phaseLabel_, step, step >= 0 ? tr("phase change (%1)").arg(step) : tr("phase change"));
}

void TransformerLossChart::setReplayStep(int step)
{
    replayStep_ = step;
    setMarker(replay_, replayLabel_, step, step >= 0 ? tr("replay (%1)").arg(step) : tr("replay"));
}

void TransformerLossChart::setPlannedSteps(int steps)
{
    if (steps_ == std::max(1, steps)) return;
    steps_ = std::max(1, steps);
    updateRanges();
}

void TransformerLossChart::startRun(int steps, double maxLoss, bool repeatCurve)
{
    steps_ = std::max(1, steps);
    yTop_ = std::max(0.5, maxLoss * 1.1);
    repeatCurve_ = repeatCurve;
    repeat_->setVisible(repeatCurve);
    if (chart()->legend()->markers(repeat_).size()) chart()->legend()->markers(repeat_).first()->setVisible(repeatCurve);
    losses_.clear();
    heldSteps_.clear();
    heldLoss_.clear();
    repeatLoss_.clear();
    accuracyAt_.clear();
    trainAccuracyAt_.clear();
    setPhaseChange(-1);
    setReplayStep(-1);
    redrawTraining();
    redrawHeldout();
    updateRanges();
}

void TransformerLossChart::appendLosses(const std::vector<double> &losses)
{
    if (losses.empty()) return;
    losses_.insert(losses_.end(), losses.begin(), losses.end());
    redrawTraining();
}

void TransformerLossChart::appendHeldout(int step, double loss, double repeatLoss, double accuracy, double trainAccuracy)
{
    if (!heldSteps_.empty() && heldSteps_.back() >= step) return;
    heldSteps_.push_back(step);
    heldLoss_.push_back(loss);
    repeatLoss_.push_back(repeatLoss);
    accuracyAt_.push_back(accuracy);
    trainAccuracyAt_.push_back(trainAccuracy);
    redrawHeldout();
}

void TransformerLossChart::setHeldout(std::vector<int> steps, std::vector<double> loss, std::vector<double> repeatLoss,
                                      std::vector<double> accuracy, std::vector<double> trainAccuracy)
{
    heldSteps_ = std::move(steps);
    heldLoss_ = std::move(loss);
    repeatLoss_ = std::move(repeatLoss);
    accuracyAt_ = std::move(accuracy);
    trainAccuracyAt_ = std::move(trainAccuracy);
    accuracyAt_.resize(heldSteps_.size(), qQNaN());
    trainAccuracyAt_.resize(heldSteps_.size(), qQNaN());
    redrawHeldout();
}

bool TransformerLossChart::accuracyShown() const
{
    return accuracy_->isVisible();
}

void TransformerLossChart::setWindow(int window)
{
    window_ = std::max(1, window);
    redrawTraining();
    for (Ghost &g : ghosts_) replacePoints(g.series, smoothed(g.losses));
}

QList<QPointF> TransformerLossChart::smoothed(const std::vector<double> &losses) const
{
    const int w = std::min<int>(window_, std::max<int>(1, int(losses.size())));
    const std::vector<double> avg = movingAverage(losses, w);
    QList<QPointF> points;
    points.reserve(qsizetype(avg.size()));
    // the mean of steps i+1 .. i+w, drawn at its last step
    for (std::size_t i = 0; i < avg.size(); ++i) points.append(QPointF(double(i + std::size_t(w)), avg[i]));
    return points;
}

void TransformerLossChart::redrawTraining()
{
    QList<QPointF> raw;
    raw.reserve(qsizetype(losses_.size()));
    for (std::size_t i = 0; i < losses_.size(); ++i) raw.append(QPointF(double(i + 1), losses_[i]));
    replacePoints(raw_, raw);
    replacePoints(smooth_, smoothed(losses_));
}

void TransformerLossChart::redrawHeldout()
{
    QList<QPointF> held, repeat, accuracy, trainAccuracy;
    for (std::size_t i = 0; i < heldSteps_.size(); ++i) {
        held.append(QPointF(heldSteps_[i], heldLoss_[i]));
        if (repeatCurve_) repeat.append(QPointF(heldSteps_[i], repeatLoss_[i]));
        if (std::isfinite(accuracyAt_[i])) accuracy.append(QPointF(heldSteps_[i], accuracyAt_[i]));
        if (std::isfinite(trainAccuracyAt_[i])) trainAccuracy.append(QPointF(heldSteps_[i], trainAccuracyAt_[i]));
    }
    replacePoints(held_, held);
    replacePoints(heldDots_, held);
    replacePoints(repeat_, repeat);
    replacePoints(accuracy_, accuracy);
    replacePoints(trainAccuracy_, trainAccuracy);
    // the accuracy's series, legend entries and axis only where there is an accuracy to draw
    const bool shown[2] = { !accuracy.isEmpty(), !trainAccuracy.isEmpty() };
    QLineSeries *series[2] = { accuracy_, trainAccuracy_ };
    for (int k = 0; k < 2; ++k) {
        if (series[k]->isVisible() != shown[k]) series[k]->setVisible(shown[k]);
        for (QLegendMarker *m : chart()->legend()->markers(series[k])) m->setVisible(shown[k]);
    }
    if (accuracyAxis_->isVisible() != shown[0]) accuracyAxis_->setVisible(shown[0]);
}

void TransformerLossChart::addGhost(const QString &label)
{
    if (losses_.empty()) return;
    Ghost g;
    g.label = label;
    g.losses = losses_;
    QColor colour = seriesColor(3 + int(ghosts_.size()) % 5);
    colour.setAlphaF(0.7);
    g.series = addLine(label, colour, 1.5, Qt::DashLine);
    replacePoints(g.series, smoothed(g.losses));
    ghosts_.push_back(std::move(g));
    updateRanges();
}

void TransformerLossChart::clearGhosts()
{
    for (Ghost &g : ghosts_) removeSeries(g.series);
    ghosts_.clear();
    updateRanges();
}

void TransformerLossChart::updateRanges()
{
    int steps = steps_;
    for (const Ghost &g : ghosts_) steps = std::max(steps, int(g.losses.size()));
    setRange(axisX(), 0, steps, 0.0);
    setRange(axisY(), 0, yTop_, 0.0);
    phaseLabel_->reposition();  // and the replay's, made after it
}

} // namespace fb
