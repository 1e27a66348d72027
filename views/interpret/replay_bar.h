#pragma once
// The transformer lab's replay: the frames of the run (attention maps, scores, held-out losses as
// they were) kept in bounded memory (core/interpret/run_history.h, evenly thinned when the run is
// long), and a step slider over them, during a run or after it. At its right end the slider is
// live (the lab draws each new frame); anywhere else it holds the frame of that step.
#include "core/interpret/run_history.h"
#include "views/training/transformer_run.h"

#include <QWidget>

#include <memory>

class QLabel;
class QSlider;

namespace fb {

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    using Frame = std::shared_ptr<const TransformerFrame>;
    static constexpr std::size_t kFramesKept = 96;  // about 100 KB each at the lab's defaults

    explicit ReplayBar(QWidget *parent = nullptr);

    // A new frame of the run (GUI thread, from the lab's pull); kept without its linear mixers' states
    // (statesDropped), which the lab keeps for the newest frame only.
    void record(Frame frame);
    void clear();
    bool live() const { return live_; }
    int framesKept() const { return int(history_.size()); }
    const Frame &frame(int i) const { return history_.value(std::size_t(i)); }  // 0 .. framesKept() - 1, oldest first
    QSlider *slider() const { return slider_; }
    // Moves the slider to the frame at or before step (tests, the lecture).
    void showStep(int step);

    // The readout of a frame: its step, held-out losses and best induction score.
    static QString describe(const TransformerFrame &frame);

Q_SIGNALS:
    // The frame to draw: a past one, or the newest when the slider returned to live.
    void frameChosen(const std::shared_ptr<const TransformerFrame> &frame, bool live);

protected:
    void changeEvent(QEvent *event) override;  // the label's width follows the font

private:
    void moved(int index);
    void updateLabel();
    void fitLabel();  // as wide as a long run's "step 100,000"

    RunHistory<Frame> history_ { kFramesKept };
    QSlider *slider_ = nullptr;
    QLabel *label_ = nullptr;
    bool live_ = true;
};

} // namespace fb
