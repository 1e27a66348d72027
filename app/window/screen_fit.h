#pragma once
// Keeps a top-level window on its screen when a passing minimum size has pushed it past the
// screen's edge: a lab laid out for the first time can ask for more height than it needs once it
// has its size, the window grows to that minimum, and it comes back as soon as the minimum allows.
// Only a window held at its minimum is moved: one the user stretched across two screens, or a
// full-screen or maximised one, stays as it is.
#include <QObject>
#include <QSize>

class QWidget;

namespace fb {

class ScreenFit : public QObject {
    Q_OBJECT
public:
    explicit ScreenFit(QWidget *window);

    // A lab that truly needs more than the screen stays as large as it needs: this many tries
    // while its minimum stays the same, no more.
    static constexpr int kAttempts = 8;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool onScreen() const;
    void queueFit();
    void fit();

    QWidget *window_ = nullptr;
    bool queued_ = false;
    bool overgrown_ = false;  // grown past the screen by a minimum size
    int attempts_ = 0;
    QSize lastMinimum_;
};

} // namespace fb
