#include "views/training/training_lab_view.h"

#include "core/run/time_left.h"
#include "views/training/training_control_bar.h"
#include "views/widgets/readout_panel.h"

#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fb {

namespace {
constexpr int kFrameMs = 33;  // pull what the run made at most ~30 times a second
} // namespace

TrainingLabView::TrainingLabView(const LabSpec &spec, QWidget *parent)
    : LabView(spec, parent)
{
    controls_ = new TrainingControlBar;
    chartArea()->addWidget(controls_);
    connect(controls_->startButton(), &QPushButton::clicked, this, &TrainingLabView::start);
    connect(controls_->pauseButton(), &QPushButton::clicked, this, &TrainingLabView::pause);
    connect(controls_->resumeButton(), &QPushButton::clicked, this, &TrainingLabView::resume);
    connect(controls_->stopButton(), &QPushButton::clicked, this, &TrainingLabView::stop);
    connect(controls_->resetButton(), &QPushButton::clicked, this, &TrainingLabView::reset);
    connect(controls_->ghostButton(), &QPushButton::clicked, this, &TrainingLabView::keepGhost);
    connect(controls_->clearGhostsButton(), &QPushButton::clicked, this, &TrainingLabView::clearGhosts);
    connect(controls_, &TrainingControlBar::windowChanged, this, [this](int w) {
        setSmoothing(w);
        updateLive();
    });
    // Live: also in the middle of a paced wait.
    connect(controls_, &TrainingControlBar::paceChanged, this, [this](double pace) {
        if (state_ == State::Idle || state_ == State::Done) return;
        setRunPace(pace);
        restartClock();  // the time left is the new pace's
        updateProgress();
    });
    frameTimer_ = new QTimer(this);
    frameTimer_->setInterval(kFrameMs);
    connect(frameTimer_, &QTimer::timeout, this, &TrainingLabView::pull);
}

TrainingLabView::~TrainingLabView()
{
    frameTimer_->stop();
}

QProgressBar *TrainingLabView::progressBar() const
{
    return controls_->progressBar();
}

QPushButton *TrainingLabView::button(const QString &name) const
{
    return controls_->findChild<QPushButton *>(name);
}

bool TrainingLabView::isHeld() const
{
    return state_ == State::Paused && runHeld();
}

void TrainingLabView::start()
{
    if (state_ == State::Running || state_ == State::Paused || state_ == State::Stopping) return;
    const ParamValues values = this->values();
    if (const QString err = beginRun(); !err.isEmpty()) {
        readouts()->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(err.toHtmlEscaped()));
        return;
    }
    runValues_ = values;
    ghostKept_ = false;
    readouts()->setNote(QString());
    setRunPace(controls_->pace());
    state_ = State::Running;
    restartClock();
    showRunStatus(tr("training"));
    frameTimer_->start();
    updateProgress();
    updateLive();
    updateButtons();
}

void TrainingLabView::pause()
{
    if (state_ != State::Running) return;
    setRunPaused(true);
    pausedClock_.start();
    state_ = State::Paused;
    showRunStatus(tr("paused"));
    updateProgress();
    updateButtons();
}

void TrainingLabView::resume()
{
    if (state_ != State::Paused) return;
    setRunPaused(false);
    pausedMs_ += pausedClock_.elapsed();
    state_ = State::Running;
    showRunStatus(tr("training"));
    updateButtons();
}

void TrainingLabView::stop()
{
    if (state_ != State::Running && state_ != State::Paused) return;
    cancelRun();  // also wakes a paused training
    state_ = State::Stopping;
    showRunStatus(tr("stopping"));
    updateButtons();
}

void TrainingLabView::reset()
{
    frameTimer_->stop();
    state_ = State::Idle;
    ghostKept_ = false;
    clearRun(false);  // abandons and joins: at most one training step (no held-out pass)
    readouts()->setNote(QString());
    newValuesNoted_ = false;
    updateProgress();
    updateLive();
    updateButtons();
}

void TrainingLabView::keepGhost()
{
    if (state_ != State::Done || ghostKept_) return;
    keepGhostCurves();
    ghostKept_ = true;
    updateButtons();
}

void TrainingLabView::clearGhosts()
{
    clearGhostCurves();
    updateButtons();
}

void TrainingLabView::pull()
{
    if (state_ == State::Idle || state_ == State::Done) return;
    const bool ended = pullRun();
    updateProgress();
    updateLive();
    if (ended) finishRun();
}

QString TrainingLabView::toggleTraining()
{
    switch (state_) {
    case State::Idle:
    case State::Done:
        start();
        return state_ == State::Running ? tr("training") : tr("not started");
    case State::Running:
        pause();
        return tr("paused");
    case State::Paused:
        resume();
        return tr("training");
    case State::Stopping:
        break;
    }
    return tr("stopping");
}

QString TrainingLabView::setExtraState(const QJsonObject &state)
{
    (void)state;
    if (state_ != State::Idle && values() != runValues_) reset();
    return {};
}

void TrainingLabView::finishRun()
{
    frameTimer_->stop();
    joinRun();  // every part has returned already: this only reaps the threads
    state_ = State::Done;
    runFinished();
    if (values() != runValues_) {
        // The panel was changed during the run: the charts show what it says.
        setAside();
        Q_EMIT resultShown();
        return;
    }
    updateProgress();
    updateLive();
    updateButtons();
    Q_EMIT resultShown();
}

void TrainingLabView::setAside()
{
    const int ghosts = ghostCount();
    if (!ghostKept_ && stepsDone() > 0) keepGhostCurves();
    const bool kept = ghostCount() > ghosts;
    frameTimer_->stop();
    state_ = State::Idle;
    ghostKept_ = false;
    clearRun(true);
    updateProgress();
    updateLive();
    updateButtons();
    readouts()->setNote(kept ? tr("The run of the earlier values is kept as a ghost curve; Start trains these values.")
                             : tr("Start trains these values."));
}

void TrainingLabView::restartClock()
{
    runClock_.start();
    pausedMs_ = 0;
    if (state_ == State::Paused) pausedClock_.start();
    markSteps_ = stepsDone();
}

void TrainingLabView::waitForResult()
{
    LabView::waitForResult();
    if (state_ == State::Idle) start();
    if (state_ == State::Running || state_ == State::Stopping) joinRun();
    pull();
}

void TrainingLabView::valuesShown()
{
    if (state_ == State::Done && values() != runValues_) {
        // The charts would show a run of other values than the panel says: it is set aside.
        setAside();
        return;
    }
    if (state_ == State::Running || state_ == State::Paused || state_ == State::Stopping) {
        // Only its own note is taken back: a result drawn during the run with the run's values (the
        // preview of a model just opened) cleared "Opened m.fbmodel. To train it again choose its
        // text file." whenever the run was still going when the preview came.
        const bool differ = values() != runValues_;
        if (differ || newValuesNoted_) readouts()->setNote(differ ? tr("The new values apply at the next Start.") : QString());
        newValuesNoted_ = differ;
        updateProgress();  // the progress bar says it too, where it is seen
    }
}

void TrainingLabView::updateButtons()
{
    const bool active = state_ == State::Running || state_ == State::Paused || state_ == State::Stopping;
    controls_->startButton()->setEnabled(!active);
    controls_->setStartAgain(state_ == State::Done);
    controls_->pauseButton()->setEnabled(state_ == State::Running);
    controls_->resumeButton()->setEnabled(state_ == State::Paused);
    controls_->stopButton()->setEnabled(state_ == State::Running || state_ == State::Paused);
    controls_->resetButton()->setEnabled(state_ != State::Idle);
    controls_->ghostButton()->setEnabled(state_ == State::Done && !ghostKept_ && stepsDone() > 0);
    controls_->clearGhostsButton()->setEnabled(ghostCount() > 0);
    Q_EMIT stateChanged();
}

void TrainingLabView::updateProgress()
{
    const int total = std::max(1, stepsTotal());
    QProgressBar *bar = progressBar();
    bar->setRange(0, total);
    bar->setValue(std::min(total, stepsDone()));
    // Long runs (100,000 steps, the widest layers) take minutes: say how long is left, at the pace
    // since the last change of pace.
    const QString parts = partsText();
    QString format = parts.isEmpty() ? tr("%v / %m steps") : tr("%v / %m steps (%1)").arg(parts);
    if (state_ == State::Running && runClock_.isValid()) {
        const std::string left = timeLeftText(runSeconds(), stepsDone() - markSteps_, total - markSteps_);
        if (!left.empty()) format += QStringLiteral(", ") + QString::fromStdString(left);
    } else if (state_ == State::Paused) {
        format += tr(", paused");
    } else if (state_ == State::Stopping) {
        format += tr(", stopping");
    } else if (state_ == State::Idle) {
        if (const QString planned = plannedText(); !planned.isEmpty()) format += tr(" · Start trains for %1").arg(planned);
    }
    if (state_ != State::Idle && state_ != State::Done && values() != runValues_)
        format += tr(" · new values at the next Start");
    bar->setFormat(format);
}

double TrainingLabView::runSeconds() const
{
    if (!runClock_.isValid()) return 0.0;
    qint64 paused = pausedMs_;
    if (state_ == State::Paused && pausedClock_.isValid()) paused += pausedClock_.elapsed();
    return double(runClock_.elapsed() - paused) / 1000.0;
}

double TrainingLabView::windowMean(const std::vector<double> &values, int window)
{
    const std::size_t n = std::min<std::size_t>(values.size(), std::size_t(std::max(1, window)));
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (std::size_t i = values.size() - n; i < values.size(); ++i) sum += values[i];
    return sum / double(n);
}

} // namespace fb
