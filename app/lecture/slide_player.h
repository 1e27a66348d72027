#pragma once
// Plays a slide's animation live in its lab (lecture mode): a QTimer steps the swept parameter
// through the frames' values (Sweep::valueAt, app/scene/sweep.h: the values `fullband animate` renders) at the
// slide's fps. The lab computes each value on its own worker (latest wins), so a slow lab drops
// values instead of holding up the GUI thread. At the end it runs back down and up again (forth and
// back, 0 .. N-1 .. 0 ...), so the picture never jumps while the lecturer talks over it; space
// pauses and resumes it, leaving the slide stops it (the lab keeps the value it was showing).
#include "app/scene/sweep.h"

#include <QObject>
#include <QPointer>

class QTimer;

namespace fb {

class LabView;
struct SceneAnimation;

class SlidePlayer : public QObject {
    Q_OBJECT
public:
    explicit SlidePlayer(QObject *parent = nullptr);

    // Starts animation on lab at frame 0 (the sweep's start). Returns an error (a sweep that does
    // not fit the lab) and plays nothing then.
    QString play(LabView *lab, const SceneAnimation &animation);
    void stop();
    void setPaused(bool paused);
    void togglePause() { setPaused(!paused_); }

    bool isActive() const { return !lab_.isNull(); }  // playing or paused
    bool isPaused() const { return paused_; }
    int frame() const { return frame_; }
    int frames() const { return sweep_.frames; }
    double value() const;  // the swept parameter's value shown now

Q_SIGNALS:
    void frameShown(int frame);

private:
    void advance();
    void showFrame();

    QTimer *timer_ = nullptr;
    QPointer<LabView> lab_;
    Sweep sweep_;
    int frame_ = 0;
    int direction_ = 1;
    bool paused_ = false;
};

} // namespace fb
