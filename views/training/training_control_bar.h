#pragma once
// The run controls of every lab that trains, above its charts: Start / Pause / Resume / Stop /
// Reset, the progress bar (steps done over all arms), the pace (as fast as possible or N steps a
// second, to narrate a run), the smoothing window, and the ghost buttons.
// It only holds the widgets; TrainingLabView connects them and sets their enabled states.
#include <QWidget>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;

namespace fb {

class TrainingControlBar : public QWidget {
    Q_OBJECT
public:
    explicit TrainingControlBar(QWidget *parent = nullptr);

    QPushButton *startButton() const { return start_; }
    // "Start again" after a run, "Start" before one (the button is as wide as the longer from the first)
    void setStartAgain(bool again);
    QPushButton *pauseButton() const { return pause_; }
    QPushButton *resumeButton() const { return resume_; }
    QPushButton *stopButton() const { return stop_; }
    QPushButton *resetButton() const { return reset_; }
    QPushButton *ghostButton() const { return ghost_; }
    QPushButton *clearGhostsButton() const { return clear_; }
    QProgressBar *progressBar() const { return progress_; }
    QSlider *windowSlider() const { return window_; }
    QComboBox *paceBox() const { return pace_; }
    // Training steps a second per arm the pace box asks for (0: as fast as possible).
    double pace() const;
    // "smoothing: 15 steps" ("off" for 1).
    void setWindowText(int window);
    // A lab's own button, beside the ghost buttons (no row of its own: a slide has no height to spare).
    void addButton(QPushButton *button);

Q_SIGNALS:
    // The moving-average window changed (steps, 1 = raw).
    void windowChanged(int window);
    // The pace changed (steps a second, 0 = as fast as possible).
    void paceChanged(double stepsPerSecond);

private:
    static QString startText(bool again);
    QHBoxLayout *ghostRow_ = nullptr;  // the ghost buttons' group
    QPushButton *start_ = nullptr;
    QPushButton *pause_ = nullptr;
    QPushButton *resume_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *reset_ = nullptr;
    QPushButton *ghost_ = nullptr;
    QPushButton *clear_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QSlider *window_ = nullptr;
    QLabel *windowLabel_ = nullptr;
    QComboBox *pace_ = nullptr;
};

} // namespace fb
