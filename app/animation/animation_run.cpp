#include "app/animation/animation_run.h"

#include "app/registry/lab_registry.h"
#include "app/animation/sweep_axes.h"
#include "app/animation/video_writer.h"
#include "views/lab/lab_view.h"
#include "views/lab/replayable.h"

#include <QTimer>

namespace fb {

namespace {
constexpr std::size_t kQueueFrames = 4;  // 4 x 6.4 MB at 1600x1000
}

AnimationRun::AnimationRun(const QString &labName, const ParamValues &values, const AnimationJob &job, QObject *parent,
                           const QJsonObject &extra)
    : QObject(parent)
    , job_(job)
{
    const int index = labIndex(labName);
    if (index < 0) return;
    lab_.reset(labRegistry()[index].create());
    lab_->setAttribute(Qt::WA_DontShowOnScreen);
    lab_->setValues(values);
    if (!extra.isEmpty()) lab_->setExtraState(extra);
    lab_->resize(job.size);
    comment_ = animationComment(*lab_, job).toStdString();
}

AnimationRun::~AnimationRun()
{
    control_.abandon();
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void AnimationRun::start()
{
    if (running_) return;
    if (!lab_) {
        Q_EMIT finished(QStringLiteral("unknown lab"));
        return;
    }
    running_ = true;
    lab_->show();
    if (!job_.recording) {
        beginFrames();
        return;
    }
    auto *r = dynamic_cast<Replayable *>(lab_.get());
    const QString err = r ? r->startTraining() : tr("%1 has no training run to record").arg(lab_->name());
    if (!err.isEmpty()) {
        QTimer::singleShot(0, this, [this, err] { done(err); });
        return;
    }
    QTimer::singleShot(0, this, &AnimationRun::pollTraining);
}

void AnimationRun::pollTraining()
{
    // The lab trains on its workers and pulls their steps on its own timer; look at it 10 times a
    // second until the run has ended (or the export is cancelled, which stops the training too).
    if (!running_) return;
    auto *r = dynamic_cast<Replayable *>(lab_.get());
    if (control_.stopRequested()) {
        lab_.reset();  // abandons and joins the training (at most one step)
        done(QStringLiteral("cancelled"));
        return;
    }
    Q_EMIT training(r->trainingStepsDone(), r->trainingStepsTotal());
    if (!r->isTrained()) {
        QTimer::singleShot(100, this, &AnimationRun::pollTraining);
        return;
    }
    comment_ = animationComment(*lab_, job_).toStdString();
    beginFrames();
}

void AnimationRun::beginFrames()
{
    // A sweep's frames share their axes: every frame's value computed once first, one per turn of
    // the event loop as the frames are (the recording of a training has one run and needs none).
    axes_ = std::make_unique<SweepAxes>(*lab_, job_);
    QTimer::singleShot(0, this, &AnimationRun::recordAxes);
}

void AnimationRun::recordAxes()
{
    if (!running_) return;
    if (control_.stopRequested()) {
        done(QStringLiteral("cancelled"));
        return;
    }
    if (axes_->recordNext()) {
        QTimer::singleShot(0, this, &AnimationRun::recordAxes);
        return;
    }
    worker_ = std::thread([this] { encodeLoop(); });
    QTimer::singleShot(0, this, &AnimationRun::renderNext);
}

void AnimationRun::cancel()
{
    control_.cancel();
    changed_.notify_all();
}

void AnimationRun::renderNext()
{
    if (!running_) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        // Stopped, failed or all rendered: the worker reports the end (workerDone).
        if (!error_.empty() || control_.stopRequested() || rendered_ == job_.sweep.frames) return;
        if (queue_.size() >= kQueueFrames) {
            // Full queue: look again soon; the event loop keeps running meanwhile.
            QTimer::singleShot(5, this, &AnimationRun::renderNext);
            return;
        }
    }
    QImage frame;
    try {
        frame = animationFrame(*lab_, job_, rendered_);
    } catch (const std::exception &e) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            error_ = e.what();
        }
        control_.cancel();
        changed_.notify_all();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(frame));
    }
    ++rendered_;
    changed_.notify_all();
    QTimer::singleShot(0, this, &AnimationRun::renderNext);
}

void AnimationRun::workerDone(bool complete)
{
    if (worker_.joinable()) worker_.join();
    QString error;
    if (!complete) {
        std::lock_guard<std::mutex> lock(mutex_);
        error = !error_.empty() ? QString::fromStdString(error_) : QStringLiteral("cancelled");
    }
    done(error);
}

void AnimationRun::done(const QString &error)
{
    running_ = false;
    axes_.reset();
    Q_EMIT finished(error);
}

void AnimationRun::encodeLoop()
{
    VideoSettings settings;
    VideoFormat format = VideoFormat::Mp4;
    videoFormatOf(job_.out.toStdString(), format);
    settings.format = format;
    settings.width = job_.size.width();
    settings.height = job_.size.height();
    settings.fps = job_.fps;
    std::string error;
    settings.comment = comment_;
    std::unique_ptr<VideoWriter> writer = VideoWriter::open(job_.out.toStdString(), settings, error);
    int encoded = 0;
    while (writer && encoded < job_.sweep.frames) {
        QImage frame;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [this] { return !queue_.empty() || control_.stopRequested(); });
            if (control_.stopRequested()) break;
            frame = std::move(queue_.front());
            queue_.pop_front();
        }
        changed_.notify_all();
        if (!writer->addFrame(frame.constBits(), int(frame.bytesPerLine()), error)) break;
        ++encoded;
        if (control_.stopRequested()) break;
        QMetaObject::invokeMethod(this, [this, encoded] { Q_EMIT progress(encoded, job_.sweep.frames); }, Qt::QueuedConnection);
    }
    const bool complete = writer && encoded == job_.sweep.frames && !control_.stopRequested() && writer->finish(error);
    writer.reset();  // an unfinished writer removes its temporary file
    if (control_.isAbandoned()) return;
    if (!complete && !error.empty()) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error_.empty()) error_ = error;
    }
    QMetaObject::invokeMethod(this, [this, complete] { workerDone(complete); }, Qt::QueuedConnection);
}

} // namespace fb
