#pragma once
// One chart of the comparison (issue 29): a held-out curve per configuration in its own colour
// (seriesColor(i), the table's colour for that row) with dots at the evaluations, and optionally
// each configuration's training loss of every step behind it, thin and faint. The loss chart and the
// accuracy chart are two of these; so is mqar's recall by number of pairs (its horizontal axis the
// pairs, its points the recall at each count). Draws what it is given.
#include "views/widgets/chart_panel.h"

#include <QList>
#include <QPointF>
#include <QStringList>

#include <vector>

class QLineSeries;
class QScatterSeries;

namespace fb {

class CompareChart : public ChartPanel {
    Q_OBJECT
public:
    // withTraining: the faint training curves too (the loss chart). yMax > 0: the vertical axis is
    // 0 .. yMax (accuracy); otherwise the span of the values drawn. xTitle: the horizontal axis'
    // title (empty: "training step").
    CompareChart(const QString &title, const QString &yTitle, bool withTraining, double yMax, QWidget *parent = nullptr,
                 const QString &xTitle = QString());

    // A new comparison: one curve per label, the horizontal axis 0 .. steps.
    // colours: each configuration's colour index (its line in the panel); empty: 0, 1, 2 ...
    void start(const QStringList &labels, int steps, const std::vector<int> &colours = {});
    void appendTraining(int config, const std::vector<double> &values);
    void appendHeldout(int config, int step, double value);
    // Every curve at once (a finished comparison, a test).
    void setCurves(int config, const std::vector<double> &training, const QList<QPointF> &heldout);

    int curves() const { return int(held_.size()); }
    const QList<QPointF> &heldoutPoints(int config) const { return heldPoints_[config]; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void redraw(int config);
    void updateRanges();
    void updateStepAxis();
    // The step between the horizontal axis' labels: about five of them, fewer where the chart is too
    // narrow for its widest label.
    double stepInterval() const;

    bool withTraining_ = false;
    double yMax_ = 0.0;
    int steps_ = 1;
    std::vector<QLineSeries *> training_, held_;
    std::vector<QScatterSeries *> dots_;
    std::vector<QList<QPointF>> trainPoints_, heldPoints_;
};

} // namespace fb
