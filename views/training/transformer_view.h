#pragma once
// Lab: a tiny decoder-only transformer trained live (core/labs/transformer_lab.h). One training at
// a time runs as core's background run (views/training/transformer_run.h); the lab's frame
// (TrainingLabView) pulls its losses and its newest snapshot on a 30 Hz timer, and this view draws
// the loss curves, every head's attention map per layer on a fixed held-out probe sequence (with
// each head's induction score in its title), the feedback gate's mean, and after training the
// length-generalisation table. Finished runs can be kept as ghost curves. The parameter panel
// previews the model's size, FLOPs and memory. What the run hands over is drawn, and its figures
// kept, by TransformerRunFrames (views/training/transformer_run_frames.h).
#include "core/labs/transformer_lab.h"
#include "core/transformer/transformer_report.h"
#include "views/compare/compare_panel.h"
#include "views/lab/lab_view_for.h"
#include "views/lab/replayable.h"
#include "views/training/training_lab_view.h"
#include "views/training/transformer_run.h"
#include "views/training/transformer_run_frames.h"

#include <memory>
#include <optional>

class QLabel;
class QPushButton;

namespace fb {

class ComparePanel;
class HeatmapGrid;
class InterpretTabs;
class LengthTable;
class TransformerLossChart;
class WritingPanel;
class WritingTabs;

class TransformerView : public LabViewFor<TransformerLab, TransformerPreview, TrainingLabView>, public Replayable {
    Q_OBJECT
public:
    // What the lab shows and what to try: rich text for its explanation panel (transformer_explanation.h)
    static QString explanationText();

    explicit TransformerView(QWidget *parent = nullptr);
    ~TransformerView() override;  // abandons a running training and joins its thread

    void setPresentationScale(double scale) override;
    // A scene keeps the comparison: {"compare": ["base", "kv_heads=1", "", ""]} while compare mode
    // is on (its lines; the lab's values are the scene's params), nothing otherwise.
    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;

    int stepsDone() const override;
    int stepsTotal() const override;
    int framesShown() const { return frames_->framesShown(); }  // snapshots drawn in this run
    int lastFrameStep() const { return frames_->lastFrameStep(); }
    TransformerLossChart *chart() const { return chart_; }
    HeatmapGrid *maps() const { return maps_; }
    LengthTable *lengthTable() const { return lengths_; }
    InterpretTabs *interpret() const { return interpret_; }  // the maps' page and the model taken apart
    const std::optional<TransformerResult> &result() const { return frames_->result(); }
    WritingPanel *writing() const { return writing_; }
    WritingTabs *tabs() const { return tabs_; }
    // The comparison mode (issue 29): the Compare mode button beside the run controls swaps the maps
    // and curves for the comparison panel (views/compare), which trains up to five configurations of
    // the lab's values side by side. In it the run controls (Start, Pause, Stop, a lecture's space, a
    // slide's "train": "on-enter", an animation's recording) drive the comparison. Switching the mode
    // during a run is refused (the button is disabled); a scene that switches it resets the run.
    ComparePanel *comparePanel() const { return compare_; }
    QPushButton *compareButton() const { return compareToggle_; }
    void setCompareMode(bool on);
    bool compareMode() const;
    bool comparing() const { return comparing_; }  // the current (or last) run is a comparison
    // The exportables' index of the comparison's loss chart (its accuracy chart follows it).
    int compareChartIndex() const { return compareChartIndex_; }

    // Replayable: an animation records the run (or the comparison): the loss curves up to the step
    // and the maps as the replay kept them then (the comparison: its curves up to the step).
    QString startTraining() override;
    int trainingStepsDone() const override { return stepsDone(); }
    int trainingStepsTotal() const override { return stepsTotal(); }
    bool isTrained() const override { return state() == State::Done; }
    int replaySteps() const override;
    void showStep(int step) override;
    bool recordsLivePulls() const override { return true; }
    // The maps forming; in compare mode the comparison's loss chart.
    int recordedChart() const override { return preferredExportable(); }
    int preferredExportable() const override { return compareMode() ? compareChartIndex_ : 0; }
    // File → Open model: the lab as the model file's run ended (losses, maps, length table), ready to
    // write; the panel shows its values (a text model keeps the text file chosen: a model file has
    // none). A running training is abandoned first.
    // path: the model file (the note names it). textPath: the text the model learnt, if known (else
    // the one the panel has; a model file keeps none).
    void openSaved(SavedModel saved, const QString &path, const std::string &textPath = {});
    // The model file whose run the lab shows (opened, not trained since), or "".
    QString openedModel() const { return openedModel_; }
    // Holds the replay at the frame at or before step: now when the run has ended, else once the
    // run (a model being restored) ends. A slide's "replay".
    void holdReplayAt(int step);
    // File → Save model: the model of the run that ended and its figures, or nothing.
    std::optional<SavedModel> modelToSave() const;

protected:
    void draw(const TransformerPreview &preview) override;

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
    void updateLive() override;
    // One model's estimate; none in compare mode (its configurations are known only at Start).
    QString plannedText() const override
    {
        return compareMode() ? QString() : expected_.section(QStringLiteral(" ("), 0, 0);
    }
    // A comparison's bar counts every configuration's steps, its charts' axis one configuration's.
    QString partsText() const override
    {
        const int n = comparing_ && compareMode() && state() != State::Idle ? compare_->configurations() : 0;
        return n > 1 ? tr("%1 configurations").arg(n) : QString();
    }

private:
    QString runLabel() const;
    void updateModeButtons();  // the mode button and the ghosts follow the run's state and the mode

    TransformerLossChart *chart_ = nullptr;
    HeatmapGrid *maps_ = nullptr;
    InterpretTabs *interpret_ = nullptr;
    LengthTable *lengths_ = nullptr;
    WritingPanel *writing_ = nullptr;  // task = text
    WritingTabs *tabs_ = nullptr;      // the maps, and on the text task the writing panel
    QWidget *belowBox_ = nullptr;      // the loss curves and the length table
    ComparePanel *compare_ = nullptr;  // shown instead of the two above in comparison mode
    QPushButton *compareToggle_ = nullptr;
    bool comparing_ = false;  // beginRun started a comparison
    int compareChartIndex_ = -1;
    std::shared_ptr<SavedModel> saved_;  // a model file opened, for beginRun
    QString openedModel_;                // its path, while its run is the one shown
    std::unique_ptr<TransformerRun> run_;
    TransformerConfig config_;  // of the current run
    std::unique_ptr<TransformerRunFrames> frames_;  // what the run handed over, drawn: figures, replay, result
    double runMaxLoss_ = 2.77;  // ln V of the run: the loss chart's top at its start
    QString expected_;  // how long Start will train, for the values shown
};

} // namespace fb
