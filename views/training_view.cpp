#include "views/training_view.h"

#include "views/loss_curve_chart.h"
#include "views/param_panel.h"
#include "views/readout_panel.h"
#include "views/training_results_table.h"
#include "views/training_run.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

constexpr int kFrameMs = 33;  // pull new training data at most ~30 times a second

// What the (trivial) computation hands to the GUI thread: the sizes of the two arms.
struct TrainingPreview {
    long long tokenParams = 0;
    long long latentParams = 0;
    int steps = 0;
    int seqLen = 0;
    int buckets = 0;
};

std::vector<TrainConfig> configsFrom(const ParamValues &values)
{
    TrainConfig config;
    bool both = false;
    if (const std::string err = trainFrom(values, config, both); !err.empty()) throw std::invalid_argument(err);
    if (!both) return { config };
    TrainConfig token = config, latent = config;
    token.arm = Arm::TokenOnly;
    latent.arm = Arm::LatentFeedback;
    return { token, latent };
}

std::any computePreview(const ParamValues &values)
{
    TrainConfig config;
    bool both = false;
    if (const std::string err = trainFrom(values, config, both); !err.empty()) throw std::invalid_argument(err);
    TrainingPreview p;
    TrainConfig token = config, latent = config;
    token.arm = Arm::TokenOnly;
    latent.arm = Arm::LatentFeedback;
    p.tokenParams = parameterCount(token);
    p.latentParams = parameterCount(latent);
    p.steps = config.steps;
    p.seqLen = config.seqLen;
    p.buckets = config.buckets;
    return p;
}

QString grouped(long long n)
{
    return QLocale(QLocale::English).toString(n);
}

} // namespace

TrainingView::TrainingView(QWidget *parent)
    : LabView(trainSpec(), tr("Latent-feedback training"), parent)
{
    auto makeButton = [this](const QString &text, const QString &name, const QString &tip) {
        auto *b = new QPushButton(text);
        b->setObjectName(name);
        b->setToolTip(tip);
        return b;
    };
    startButton_ = makeButton(tr("Start"), QStringLiteral("start"), tr("Train with the current parameters"));
    pauseButton_ = makeButton(tr("Pause"), QStringLiteral("pause"), tr("Hold both arms after their current step"));
    resumeButton_ = makeButton(tr("Resume"), QStringLiteral("resume"), tr("Continue a paused training"));
    stopButton_ = makeButton(tr("Stop"), QStringLiteral("stop"), tr("End the training now; the table shows it as cancelled"));
    resetButton_ = makeButton(tr("Reset"), QStringLiteral("reset"), tr("Stop and clear the curves, progress and results"));
    ghostButton_ = makeButton(tr("Keep as ghost"), QStringLiteral("ghost"),
                              tr("Keep this run's curves, labelled, to compare with the next runs"));
    clearButton_ = makeButton(tr("Clear ghosts"), QStringLiteral("clear"), tr("Remove every kept curve"));
    startButton_->setDefault(true);
    connect(startButton_, &QPushButton::clicked, this, &TrainingView::start);
    connect(pauseButton_, &QPushButton::clicked, this, &TrainingView::pause);
    connect(resumeButton_, &QPushButton::clicked, this, &TrainingView::resume);
    connect(stopButton_, &QPushButton::clicked, this, &TrainingView::stop);
    connect(resetButton_, &QPushButton::clicked, this, &TrainingView::reset);
    connect(ghostButton_, &QPushButton::clicked, this, &TrainingView::keepGhost);
    connect(clearButton_, &QPushButton::clicked, this, &TrainingView::clearGhosts);

    progress_ = new QProgressBar;
    progress_->setFormat(tr("%v / %m steps"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setMinimumWidth(240);

    auto *controls = new QHBoxLayout;
    for (QPushButton *b : { startButton_, pauseButton_, resumeButton_, stopButton_, resetButton_ }) controls->addWidget(b);
    controls->addSpacing(12);
    controls->addWidget(progress_, 1);

    windowSlider_ = new QSlider(Qt::Horizontal);
    windowSlider_->setRange(1, 101);
    windowSlider_->setValue(15);
    windowSlider_->setToolTip(tr("Moving-average window of the smoothed curves (the chapter uses 15 steps)"));
    windowLabel_ = new QLabel;
    connect(windowSlider_, &QSlider::valueChanged, this, [this](int w) {
        windowLabel_->setText(tr("smoothing: %1 %2").arg(w).arg(w == 1 ? tr("step (raw)") : tr("steps")));
        chart_->setWindow(w);
    });
    auto *smoothing = new QHBoxLayout;
    smoothing->addWidget(new QLabel(tr("Moving average")));
    smoothing->addWidget(windowSlider_, 1);
    smoothing->addWidget(windowLabel_);
    smoothing->addSpacing(12);
    smoothing->addWidget(ghostButton_);
    smoothing->addWidget(clearButton_);

    chart_ = new LossCurveChart;
    table_ = new TrainingResultsTable;
    table_->setMinimumHeight(150);
    chartArea()->addLayout(controls);
    chartArea()->addLayout(smoothing);
    addChart(chart_, chart_, 3);
    chartArea()->addWidget(table_, 1);
    windowLabel_->setText(tr("smoothing: %1 steps").arg(windowSlider_->value()));

    frameTimer_ = new QTimer(this);
    frameTimer_->setInterval(kFrameMs);
    connect(frameTimer_, &QTimer::timeout, this, &TrainingView::pull);

    readouts()->setRow(QStringLiteral("floor"), tr("Bayes floor, token-only"), QStringLiteral("0.5000 nats"),
                       tr("E over p ~ U(0,1) of H(p) = 1/2 nat, for any number of buckets (218.6.5)"));
    setValidator([](const ParamValues &v) {
        TrainConfig c;
        bool both = false;
        return trainFrom(v, c, both);
    });
    setComputation(computePreview);
    updateButtons();
}

TrainingView::~TrainingView()
{
    frameTimer_->stop();
    run_.reset();  // cancels and joins: nothing trains after the window is gone
}

QPushButton *TrainingView::button(const QString &name) const
{
    return findChild<QPushButton *>(name);
}

int TrainingView::chartArm(const TrainConfig &config)
{
    return config.arm == Arm::TokenOnly ? LossCurveChart::kTokenOnly : LossCurveChart::kLatent;
}

QString TrainingView::ghostLabel(const TrainConfig &c)
{
    if (c.arm == Arm::TokenOnly) return tr("token-only, seed %1").arg(c.seed);
    if (c.passes == 0) return tr("latent exact, seed %1").arg(c.seed);
    return tr("latent k=%1, seed %2").arg(c.passes).arg(c.seed);
}

QString TrainingView::runLabel(const TrainConfig &c)
{
    if (c.arm == Arm::TokenOnly) return tr("token-only, seed %1").arg(c.seed);
    const QString passes = c.passes == 0 ? tr("exact") : tr("k = %1").arg(c.passes);
    return tr("latent-feedback (%1), seed %2").arg(passes).arg(c.seed);
}

int TrainingView::stepsDone() const
{
    int n = 0;
    for (const TrainConfig &c : configs_) n += int(chart_->losses(chartArm(c)).size());
    return n;
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
        configs = configsFrom(values());
    } catch (const std::exception &e) {
        readouts()->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>")
                                .arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return;
    }
    run_.reset();
    configs_ = std::move(configs);
    runValues_ = values();
    ended_.assign(configs_.size(), false);
    results_.assign(configs_.size(), TrainResult {});
    ghostKept_ = false;
    chart_->startRun(configs_.front().steps, configs_.front().seqLen, configs_.front().buckets);
    readouts()->setNote(QString());
    for (const QString &key : { QStringLiteral("heldout"), QStringLiteral("accuracy"), QStringLiteral("ratio"),
                                QStringLiteral("gap") })
        if (!readouts()->value(key).isEmpty()) readouts()->setRow(key, QString(), QStringLiteral("…"));
    run_ = std::make_unique<TrainingRun>(configs_);
    state_ = State::Running;
    frameTimer_->start();
    updateProgress();
    updateButtons();
}

void TrainingView::pause()
{
    if (state_ != State::Running) return;
    run_->setPaused(true);
    state_ = State::Paused;
    updateButtons();
}

void TrainingView::resume()
{
    if (state_ != State::Paused) return;
    run_->setPaused(false);
    state_ = State::Running;
    updateButtons();
}

void TrainingView::stop()
{
    if (state_ != State::Running && state_ != State::Paused) return;
    run_->cancel();
    run_->setPaused(false);
    state_ = State::Stopping;
    updateButtons();
}

void TrainingView::reset()
{
    frameTimer_->stop();
    run_.reset();  // cancels and joins: at most one training step
    configs_.clear();
    ended_.clear();
    results_.clear();
    ghostKept_ = false;
    state_ = State::Idle;
    chart_->clearLive();
    table_->clearRuns();
    readouts()->setNote(QString());
    for (const QString &key : { QStringLiteral("live"), QStringLiteral("heldout"), QStringLiteral("accuracy"),
                                QStringLiteral("ratio"), QStringLiteral("gap") })
        if (!readouts()->value(key).isEmpty()) readouts()->setRow(key, QString(), QStringLiteral("—"));
    previewCurrentValues();
    updateProgress();
    updateButtons();
}

void TrainingView::keepGhost()
{
    if (state_ != State::Done || ghostKept_) return;
    for (const TrainConfig &c : configs_) {
        const std::vector<double> &losses = chart_->losses(chartArm(c));
        if (!losses.empty()) chart_->addGhost(ghostLabel(c), losses);
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
            u.result->curve.clear();  // the chart holds the curve
            results_[i] = *u.result;
            ended_[i] = true;
            table_->addResult(runLabel(configs_[i]), results_[i], configs_[i].steps);
        } else if (!u.error.empty()) {
            ended_[i] = true;
            results_[i].status = TrainStatus::Cancelled;
            table_->addError(runLabel(configs_[i]), QString::fromStdString(u.error));
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

void TrainingView::updateButtons()
{
    const bool active = state_ == State::Running || state_ == State::Paused || state_ == State::Stopping;
    startButton_->setEnabled(!active);
    startButton_->setText(state_ == State::Done ? tr("Start again") : tr("Start"));
    pauseButton_->setEnabled(state_ == State::Running);
    resumeButton_->setEnabled(state_ == State::Paused);
    stopButton_->setEnabled(state_ == State::Running || state_ == State::Paused);
    resetButton_->setEnabled(state_ != State::Idle);
    ghostButton_->setEnabled(state_ == State::Done && !ghostKept_ && stepsDone() > 0);
    clearButton_->setEnabled(chart_->ghostCount() > 0);
}

void TrainingView::updateProgress()
{
    const int total = std::max(1, stepsTotal());
    progress_->setRange(0, total);
    progress_->setValue(std::min(total, stepsDone()));
    if (configs_.empty()) return;
    // The mean of the last `window` losses of each arm: what the smoothed curve shows at its end.
    QStringList parts;
    for (const TrainConfig &c : configs_) {
        const std::vector<double> &losses = chart_->losses(chartArm(c));
        const std::size_t n = std::min<std::size_t>(losses.size(), std::size_t(chart_->window()));
        double sum = 0.0;
        for (std::size_t i = losses.size() - n; i < losses.size(); ++i) sum += losses[i];
        parts << (n == 0 ? QStringLiteral("—") : QString::number(sum / double(n), 'f', 3));
    }
    const QString armsText = configs_.size() == 2 ? tr("token-only / latent") : runLabel(configs_.front());
    readouts()->setRow(QStringLiteral("live"), tr("Training loss now (smoothed), %1").arg(armsText),
                       parts.join(QStringLiteral(" / ")) + QStringLiteral(" nats"));
}

void TrainingView::updateFinalReadouts()
{
    const TrainResult *token = nullptr, *latent = nullptr;
    for (std::size_t i = 0; i < configs_.size(); ++i)
        (configs_[i].arm == Arm::TokenOnly ? token : latent) = &results_[i];
    auto pair = [&](auto field, int digits) {
        QStringList parts;
        for (const TrainResult *r : { token, latent })
            if (r) parts << QString::number(field(*r), 'f', digits);
        return parts.join(QStringLiteral(" / "));
    };
    const QString which = token && latent ? tr("token-only / latent") : (token ? tr("token-only") : tr("latent"));
    readouts()->setRow(QStringLiteral("heldout"), tr("Held-out loss, %1").arg(which),
                       pair([](const TrainResult &r) { return r.heldoutLoss; }, 4) + QStringLiteral(" nats"),
                       tr("The chapter prints 0.5160 / 0.2494 nats"));
    readouts()->setRow(QStringLiteral("accuracy"), tr("Bucket accuracy, %1").arg(which),
                       pair([](const TrainResult &r) { return r.accuracy; }, 3),
                       tr("The chapter prints 0.745 / 0.896"));
    if (token)
        readouts()->setRow(QStringLiteral("gap"), tr("Token-only gap to the floor"),
                           QStringLiteral("%1%2 nats").arg(token->heldoutLoss >= 0.5 ? "+" : "")
                               .arg(token->heldoutLoss - 0.5, 0, 'f', 4),
                           tr("The chapter prints +0.0160 nats"));
    if (token && latent && token->heldoutLoss > 0)
        readouts()->setRow(QStringLiteral("ratio"), tr("Latent / token-only held-out loss"),
                           QString::number(latent->heldoutLoss / token->heldoutLoss, 'f', 3),
                           tr("The chapter prints 0.483"));
}

void TrainingView::previewCurrentValues()
{
    try {
        const std::vector<TrainConfig> configs = configsFrom(values());
        chart_->startRun(configs.front().steps, configs.front().seqLen, configs.front().buckets);
    } catch (const std::exception &) {
    }
}

void TrainingView::showResult(const std::any &any)
{
    const auto &p = std::any_cast<const TrainingPreview &>(any);
    readouts()->setRow(QStringLiteral("params"), tr("Parameters, token-only / latent"),
                       QStringLiteral("%1 / %2").arg(grouped(p.tokenParams), grouped(p.latentParams)),
                       tr("The chapter's sizes give 5,700 / 8,356"));
    if (state_ == State::Idle) {
        chart_->startRun(p.steps, p.seqLen, p.buckets);
    } else if (state_ != State::Done) {
        readouts()->setNote(values() == runValues_ ? QString() : tr("The new values apply at the next Start."));
    }
}

} // namespace fb
