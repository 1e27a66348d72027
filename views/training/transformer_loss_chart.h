#pragma once
// The loss chart of the transformer lab: the training loss (faint raw, smoothed in front), the
// held-out loss and, for the induction tasks, the held-out loss on the repeat, growing live; for the
// tasks with exact answers the held-out accuracy (and modular-addition's training-pair accuracy) on a
// second y axis 0 .. 1 at the right, shown once a finite accuracy arrives; ghost
// curves (smoothed training losses) kept from earlier runs. Every redraw is one replace per series.
#include "views/widgets/chart_panel.h"

#include <QString>
#include <QtNumeric>

#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace fb {

class ChartLabel;

class TransformerLossChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TransformerLossChart(QWidget *parent = nullptr);

    // A new run of steps steps, starting near maxLoss (ln V): empties the live curves.
    // Before a run: the x axis spans the steps Start would train (the losses are not touched).
    void setPlannedSteps(int steps);
    void startRun(int steps, double maxLoss, bool repeatCurve);
    void appendLosses(const std::vector<double> &losses);
    void appendHeldout(int step, double loss, double repeatLoss, double accuracy = qQNaN(),
                       double trainAccuracy = qQNaN());
    // Replaces the held-out points (the run's complete list at its end: live snapshots may skip some).
    // accuracy and trainAccuracy: empty or as long as steps.
    void setHeldout(std::vector<int> steps, std::vector<double> loss, std::vector<double> repeatLoss,
                    std::vector<double> accuracy = {}, std::vector<double> trainAccuracy = {});
    bool accuracyShown() const;
    // The phase change of an induction run (core/interpret/phase_change.h): a vertical marker at
    // that step, named beside it on the plot; -1 removes it.
    void setPhaseChange(int step);
    int phaseChange() const { return phaseStep_; }
    // The replay's step (views/interpret/replay_bar.h): a grey vertical marker, named beside it; -1
    // removes it.
    void setReplayStep(int step);
    int replayStep() const { return replayStep_; }
    const std::vector<double> &losses() const { return losses_; }
    int heldoutPoints() const { return int(heldSteps_.size()); }

    void setWindow(int window);  // moving average in steps (1 = raw)
    int window() const { return window_; }
    void addGhost(const QString &label);  // the live training curve, smoothed, kept under label
    void clearGhosts();
    int ghostCount() const { return int(ghosts_.size()); }

private:
    struct Ghost {
        QString label;
        std::vector<double> losses;
        QLineSeries *series = nullptr;
    };
    void redrawTraining();
    void redrawHeldout();
    void updateRanges();
    QList<QPointF> smoothed(const std::vector<double> &losses) const;

    QLineSeries *raw_ = nullptr, *smooth_ = nullptr, *held_ = nullptr, *repeat_ = nullptr;
    QScatterSeries *heldDots_ = nullptr;
    QLineSeries *accuracy_ = nullptr, *trainAccuracy_ = nullptr;  // on accuracyAxis_
    QValueAxis *accuracyAxis_ = nullptr;
    QLineSeries *phase_ = nullptr, *replay_ = nullptr;
    ChartLabel *phaseLabel_ = nullptr, *replayLabel_ = nullptr;  // their names on the plot
    int phaseStep_ = -1, replayStep_ = -1;
    void setMarker(QLineSeries *series, ChartLabel *label, int step, const QString &name);
    std::vector<double> losses_;
    std::vector<int> heldSteps_;
    std::vector<double> heldLoss_, repeatLoss_, accuracyAt_, trainAccuracyAt_;
    std::vector<Ghost> ghosts_;
    int window_ = 15;
    int steps_ = 1500;
    double yTop_ = 3.0;
    bool repeatCurve_ = false;
};

} // namespace fb
