#pragma once
// Trains the two arms of the chapter's LSTM vs mean-pooling cell as core's one background run
// (core/run/background_run.h), never on the GUI thread. start() replaces the running training: that
// one is cancelled at once (it stops within one step) and set aside until its thread has returned,
// which a timer notices; the GUI thread never waits for it. The timer also pulls the progress
// (throttled to about 20 updates a second by the work) and the results. The destructor abandons and
// joins.
#include "core/depth/lstm_classifier.h"
#include "core/run/background_run.h"

#include <QObject>

#include <memory>
#include <vector>

class QTimer;

namespace fb {

class ClassifierRunner : public QObject {
    Q_OBJECT
public:
    explicit ClassifierRunner(QObject *parent = nullptr);
    ~ClassifierRunner() override;

    // Trains the LSTM arm, then the mean-pooling arm, with config (held-out accuracy about 40 times
    // along the way for the curves).
    void start(const ClassifierConfig &config);

    // Blocks until the latest training has finished and its result has been delivered (tests, the
    // command line, and the window's animation export, which renders its frames on the GUI thread).
    void wait();

    // The latest finished training: [0] LSTM, [1] mean pooling. Empty before the first one.
    const std::vector<ClassifierResult> &results() const { return results_; }
    bool busy() const { return run_ != nullptr; }
    // Progress of the running training, for a status line.
    int progressArm() const { return progress_.arm; }
    int progressStep() const { return progress_.step; }
    int progressSteps() const { return progress_.steps; }
    double progressSeconds() const { return progress_.seconds; }  // the running arm's training time so far

Q_SIGNALS:
    void progressed();    // progressStep() moved (at most about 20 times a second)
    void resultsReady();  // results() holds a new training
    void failed(const QString &error);  // the latest training threw instead (one sentence)

private:
    struct Progress {
        int arm = 0, step = 0, steps = 0;
        double seconds = 0.0;
        bool fresh = false;  // set by the work, cleared by take()
    };
    using Run = BackgroundRun<Progress, std::vector<ClassifierResult>>;

    void pull();

    std::unique_ptr<Run> run_;                   // the latest training, until its results are delivered
    std::vector<std::unique_ptr<Run>> retired_;  // replaced trainings, cancelled, until their threads return
    QTimer *timer_ = nullptr;
    Progress progress_;
    std::vector<ClassifierResult> results_;
};

} // namespace fb
