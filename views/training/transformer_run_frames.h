#pragma once
// What the transformer lab (views/training/transformer_view.h) shows of its one model's run: the
// frames its TransformerRun hands over, drawn into the lab's widgets (the loss curves, the maps, the
// replay, the writing panel, the length table), the newest frame's figures and the run's result,
// and the readouts made of them. The view keeps the run itself, its scenes' state and the
// comparison; this class owns none of the widgets and starts no thread (GUI thread only).
#include "core/model/model_file.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_report.h"
#include "views/training/transformer_run.h"

#include <optional>
#include <vector>

namespace fb {

class HeatmapGrid;
class InterpretTabs;
class LengthTable;
class ReadoutPanel;
class TransformerLossChart;
class WritingPanel;
class WritingTabs;

class TransformerRunFrames {
public:
    // The lab's widgets, which outlive this object.
    TransformerRunFrames(TransformerLossChart *chart, HeatmapGrid *maps, InterpretTabs *interpret, LengthTable *lengths,
                         WritingPanel *writing, WritingTabs *tabs, ReadoutPanel *readouts);

    // Draws what the run handed over since the last pull: the losses, every frame for the replay,
    // the newest frame's maps and figures, once the result (or the trainer's error). task: the
    // run's (the length table's repeat column). True once the run ended and that was drawn.
    bool pull(TransformerRun &run, TransformerTask task);
    // The readouts of the newest frame, the result's once the run ended. trainingLoss: the training
    // loss now, the mean over the chart's smoothing window.
    void showFigures(double trainingLoss);
    // The maps of the student's sentence (the writing panel): the run's frames no longer replace them.
    void showSentence(const TransformerFrame &frame);
    // Forgets the run's frames, figures and result (the widgets are the view's to clear).
    void clear();

    // The run's held-out points up to step upTo on the loss chart (the result's).
    void drawHeldout(int upTo);
    // An animation's frame of the ended run: the curves up to the step (clamped by the caller), the
    // maps the replay kept for it. config: the run's; maxLoss: the loss chart's top at its start.
    void showStep(int step, const TransformerConfig &config, double maxLoss);
    // Holds the replay at the frame at or before step: now when the run has ended, else once it ends.
    void holdReplayAt(int step);
    // The model of the run that ended and its figures, or nothing.
    std::optional<SavedModel> modelToSave() const;

    const std::optional<TransformerResult> &result() const { return result_; }
    int framesShown() const { return framesShown_; }  // snapshots drawn in this run
    int lastFrameStep() const { return lastFrameStep_; }

private:
    TransformerLossChart *chart_ = nullptr;
    HeatmapGrid *maps_ = nullptr;
    InterpretTabs *interpret_ = nullptr;
    LengthTable *lengths_ = nullptr;
    WritingPanel *writing_ = nullptr;
    WritingTabs *tabs_ = nullptr;
    ReadoutPanel *readouts_ = nullptr;
    bool sentenceShown_ = false;  // the maps show the student's sentence, not the probe's
    std::optional<TransformerResult> result_;
    int framesShown_ = 0;
    int lastFrameStep_ = -1;
    int pendingReplay_ = -1;  // holdReplayAt before the run ended
    std::vector<double> replayCurve_;  // the ended run's losses, while an animation redraws its steps
    double gateMean_ = TransformerSnapshot::nan;
    double heldout_ = TransformerSnapshot::nan, repeat_ = TransformerSnapshot::nan;
    double accuracy_ = TransformerSnapshot::nan, trainAccuracy_ = TransformerSnapshot::nan;
    int heldoutStep_ = -1;
    double bestScore_ = TransformerSnapshot::nan;
};

} // namespace fb
