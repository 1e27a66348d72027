#pragma once
// The linear mixers' states (issue 30), a page of the transformer lab's tabs (InterpretTabs): each
// linear head's state S_t (d_head x d_head) as a heatmap of |S| entries after a position of the probe
// sequence, with a slider over the positions kept and a Play button that streams the sequence through
// the heads: linear attention's state piles up, the delta rule's overwrites, the gated one's decays.
// The colour scale is one for every position and head of the frame. Draws what it is given (frames
// coloured on the run's thread, views/training/transformer_run.h); its timer only moves the slider.
#include "views/training/transformer_run.h"

#include <QWidget>

#include <memory>

class QToolButton;
class QSlider;
class QTimer;

namespace fb {

class HeatmapGrid;

class StatePage : public QWidget {
    Q_OBJECT
public:
    static constexpr int kPlayMs = 140;  // a position every 140 ms: 32 positions in 4.5 s

    explicit StatePage(QWidget *parent = nullptr);

    // The states of a frame (null: none; the page says why). Keeps the position chosen when the new
    // frame has it (a live run's frames arrive 12 times a second); at the last position it follows.
    void setStates(std::shared_ptr<const TransformerStates> states, const QString &whyNone = {});
    void clear();
    bool hasStates() const { return states_ != nullptr; }
    void setFontScale(double scale);

    // The Play button and the position slider (the grid's title names the position), for the tab row's corner (InterpretTabs
    // shows them beside the replay while this page is shown: a slide has no height to spare).
    QWidget *controls() const { return controls_; }
    HeatmapGrid *grid() const { return grid_; }
    QSlider *position() const { return slider_; }
    QToolButton *playButton() const { return play_; }
    bool playing() const;
    void play();
    void stop();

private:
    void showPosition(int index);
    void advance();

    HeatmapGrid *grid_ = nullptr;
    QWidget *controls_ = nullptr;
    QSlider *slider_ = nullptr;
    QToolButton *play_ = nullptr;
    QTimer *timer_ = nullptr;
    std::shared_ptr<const TransformerStates> states_;
};

} // namespace fb
