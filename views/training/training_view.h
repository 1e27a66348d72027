#pragma once
// Lab: latent-feedback training live (Figure 218.2, right). Both arms of the toy phase accumulator
// (token-only and latent feedback) train on their own threads; their curves grow in the chart at
// up to 30 frames a second, a table collects each run's held-out loss and accuracy next to the
// chapter's, and finished runs can be kept as ghost curves (k = 1, 2, 3 against exact, other seeds).
#include "core/training/trainer.h"
#include "core/labs/training_lab.h"
#include "views/lab/lab_view_for.h"
#include "views/lab/replayable.h"

#include <QElapsedTimer>

#include <memory>
#include <vector>

class QProgressBar;
class QPushButton;
class QTimer;

namespace fb {

class LossCurveChart;
class TrainingControlBar;
class TrainingResultsTable;
class TrainingRun;

class TrainingView : public LabViewFor<TrainingLab>, public Replayable {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Stopping, Done };

    explicit TrainingView(QWidget *parent = nullptr);
    ~TrainingView() override;  // cancels a running training and joins its threads

    // Export and tests: with nothing trained yet, trains the current values to the end; a running
    // training is waited for to its end; a paused one is drawn as it stands. Then draws everything.
    void waitForResult() override;

    // Scenes keep the ghost curves and the smoothing window (see LossCurveChart::state). Restoring
    // one also clears the current run (curves, table, figures): only the scene's ghosts stay.
    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;
    void setPresentationScale(double scale) override;

    // The buttons' actions. Parameters are copied at start(): later changes apply at the next start.
    void start();
    void pause();
    void resume();
    void stop();
    void reset();
    void keepGhost();
    void clearGhosts();

    // Moves new training data into the chart and table now (a timer does this at up to 30 Hz).
    void pull();

    State state() const { return state_; }
    // True when a paused run's every arm is parked in its pause (or ended): no step runs until
    // resume. Tests wait for this instead of sleeping through the step in flight.
    bool isHeld() const;
    int stepsDone() const;   // over all arms of the current run
    int stepsTotal() const;  // planned, over all arms of the current run
    LossCurveChart *chart() const { return chart_; }
    TrainingResultsTable *table() const { return table_; }
    QProgressBar *progressBar() const;
    QPushButton *button(const QString &name) const;  // "start", "pause", "resume", "stop", "reset", "ghost", "clear"
    const std::vector<TrainConfig> &runConfigs() const { return configs_; }

    // Replayable: recording the run as an animation (views/lab/replayable.h). showStep redraws the
    // chart only (the table and figures keep the run's end); a new start or reset ends the replay.
    QString startTraining() override;
    int trainingStepsDone() const override { return stepsDone(); }
    int trainingStepsTotal() const override { return stepsTotal(); }
    bool isTrained() const override { return state_ == State::Done; }
    int replaySteps() const override;
    void showStep(int step) override;

protected:
    void draw(const TrainingLabResult &p) override;

private:
    static int chartArm(const TrainConfig &config);
    void finishRun();
    void updateButtons();
    void updateProgress();
    void updateFinalReadouts();
    void clearFinalReadouts();
    void previewCurrentValues();
    void showArms(const std::vector<TrainConfig> &configs);

    TrainingControlBar *controls_ = nullptr;
    LossCurveChart *chart_ = nullptr;
    TrainingResultsTable *table_ = nullptr;
    QTimer *frameTimer_ = nullptr;

    State state_ = State::Idle;
    std::unique_ptr<TrainingRun> run_;
    std::vector<TrainConfig> configs_;  // of the current run
    ParamValues runValues_;             // the panel's values at its start
    std::vector<bool> ended_;           // per arm of the current run
    std::vector<TrainResult> results_;  // per arm, valid once ended_ (curve left empty)
    std::vector<std::vector<double>> replay_;  // per arm, the ended run's whole curve while replaying
    bool ghostKept_ = false;
    // The run's clock without its pauses, for the time-left estimate on the progress bar.
    QElapsedTimer runClock_, pausedClock_;
    qint64 pausedMs_ = 0;
};

} // namespace fb
