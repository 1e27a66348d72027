#pragma once
// Lab: latent-feedback training live (Figure 218.2, right). Both arms of the toy phase accumulator
// (token-only and latent feedback) train as core's background runs (core/training/training_run.h),
// the run controls are the training labs' frame (TrainingLabView); their curves grow in the chart at
// up to 30 frames a second, a table collects each run's held-out loss and accuracy next to the
// chapter's (until Reset or a scene), and finished runs can be kept as ghost curves (k = 1, 2, 3 against exact, other seeds).
#include "core/training/trainer.h"
#include "core/labs/training_lab.h"
#include "views/lab/lab_view_for.h"
#include "views/lab/replayable.h"
#include "views/training/training_lab_view.h"

#include <memory>
#include <vector>

namespace fb {

class LossCurveChart;
class TrainingResultsTable;
class TrainingRun;

class TrainingView : public LabViewFor<TrainingLab, TrainingLabResult, TrainingLabView>, public Replayable {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit TrainingView(QWidget *parent = nullptr);
    ~TrainingView() override;  // cancels a running training and joins its threads

    // Scenes keep the ghost curves and the smoothing window (see LossCurveChart::state). Restoring
    // one also clears the current run (curves, table, figures): only the scene's ghosts stay.
    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;
    void setPresentationScale(double scale) override;

    int stepsDone() const override;   // over all arms of the current run
    int stepsTotal() const override;  // planned, over all arms of the current run
    QString partsText() const override;
    // The arms of the current run, or before one those Start would train (none if the values are refused)
    std::vector<TrainConfig> plannedConfigs() const;
    LossCurveChart *chart() const { return chart_; }
    TrainingResultsTable *table() const { return table_; }
    const std::vector<TrainConfig> &runConfigs() const { return configs_; }

    // Replayable: recording the run as an animation (views/lab/replayable.h). showStep redraws the
    // chart only (the table and figures keep the run's end); a new start or reset ends the replay.
    QString startTraining() override;
    int trainingStepsDone() const override { return stepsDone(); }
    int trainingStepsTotal() const override { return stepsTotal(); }
    bool isTrained() const override { return state() == State::Done; }
    int replaySteps() const override;
    void showStep(int step) override;

protected:
    void draw(const TrainingLabResult &p) override;

    QString beginRun() override;
    bool pullRun() override;
    void setRunPaused(bool paused) override;
    bool runHeld() const override;
    void cancelRun() override;
    void joinRun() override;
    void clearRun(bool keepHistory) override;
    void keepGhostCurves() override;
    void clearGhostCurves() override;
    int ghostCount() const override;
    void setSmoothing(int window) override;
    void setRunPace(double stepsPerSecond) override;
    void showRunStatus(const QString &status) override;
    void runFinished() override;
    void updateLive() override;

private:
    static int chartArm(const TrainConfig &config);
    void updateFinalReadouts();
    void clearFinalReadouts();
    void previewCurrentValues();
    void showArms(const std::vector<TrainConfig> &configs);

    LossCurveChart *chart_ = nullptr;
    TrainingResultsTable *table_ = nullptr;

    std::unique_ptr<TrainingRun> run_;
    std::vector<TrainConfig> configs_;  // of the current run
    std::vector<bool> ended_;           // per arm of the current run
    std::vector<TrainResult> results_;  // per arm, valid once ended_ (curve left empty)
    std::vector<std::vector<double>> replay_;  // per arm, the ended run's whole curve while replaying
};

} // namespace fb
