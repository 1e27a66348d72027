#include "app/lecture/slide_player.h"

#include "app/registry/lab_registry.h"
#include "app/scene/scene_animation.h"
#include "views/lab/lab_view.h"

#include <QTimer>

#include <algorithm>

namespace fb {

SlidePlayer::SlidePlayer(QObject *parent)
    : QObject(parent)
{
    timer_ = new QTimer(this);
    timer_->setTimerType(Qt::PreciseTimer);
    connect(timer_, &QTimer::timeout, this, &SlidePlayer::advance);
}

QString SlidePlayer::play(LabView *lab, const SceneAnimation &animation)
{
    stop();
    const LabSpec *spec = lab ? labSpec(lab->name()) : nullptr;
    if (!spec) return tr("no lab to animate");
    Sweep s;
    s.frames = animation.frames;
    if (QString err = parseSweep(*spec, animation.sweep, s); !err.isEmpty()) return err;
    lab_ = lab;
    sweep_ = s;
    frame_ = 0;
    direction_ = 1;
    paused_ = false;
    showFrame();
    timer_->start(std::max(1, 1000 / std::max(1, animation.fps)));
    return {};
}

void SlidePlayer::stop()
{
    timer_->stop();
    lab_ = nullptr;
    paused_ = false;
}

void SlidePlayer::setPaused(bool paused)
{
    if (!lab_) return;
    paused_ = paused;
    if (paused) timer_->stop();
    else timer_->start();
}

double SlidePlayer::value() const
{
    return lab_ ? lab_->values().number(sweep_.key) : 0.0;
}

void SlidePlayer::advance()
{
    if (!lab_) {
        stop();
        return;
    }
    if (sweep_.frames < 2) return;
    if (frame_ + direction_ < 0 || frame_ + direction_ >= sweep_.frames) direction_ = -direction_;
    frame_ += direction_;
    showFrame();
}

void SlidePlayer::showFrame()
{
    const ParamSpec *spec = labSpec(lab_->name())->find(sweep_.key);
    ParamValues values = lab_->values();
    values.numbers[sweep_.key] = sweep_.valueAt(*spec, frame_);
    lab_->setValues(values, false);  // frames are not undo steps
    Q_EMIT frameShown(frame_);
}

} // namespace fb
