#pragma once
// Trains the two arms of the chapter's LSTM vs mean-pooling cell on a worker thread (never the GUI
// thread), on a latest-wins runner with no grace: start() makes the running training stale, and the
// runner cancels it at once (it stops within one step); a request still waiting is replaced.
// Results and throttled progress come back to the GUI thread as queued calls; the destructor cancels
// and joins.
#include "core/depth/lstm_classifier.h"
#include "core/run/latest_wins_runner.h"

#include <QObject>

#include <memory>
#include <vector>

namespace fb {

class ClassifierRunner : public QObject {
    Q_OBJECT
public:
    explicit ClassifierRunner(QObject *parent = nullptr);
    ~ClassifierRunner() override;

    // Trains the LSTM arm, then the mean-pooling arm, with config (held-out accuracy about 40 times
    // along the way for the curves).
    void start(const ClassifierConfig &config);

    // Blocks until the latest training has finished and its result has been delivered (tests, export).
    void wait();

    // The latest finished training: [0] LSTM, [1] mean pooling. Empty before the first one.
    const std::vector<ClassifierResult> &results() const { return results_; }
    bool busy() const { return latest_ != deliveredGeneration_; }
    // Progress of the running training, for a status line.
    int progressArm() const { return progressArm_; }
    int progressStep() const { return progressStep_; }
    int progressSteps() const { return progressSteps_; }
    double progressSeconds() const { return progressSeconds_; }  // the running arm's training time so far

Q_SIGNALS:
    void progressed();    // progressStep() moved (at most about 20 times a second)
    void resultsReady();  // results() holds a new training

private:
    std::unique_ptr<LatestWinsRunner> runner_;
    std::uint64_t latest_ = 0;               // the runner's generation of the newest request
    std::uint64_t deliveredGeneration_ = 0;
    std::vector<ClassifierResult> results_;
    int progressArm_ = 0, progressStep_ = 0, progressSteps_ = 0;
    double progressSeconds_ = 0.0;
};

} // namespace fb
