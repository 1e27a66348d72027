#pragma once
// One animation export from the window: frames rendered on the GUI thread, one per event-loop turn,
// by a lab view of its own (hidden, so the visible lab keeps its values), and encoded on a worker
// thread from a short queue, so the window stays responsive. cancel() stops both; the writer then
// removes its temporary file and nothing is left behind. A recording (job.recording) first trains
// the run on the hidden lab's own workers, reporting training(done, total), then renders its steps.
#include "app/animation/animation.h"
#include "app/animation/sweep_axes.h"
#include "core/run/run_control.h"

#include <QImage>
#include <QJsonObject>
#include <QObject>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace fb {

class LabView;

class AnimationRun : public QObject {
    Q_OBJECT
public:
    // labName, values and extra (its extraState, e.g. ghost curves; may be empty): the lab to animate
    // as it is now; job: the sweep (or recording), size, fps and file (.mp4 or .gif).
    AnimationRun(const QString &labName, const ParamValues &values, const AnimationJob &job,
                 QObject *parent = nullptr, const QJsonObject &extra = {});
    ~AnimationRun() override;

    void start();
    void cancel();
    bool isRunning() const { return running_; }

Q_SIGNALS:
    void training(int stepsDone, int stepsTotal);  // recordings, before the first frame
    void progress(int encoded, int total);
    // Empty message: the file is written. "cancelled" after cancel().
    void finished(const QString &error);

private:
    void beginFrames();
    void recordAxes();
    void pollTraining();
    void renderNext();
    void encodeLoop();
    void workerDone(bool complete);
    void done(const QString &error);

    AnimationJob job_;
    std::unique_ptr<LabView> lab_;
    std::unique_ptr<SweepAxes> axes_;  // declared after lab_: released before the lab goes
    int rendered_ = 0;
    bool running_ = false;
    RunControl control_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<QImage> queue_;
    std::string error_;  // the first error, guarded by mutex_
    std::string comment_;
    std::thread worker_;
};

} // namespace fb
