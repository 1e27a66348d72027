#include "views/training/training_view.h"

#include "views/training/loss_curve_chart.h"
#include "views/widgets/number_text.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_configs.h"
#include "views/training/training_control_bar.h"
#include "views/training/training_results_table.h"
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
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

} // namespace

TrainingView::TrainingView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    chart_ = new LossCurveChart;
    table_ = new TrainingResultsTable;
    table_->setMinimumHeight(130);
    table_->setMaximumHeight(230);
    addChart(chart_, chart_, 1);
    chartArea()->addWidget(table_, 0);

    chart_->setWindow(controls()->windowSlider()->value());

    readouts()->setRow(QStringLiteral("floor"), tr("Bayes floor (token-only)"), QStringLiteral("0.5000 nats"),
                       tr("E over p ~ U(0,1) of H(p) = 1/2 nat, for any number of buckets (218.6.5)"));
    beginComputing();
    previewCurrentValues();
    updateButtons();
}

TrainingView::~TrainingView()
{
    run_.reset();  // abandons and joins: nothing trains after the window is gone
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

bool TrainingView::runHeld() const
{
    return run_ && run_->allHeld();
}

std::vector<TrainConfig> TrainingView::plannedConfigs() const
{
    if (!configs_.empty()) return configs_;
    try {  // before a run: what Start would train
        return trainingConfigs(values());
    } catch (const std::exception &) {
        return {};  // values the panel refuses: nothing planned
    }
}

int TrainingView::stepsTotal() const
{
    int n = 0;
    for (const TrainConfig &c : plannedConfigs()) n += c.steps;
    return n;
}

QString TrainingView::partsText() const
{
    const std::vector<TrainConfig> configs = plannedConfigs();
    return configs.size() < 2 ? QString() : tr("%1 arms of %2").arg(configs.size()).arg(configs.front().steps);
}

QString TrainingView::beginRun()
{
    std::vector<TrainConfig> configs;
    try {
        configs = trainingConfigs(values());
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    run_.reset();
    replay_.clear();
    configs_ = std::move(configs);
    ended_.assign(configs_.size(), false);
    results_.assign(configs_.size(), TrainResult {});
    chart_->startRun(configs_.front().steps, configs_.front().seqLen, configs_.front().buckets);
    showArms(configs_);
    QStringList labels, keys, settings;
    for (const TrainConfig &c : configs_) {
        labels << runLabel(c);
        keys << runKey(c);
        settings << runSettings(c);
    }
    table_->beginRun(labels, keys, settings);
    clearFinalReadouts();
    run_ = std::make_unique<TrainingRun>(configs_, controls()->pace());
    return {};
}

void TrainingView::setRunPaused(bool paused)
{
    run_->setPaused(paused);
}

void TrainingView::cancelRun()
{
    run_->cancel();  // also wakes a paused training
}

void TrainingView::joinRun()
{
    if (run_) run_->join();
}

void TrainingView::setRunPace(double stepsPerSecond)
{
    if (run_) run_->setPace(stepsPerSecond);  // live: also in the middle of a paced wait
}

void TrainingView::showRunStatus(const QString &status)
{
    table_->setPendingStatus(status);
}

void TrainingView::setSmoothing(int window)
{
    chart_->setWindow(window);
}

void TrainingView::clearRun(bool keepHistory)
{
    run_.reset();  // abandons and joins: at most one training step (no held-out pass)
    replay_.clear();
    configs_.clear();
    ended_.clear();
    results_.clear();
    if (!keepHistory) table_->clearRuns();
    clearFinalReadouts();
    readouts()->setRow(QStringLiteral("live"), tr("Loss now (token / latent)"), QStringLiteral("—"));
    previewCurrentValues();
}

void TrainingView::keepGhostCurves()
{
    for (const TrainConfig &c : configs_) {
        const std::vector<double> &losses = chart_->losses(chartArm(c));
        // The token-only arm does not depend on k: a second copy of the same curve adds nothing.
        if (!losses.empty() && !chart_->hasGhost(ghostLabel(c), losses)) chart_->addGhost(ghostLabel(c), losses);
    }
}

void TrainingView::clearGhostCurves()
{
    chart_->clearGhosts();
}

int TrainingView::ghostCount() const
{
    return chart_->ghostCount();
}

bool TrainingView::pullRun()
{
    if (!run_) return true;
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
    return std::all_of(ended_.begin(), ended_.end(), [](bool e) { return e; });
}

void TrainingView::runFinished()
{
    updateFinalReadouts();
}

QString TrainingView::startTraining()
{
    try {
        trainingConfigs(values());
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    start();
    return state() == State::Running ? QString() : tr("a training is already running");
}

int TrainingView::replaySteps() const
{
    if (!configs_.empty()) return configs_.front().steps;
    return int(values().integer("steps"));
}

void TrainingView::showStep(int step)
{
    if (state() != State::Done || configs_.empty()) return;
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
        QSignalBlocker block(controls()->windowSlider());
        controls()->windowSlider()->setValue(chart_->window());
        controls()->setWindowText(chart_->window());
        updateButtons();
    }
    return err;
}

void TrainingView::setPresentationScale(double scale)
{
    TrainingLabView::setPresentationScale(scale);
    chart_->setLabelScale(scale);
}

void TrainingView::updateLive()
{
    // The mean of the last `window` losses of each arm: what the smoothed curve shows at its end.
    QString now[2] = { QStringLiteral("—"), QStringLiteral("—") };
    for (const TrainConfig &c : configs_) {
        const double mean = windowMean(chart_->losses(chartArm(c)), chart_->window());
        if (std::isfinite(mean)) now[chartArm(c)] = QString::number(mean, 'f', 3);
    }
    if (configs_.empty()) return;
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
        updateProgress();
    } catch (const std::exception &) {
        // The panel refuses values trainFrom rejects: nothing to preview.
    }
}

void TrainingView::draw(const TrainingLabResult &p)
{
    readouts()->setRow(QStringLiteral("params"), tr("Parameters (token / latent)"),
                       QStringLiteral("%1 / %2").arg(text::grouped(p.tokenParams), text::grouped(p.latentParams)),
                       tr("The chapter's sizes give 5,700 / 8,356"));
    valuesShown();  // a run of other values than these is cleared (and the preview shown)
    if (state() == State::Idle) previewCurrentValues();
}

QString TrainingView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Figure 218.2 (right), 218.6.5: the chapter's toy phase accumulator "
        "z<sub>t</sub> = (z<sub>t−1</sub> + a<sub>t</sub>) mod 1, with a<sub>t</sub> ~ U[0, 1) revealed one per "
        "step and the bucket y<sub>t</sub> = ⌊V<sub>b</sub>z<sub>t</sub>⌋ to emit. Two loops are trained live "
        "under teacher forcing: the token-only loop reads E[y<sub>t−1</sub>], the latent-feedback loop "
        "GLU(E[y<sub>t−1</sub>], h<sub>t−1</sub>). The curves are their cross entropies, the table their "
        "held-out loss and accuracy beside the chapter's.</p>"
        "<p><b>The floor.</b> Knowing only the previous bucket, the next phase is uniform on an arc of width "
        "1/V<sub>b</sub> that splits between two buckets as p and 1 − p with p ~ U(0, 1), so the token-only loop "
        "cannot go below E[H(p)] = 1/2 nat (the dashed line), for any V<sub>b</sub>. The latent loop carries "
        "z<sub>t−1</sub> itself in h<sub>t−1</sub> and has no such floor.</p>"
        "<p><b>Try.</b> Start with the chapter's values: token-only ends near 0.516 nats, just above the floor, "
        "latent feedback near 0.25. Set <i>feedback passes k</i> to 1, 2, 3 (0 is exact backpropagation through "
        "time) and keep each run as a ghost: each pass carries the state one step further. Raise "
        "<i>buckets</i>: the floor stays at 1/2 nat.</p>");
}

} // namespace fb
