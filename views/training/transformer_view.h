#pragma once
// Lab: a tiny decoder-only transformer trained live (core/labs/transformer_lab.h). One training at
// a time runs on its own thread (views/training/transformer_run.h); the view pulls its losses and its newest
// snapshot on a 30 Hz timer and draws the loss curves, every head's attention map per layer on a
// fixed held-out probe sequence (with each head's induction score in its title), the feedback
// gate's mean, and after training the length-generalisation table. Finished runs can be kept as
// ghost curves. The parameter panel previews the model's size, FLOPs and memory.
#include "core/labs/transformer_lab.h"
#include "core/transformer/transformer_report.h"
#include "views/lab/lab_view_for.h"
#include "views/training/transformer_run.h"

#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace fb {

class HeatmapGrid;
class LengthTable;
class TrainingControlBar;
class TransformerLossChart;
class TransformerView : public LabViewFor<TransformerLab, TransformerPreview> {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Stopping, Done };

    explicit TransformerView(QWidget *parent = nullptr);
    ~TransformerView() override;  // abandons a running training and joins its thread

    // Export and tests: with nothing trained yet, trains the current values to the end; a running
    // training is waited for; a paused one is drawn as it stands.
    void waitForResult() override;
    void setPresentationScale(double scale) override;

    void start();
    void pause();
    void resume();
    void stop();
    void reset();
    void keepGhost();
    void clearGhosts();
    void pull();  // moves what the training produced into the charts (the timer calls it)

    State state() const { return state_; }
    bool isHeld() const;
    int stepsDone() const;
    int framesShown() const { return framesShown_; }  // snapshots drawn in this run
    int lastFrameStep() const { return lastFrameStep_; }
    TransformerLossChart *chart() const { return chart_; }
    HeatmapGrid *maps() const { return maps_; }
    LengthTable *lengthTable() const { return lengths_; }
    QPushButton *button(const QString &name) const;
    const std::optional<TransformerResult> &result() const { return result_; }

protected:
    void draw(const TransformerPreview &preview) override;

private:
    void finishRun();
    void updateButtons();
    void updateLive();
    QString runLabel() const;

    TrainingControlBar *controls_ = nullptr;
    TransformerLossChart *chart_ = nullptr;
    HeatmapGrid *maps_ = nullptr;
    LengthTable *lengths_ = nullptr;
    QLabel *sample_ = nullptr;
    QTimer *frameTimer_ = nullptr;
    State state_ = State::Idle;
    std::unique_ptr<TransformerRun> run_;
    TransformerConfig config_;  // of the current run
    std::optional<TransformerResult> result_;
    int framesShown_ = 0;
    int lastFrameStep_ = -1;
    double gateMean_ = TransformerSnapshot::nan;
    double heldout_ = TransformerSnapshot::nan, repeat_ = TransformerSnapshot::nan;
    int heldoutStep_ = -1;
    double bestScore_ = TransformerSnapshot::nan;
    bool ghostKept_ = false;
};

} // namespace fb
