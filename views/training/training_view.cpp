#include "views/training/training_view.h"

#include "views/training/loss_curve_chart.h"
#include "views/widgets/number_text.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_configs.h"
#include "views/training/training_control_bar.h"
#include "views/training/training_results_table.h"
#include "core/run/time_left.h"
#include "core/training/training_run.h"
#include "core/labs/training_spec.h"

#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace fb {

namespace {

constexpr int kFrameMs = 33;  // pull new training data at most ~30 times a second


} // namespace

TrainingView::TrainingView(QWidget *parent)
    : LabViewFor(parent)
{
    controls_ = new TrainingControlBar;
    chart_ = new LossCurveChart;
    table_ = new TrainingResultsTable;
    table_->setMinimumHeight(130);
    table_->setMaximumHeight(230);
    chartArea()->addWidget(controls_);
    addChart(chart_, chart_, 1);
    chartArea()->addWidget(table_, 0);

    connect(controls_->startButton(), &QPushButton::clicked, this, &TrainingView::start);
    connect(controls_->pauseButton(), &QPushButton::clicked, this, &TrainingView::pause);
    connect(controls_->resumeButton(), &QPushButton::clicked, this, &TrainingView::resume);
    connect(controls_->stopButton(), &QPushButton::clicked, this, &TrainingView::stop);
    connect(controls_->resetButton(), &QPushButton::clicked, this, &TrainingView::reset);
    connect(controls_->ghostButton(), &QPushButton::clicked, this, &TrainingView::keepGhost);
    connect(controls_->clearGhostsButton(), &QPushButton::clicked, this, &TrainingView::clearGhosts);
    connect(controls_, &TrainingControlBar::windowChanged, this, [this](int w) {
        chart_->setWindow(w);
        if (!configs_.empty()) updateProgress();
    });
    chart_->setWindow(controls_->windowSlider()->value());
    connect(controls_, &TrainingControlBar::paceChanged, this, [this](double pace) {
        if (run_) run_->setPace(pace);  // live: also in the middle of a paced wait
    });

    frameTimer_ = new QTimer(this);
    frameTimer_->setInterval(kFrameMs);
    connect(frameTimer_, &QTimer::timeout, this, &TrainingView::pull);

    readouts()->setRow(QStringLiteral("floor"), tr("Bayes floor (token-only)"), QStringLiteral("0.5000 nats"),
                       tr("E over p ~ U(0,1) of H(p) = 1/2 nat, for any number of buckets (218.6.5)"));
    beginComputing();
    previewCurrentValues();
    updateButtons();
}

TrainingView::~TrainingView()
{
    frameTimer_->stop();
    run_.reset();  // abandons and joins: nothing trains after the window is gone
}

QProgressBar *TrainingView::progressBar() const
{
    return controls_->progressBar();
}

QPushButton *TrainingView::button(const QString &name) const
{
    return controls_->findChild<QPushButton *>(name);
}

int TrainingView::chartArm(const TrainConfig &config)
{
    return config.arm == Arm::TokenOnly ? LossCurveChart::kTokenOnly : LossCurveChart::kLatent;
}

int TrainingView::stepsDone() const
{
    int n = 0;
    for (const TrainConfig &c : configs_) n += int(chart_->losses(chartArm(c)).size());
    return n;
}

bool TrainingView::isHeld() const
{
    return run_ && state_ == State::Paused && run_->allHeld();
}

int TrainingView::stepsTotal() const
{
    int n = 0;
    for (const TrainConfig &c : configs_) n += c.steps;
    return n;
}

void TrainingView::start()
{
    if (state_ == State::Running || state_ == State::Paused || state_ == State::Stopping) return;
    std::vector<TrainConfig> configs;
    try {
        configs = trainingConfigs(values());
    } catch (const std::exception &e) {
        readouts()->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>")
                                .arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return;
    }
    run_.reset();
    replay_.clear();
    configs_ = std::move(configs);
    runValues_ = values();
    ended_.assign(configs_.size(), false);
    results_.assign(configs_.size(), TrainResult {});
    ghostKept_ = false;
    chart_->startRun(configs_.front().steps, configs_.front().seqLen, configs_.front().buckets);
    showArms(configs_);
    QStringList labels;
    for (const TrainConfig &c : configs_) labels << runLabel(c);
    table_->beginRun(labels);
    readouts()->setNote(QString());
    clearFinalReadouts();
    run_ = std::make_unique<TrainingRun>(configs_, controls_->pace());
    runClock_.start();
    pausedMs_ = 0;
    state_ = State::Running;
    frameTimer_->start();
    updateProgress();
    updateButtons();
}

void TrainingView::pause()
{
    if (state_ != State::Running) return;
    run_->setPaused(true);
    pausedClock_.start();
    state_ = State::Paused;
    table_->setPendingStatus(tr("paused"));
    updateButtons();
}

void TrainingView::resume()
{
    if (state_ != State::Paused) return;
    run_->setPaused(false);
    pausedMs_ += pausedClock_.elapsed();
    state_ = State::Running;
    table_->setPendingStatus(tr("training"));
    updateButtons();
}

void TrainingView::stop()
{
    if (state_ != State::Running && state_ != State::Paused) return;
    run_->cancel();  // also wakes a paused training
    state_ = State::Stopping;
    table_->setPendingStatus(tr("stopping"));
    updateButtons();
}

void TrainingView::reset()
{
    frameTimer_->stop();
    run_.reset();  // abandons and joins: at most one training step (no held-out pass)
    replay_.clear();
    configs_.clear();
    ended_.clear();
    results_.clear();
    ghostKept_ = false;
    state_ = State::Idle;
    table_->clearRuns();
    readouts()->setNote(QString());
    clearFinalReadouts();
    readouts()->setRow(QStringLiteral("live"), tr("Loss now (token / latent)"), QStringLiteral("—"));
    previewCurrentValues();
    updateButtons();
}

void TrainingView::keepGhost()
{
    if (state_ != State::Done || ghostKept_) return;
    for (const TrainConfig &c : configs_) {
        const std::vector<double> &losses = chart_->losses(chartArm(c));
        // The token-only arm does not depend on k: a second copy of the same curve adds nothing.
        if (!losses.empty() && !chart_->hasGhost(ghostLabel(c), losses)) chart_->addGhost(ghostLabel(c), losses);
    }
    ghostKept_ = true;
    updateButtons();
}

void TrainingView::clearGhosts()
{
    chart_->clearGhosts();
    updateButtons();
}

void TrainingView::pull()
{
    if (!run_) return;
    std::vector<TrainingRun::ArmUpdate> updates = run_->take();
    for (std::size_t i = 0; i < updates.size() && i < configs_.size(); ++i) {
        TrainingRun::ArmUpdate &u = updates[i];
        chart_->appendLosses(chartArm(configs_[i]), u.losses);
        if (u.result) {
            results_[i] = std::move(*u.result);
            ended_[i] = true;
            table_->setResult(int(i), results_[i], configs_[i].steps);
            // A diverged arm is marked on the chart at its last good step, with the full reason.
            if (results_[i].status == TrainStatus::Diverged)
                chart_->markDivergence(chartArm(configs_[i]), std::max(1, int(chart_->losses(chartArm(configs_[i])).size())),
                                       TrainingResultsTable::statusText(results_[i], configs_[i].steps));
            results_[i].curve.clear();  // the chart holds the curve
        } else if (!u.error.empty()) {
            ended_[i] = true;
            results_[i].status = TrainStatus::Cancelled;
            table_->setError(int(i), QString::fromStdString(u.error));
        }
    }
    updateProgress();
    if (state_ != State::Done && std::all_of(ended_.begin(), ended_.end(), [](bool e) { return e; })) finishRun();
}

void TrainingView::finishRun()
{
    frameTimer_->stop();
    run_->join();  // every thread has returned already; this only reaps them
    state_ = State::Done;
    updateFinalReadouts();
    updateButtons();
    Q_EMIT resultShown();
}

void TrainingView::waitForResult()
{
    LabView::waitForResult();
    if (state_ == State::Idle) start();
    if (run_ && (state_ == State::Running || state_ == State::Stopping)) run_->join();
    pull();
}

QString TrainingView::startTraining()
{
    try {
        trainingConfigs(values());
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    start();
    return state_ == State::Running ? QString() : tr("a training is already running");
}

int TrainingView::replaySteps() const
{
    if (!configs_.empty()) return configs_.front().steps;
    return int(values().integer("steps"));
}

void TrainingView::showStep(int step)
{
    if (state_ != State::Done || configs_.empty()) return;
    if (replay_.empty())
        for (const TrainConfig &c : configs_) replay_.push_back(chart_->losses(chartArm(c)));
    step = std::clamp(step, 0, replaySteps());
    // As the live view drew it: a new run's axes, then the curves appended up to the step (the
    // y axis only grows with them, the x axis follows the longest), a divergence once it happened.
    chart_->startRun(configs_.front().steps, configs_.front().seqLen, configs_.front().buckets);
    for (std::size_t i = 0; i < configs_.size(); ++i) {
        const std::vector<double> &all = replay_[i];
        const std::size_t n = std::min(all.size(), std::size_t(step));
        chart_->appendLosses(chartArm(configs_[i]), std::vector<double>(all.begin(), all.begin() + std::ptrdiff_t(n)));
        if (results_[i].status == TrainStatus::Diverged && n == all.size() && step >= int(all.size()))
            chart_->markDivergence(chartArm(configs_[i]), std::max(1, int(n)),
                                   TrainingResultsTable::statusText(results_[i], configs_[i].steps));
    }
}

QJsonObject TrainingView::extraState() const
{
    return chart_->state();
}

QString TrainingView::setExtraState(const QJsonObject &state)
{
    const QString err = chart_->setState(state);
    if (err.isEmpty()) {
        // A scene shows its own ghosts and nothing of runs trained before it was opened.
        reset();
        QSignalBlocker block(controls_->windowSlider());
        controls_->windowSlider()->setValue(chart_->window());
        controls_->setWindowText(chart_->window());
        updateButtons();
    }
    return err;
}

void TrainingView::setPresentationScale(double scale)
{
    LabView::setPresentationScale(scale);
    chart_->setLabelScale(scale);
}

void TrainingView::updateButtons()
{
    const bool active = state_ == State::Running || state_ == State::Paused || state_ == State::Stopping;
    controls_->startButton()->setEnabled(!active);
    controls_->startButton()->setText(state_ == State::Done ? tr("Start again") : tr("Start"));
    controls_->pauseButton()->setEnabled(state_ == State::Running);
    controls_->resumeButton()->setEnabled(state_ == State::Paused);
    controls_->stopButton()->setEnabled(state_ == State::Running || state_ == State::Paused);
    controls_->resetButton()->setEnabled(state_ != State::Idle);
    controls_->ghostButton()->setEnabled(state_ == State::Done && !ghostKept_ && stepsDone() > 0);
    controls_->clearGhostsButton()->setEnabled(chart_->ghostCount() > 0);
}

void TrainingView::updateProgress()
{
    const int total = std::max(1, stepsTotal());
    progressBar()->setRange(0, total);
    progressBar()->setValue(std::min(total, stepsDone()));
    // Long runs (100,000 steps, the widest layers) take minutes: say how long is left.
    const std::string left = state_ == State::Running && runClock_.isValid()
        ? timeLeftText(double(runClock_.elapsed() - pausedMs_) / 1000.0, stepsDone(), total) : std::string();
    progressBar()->setFormat(left.empty() ? tr("%v / %m steps") : tr("%v / %m steps, %1").arg(QString::fromStdString(left)));
    // The mean of the last `window` losses of each arm: what the smoothed curve shows at its end.
    QString now[2] = { QStringLiteral("—"), QStringLiteral("—") };
    for (const TrainConfig &c : configs_) {
        const std::vector<double> &losses = chart_->losses(chartArm(c));
        const std::size_t n = std::min<std::size_t>(losses.size(), std::size_t(chart_->window()));
        double sum = 0.0;
        for (std::size_t i = losses.size() - n; i < losses.size(); ++i) sum += losses[i];
        if (n > 0) now[chartArm(c)] = QString::number(sum / double(n), 'f', 3);
    }
    readouts()->setRow(QStringLiteral("live"), tr("Loss now (token / latent)"),
                       QStringLiteral("%1 / %2 nats").arg(now[0], now[1]),
                       tr("Mean training loss over the last smoothing window of each arm"));
}

void TrainingView::clearFinalReadouts()
{
    for (const QString &key : { QStringLiteral("heldout"), QStringLiteral("accuracy"), QStringLiteral("gap"),
                                QStringLiteral("ratio") })
        if (!readouts()->value(key).isEmpty()) readouts()->setRow(key, QString(), QStringLiteral("—"));
}

void TrainingView::updateFinalReadouts()
{
    // Values read "token-only / latent", with "—" for an arm that did not run.
    const TrainResult *arms[2] = { nullptr, nullptr };
    for (std::size_t i = 0; i < configs_.size(); ++i) arms[chartArm(configs_[i])] = &results_[i];
    auto pair = [&](double TrainResult::*field, int digits) {
        QStringList parts;
        for (const TrainResult *r : arms) parts << (r ? QString::number(r->*field, 'f', digits) : QStringLiteral("—"));
        return parts.join(QStringLiteral(" / "));
    };
    readouts()->setRow(QStringLiteral("heldout"), tr("Held-out loss (token / latent)"),
                       pair(&TrainResult::heldoutLoss, 4) + QStringLiteral(" nats"),
                       tr("On 2,048 fresh sequences; the chapter prints 0.5160 / 0.2494 nats"));
    readouts()->setRow(QStringLiteral("accuracy"), tr("Accuracy (token / latent)"), pair(&TrainResult::accuracy, 3),
                       tr("Bucket accuracy on the same sequences; the chapter prints 0.745 / 0.896"));
    const TrainResult *token = arms[0], *latent = arms[1];
    readouts()->setRow(QStringLiteral("gap"), tr("Token-only gap to floor"),
                       token ? QStringLiteral("%1%2 nats").arg(token->heldoutLoss >= 0.5 ? "+" : "")
                                   .arg(token->heldoutLoss - 0.5, 0, 'f', 4)
                             : QStringLiteral("—"),
                       tr("Held-out loss minus the 0.5-nat floor; the chapter prints +0.0160 nats"));
    readouts()->setRow(QStringLiteral("ratio"), tr("Latent ÷ token-only loss"),
                       token && latent && token->heldoutLoss > 0
                           ? QString::number(latent->heldoutLoss / token->heldoutLoss, 'f', 3)
                           : QStringLiteral("—"),
                       tr("The chapter prints 0.483"));
}

void TrainingView::showArms(const std::vector<TrainConfig> &configs)
{
    TrainConfig token, latent;
    latent.arm = Arm::LatentFeedback;
    bool shown[2] = { false, false };
    for (const TrainConfig &c : configs) {
        shown[chartArm(c)] = true;
        (c.arm == Arm::TokenOnly ? token : latent) = c;
    }
    chart_->setArm(LossCurveChart::kTokenOnly, shown[0], legendName(token));
    chart_->setArm(LossCurveChart::kLatent, shown[1], legendName(latent));
}

void TrainingView::previewCurrentValues()
{
    // With nothing trained, the chart's title, axes and legend already show what Start will run.
    try {
        const std::vector<TrainConfig> configs = trainingConfigs(values());
        chart_->startRun(configs.front().steps, configs.front().seqLen, configs.front().buckets);
        showArms(configs);
        progressBar()->setRange(0, configs.front().steps * int(configs.size()));
        progressBar()->setValue(0);
    } catch (const std::exception &) {
        // The panel refuses values trainFrom rejects: nothing to preview.
    }
}

void TrainingView::draw(const TrainingLabResult &p)
{
    readouts()->setRow(QStringLiteral("params"), tr("Parameters (token / latent)"),
                       QStringLiteral("%1 / %2").arg(text::grouped(p.tokenParams), text::grouped(p.latentParams)),
                       tr("The chapter's sizes give 5,700 / 8,356"));
    if (state_ == State::Idle) previewCurrentValues();
    else if (state_ != State::Done)
        readouts()->setNote(values() == runValues_ ? QString() : tr("The new values apply at the next Start."));
}

} // namespace fb
