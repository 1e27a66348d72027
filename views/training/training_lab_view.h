#pragma once
// The base of every lab that trains a model live (the latent-feedback toy, the tiny transformer,
// whatever trains next): the run controls above the charts (Start / Pause / Resume / Stop / Reset,
// the progress bar with the time left, the pace, the smoothing window, the ghost buttons), the run's
// states and the timer that pulls what the run made, written once. A lab says how to begin its run,
// how to pull it into its charts and how to drop it; its run is core's background run
// (core/run/background_run.h), so no lab view starts a thread.
//
// Whatever the parameters say is what the charts show: a parameter change (from the panel, a scene
// or a deck slide) after a run has ended clears that run, and one during a run is applied at the
// next Start, which the readouts say.
#include "views/lab/lab_view.h"

#include <QElapsedTimer>

class QProgressBar;
class QPushButton;
class QTimer;

namespace fb {

class TrainingControlBar;

class TrainingLabView : public LabView {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Stopping, Done };

    explicit TrainingLabView(const LabSpec &spec, QWidget *parent = nullptr);
    ~TrainingLabView() override;

    // The buttons' actions. Parameters are copied at start(): later changes apply at the next start.
    void start();
    void pause();
    void resume();
    void stop();
    void reset();
    void keepGhost();
    void clearGhosts();
    // Moves what the run made into the charts now (a timer does this at up to 30 Hz).
    void pull();
    // One key for a lecture: starts a run (again, after one ended), pauses a running one, resumes a
    // paused one. What it did, in words ("training", "paused", ...).
    QString toggleTraining();

    // A scene (a file, a deck's slide) restores the lab: a run of other values than the scene's is
    // cleared, even while it runs (the slide must show what its parameters say). A lab with extra
    // state of its own restores it and calls this first.
    QString setExtraState(const QJsonObject &state) override;

    // The command line and tests: with nothing trained yet, trains the current values to the end; a
    // running training is waited for to its end; a paused one is drawn as it stands. The window
    // never calls it: its export draws what it shows.
    void waitForResult() override;

    State state() const { return state_; }
    // True when a paused run runs no step until resume (every part parked in its pause or ended):
    // what tests wait for instead of sleeping through the step in flight.
    bool isHeld() const;
    virtual int stepsDone() const = 0;   // over every part of the current run
    virtual int stepsTotal() const = 0;  // planned, over every part of the current run
    QProgressBar *progressBar() const;
    // "start", "pause", "resume", "stop", "reset", "ghost", "clear".
    QPushButton *button(const QString &name) const;
    // The parameter values the current (or last) run was started with.
    const ParamValues &runValues() const { return runValues_; }

protected:
    TrainingControlBar *controls() const { return controls_; }

    // Starts the lab's run with the current values: empty, or why the values cannot be trained.
    virtual QString beginRun() = 0;
    // Moves what the run made since the last call into the charts; true once every part of the run
    // has ended and its results are drawn.
    virtual bool pullRun() = 0;
    virtual void setRunPaused(bool paused) = 0;
    virtual bool runHeld() const = 0;  // every part parked in its pause, or ended
    virtual void cancelRun() = 0;      // stop after the current step; results still come
    virtual void joinRun() = 0;        // blocks until every part has returned (waitForResult only)
    // Abandons the run (joined within a step) and clears what it drew, then shows the current
    // values' preview. keepHistory: a lab that lists its runs (the toy lab's table) keeps the rows
    // of the runs that ended (a change of values); false for Reset and for a scene.
    virtual void clearRun(bool keepHistory) = 0;
    virtual void keepGhostCurves() = 0;  // the ended run's curves as ghosts
    virtual void clearGhostCurves() = 0;
    virtual int ghostCount() const = 0;
    virtual void setSmoothing(int window) = 0;  // the moving-average window of the loss curves
    virtual void setRunPace(double stepsPerSecond) { (void)stepsPerSecond; }  // 0: as fast as it goes
    // The run's state in words, for a lab that shows it beside its results ("paused", "stopping").
    virtual void showRunStatus(const QString &status) { (void)status; }
    virtual void runFinished() {}  // once, after the run has ended and was drawn
    // The lab's live figures (loss now ...), after every pull.
    virtual void updateLive() {}
    // How long Start will train the values shown ("about 25 min"), for the progress bar before a
    // run; empty when the lab cannot say.
    virtual QString plannedText() const { return {}; }
    // The parts the progress bar counts together, when there are several ("2 arms of 220"): its
    // steps are theirs summed, while a chart's axis shows one part's.
    virtual QString partsText() const { return {}; }

    // A lab's draw() calls this with every result: a change of values that ended runs did not train
    // clears them; one during a run is announced for the next Start.
    void valuesShown();
    void updateButtons();
    void updateProgress();
    // Seconds the current run has trained, its pauses left out.
    double runSeconds() const;

    // The mean of the last `window` values: what a smoothed curve shows at its end (NaN when empty).
    static double windowMean(const std::vector<double> &values, int window);

Q_SIGNALS:
    // The run's state changed (started, paused, resumed, stopping, ended, reset): for a lecture's
    // header that says what space does.
    void stateChanged();

private:
    void finishRun();
    void restartClock();
    // The ended run no longer matches the panel's values: it stays only as a labelled ghost (and in
    // a lab's list of runs), and the charts show the untrained preview of the values.
    void setAside();

    TrainingControlBar *controls_ = nullptr;
    QTimer *frameTimer_ = nullptr;
    State state_ = State::Idle;
    ParamValues runValues_;
    bool ghostKept_ = false;
    bool newValuesNoted_ = false;  // the note says the new values apply at the next Start
    // The run's clock without its pauses, for the time-left estimate on the progress bar; it starts
    // again at a change of pace (the steps done then are markSteps_), so the estimate is the pace's.
    QElapsedTimer runClock_, pausedClock_;
    qint64 pausedMs_ = 0;
    int markSteps_ = 0;
};

} // namespace fb
