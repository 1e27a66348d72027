#include "views/training/transformer_view.h"

#include "core/transformer/transformer_json.h"
#include "views/widgets/heatmap_grid.h"
#include "views/training/length_table.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_control_bar.h"
#include "views/training/transformer_loss_chart.h"
#include "views/training/transformer_run.h"
#include "core/labs/transformer_spec.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace fb {

namespace {

constexpr int kFrameMs = 33;  // pull at most ~30 times a second; snapshots come ~12 times a second

QString nats(double v)
{
    return std::isfinite(v) ? QStringLiteral("%1 nats").arg(v, 0, 'f', 3) : QStringLiteral("—");
}

} // namespace

TransformerView::TransformerView(QWidget *parent)
    : LabViewFor(parent)
{
    controls_ = new TrainingControlBar;
    chart_ = new TransformerLossChart;
    maps_ = new HeatmapGrid;
    maps_->setExportTitle(tr("Transformer attention maps"));
    lengths_ = new LengthTable;
    lengths_->setMinimumHeight(90);
    // The column of controls, maps, curves and table fits a 1280 x 720 screen: the charts may be
    // shorter than a chart's usual minimum.
    maps_->setMinimumHeight(260);  // the heads stay readable, also with the explanation open
    chart_->setMinimumHeight(170);
    sample_ = new QLabel;
    sample_->setWordWrap(true);
    sample_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sample_->setVisible(false);

    // The maps above, the curves and the length table side by side below, with more of the height:
    // on a 1024 x 768 projector the loss curves keep a readable plot.
    chartArea()->addWidget(controls_);
    addChart(maps_, maps_, 1);
    auto *below = new QHBoxLayout;
    below->addWidget(chart_, 3);
    below->addWidget(lengths_, 2);
    registerExportable(chart_);
    chartArea()->addLayout(below, 1);
    chartArea()->addWidget(sample_, 0);

    connect(controls_->startButton(), &QPushButton::clicked, this, &TransformerView::start);
    connect(controls_->pauseButton(), &QPushButton::clicked, this, &TransformerView::pause);
    connect(controls_->resumeButton(), &QPushButton::clicked, this, &TransformerView::resume);
    connect(controls_->stopButton(), &QPushButton::clicked, this, &TransformerView::stop);
    connect(controls_->resetButton(), &QPushButton::clicked, this, &TransformerView::reset);
    connect(controls_->ghostButton(), &QPushButton::clicked, this, &TransformerView::keepGhost);
    connect(controls_->clearGhostsButton(), &QPushButton::clicked, this, &TransformerView::clearGhosts);
    connect(controls_, &TrainingControlBar::windowChanged, chart_, &TransformerLossChart::setWindow);
    chart_->setWindow(controls_->windowSlider()->value());

    frameTimer_ = new QTimer(this);
    frameTimer_->setInterval(kFrameMs);
    connect(frameTimer_, &QTimer::timeout, this, &TransformerView::pull);

    beginComputing([](TransformerLabResult &&r) {  // on the worker: the untrained maps coloured there
        TransformerPreview p;
        if (r.initial) p.maps = TransformerRun::makeFrame(*r.initial, r.task);
        p.sizes = std::move(r);
        return p;
    });
    updateButtons();
}

TransformerView::~TransformerView()
{
    frameTimer_->stop();
    run_.reset();
}

QPushButton *TransformerView::button(const QString &name) const
{
    return controls_->findChild<QPushButton *>(name);
}

bool TransformerView::isHeld() const
{
    return run_ && state_ == State::Paused && run_->isHeld();
}

int TransformerView::stepsDone() const
{
    return int(chart_->losses().size());
}

void TransformerView::draw(const TransformerPreview &preview)
{
    const TransformerLabResult &p = preview.sizes;
    if (state_ == State::Idle) {
        const int steps = int(values().integer("steps"));
        controls_->progressBar()->setRange(0, steps);
        controls_->progressBar()->setValue(0);
        // The empty loss chart spans the run Start would train (not an earlier run's length).
        if (stepsDone() == 0) chart_->setPlannedSteps(steps);
    }
    // Before a run (or after Reset) the maps show the untrained model of the current values.
    if (state_ == State::Idle) {
        if (preview.maps) {
            HeatmapGridData data = preview.maps->maps;
            data.title = tr("Attention before training (Start trains)");
            maps_->setData(std::move(data));
        } else {
            maps_->setData({});
        }
    }
    const QLocale locale;
    readouts()->setRow(QStringLiteral("params"), tr("Parameters"), locale.toString(p.params),
                       tr("101,632 at the reference's sizes (V 16, d 64, 2 layers, 4 heads); 118,144 with feedback"));
    readouts()->setRow(QStringLiteral("flops"), tr("Work per step"),
                       QStringLiteral("%1 MFLOP").arg(p.flopsPerStep / 1e6, 0, 'f', 0),
                       tr("Matrix products of one training step, forward and backward"));
    readouts()->setRow(QStringLiteral("memory"), tr("Training memory"),
                       QStringLiteral("%1 MB").arg(p.workspaceBytes / 1e6, 0, 'f', 1),
                       tr("Parameters, Adam, workspaces and batches"));
}

QString TransformerView::runLabel() const
{
    const TransformerConfig &c = config_;
    QString label = QStringLiteral("%1, %2").arg(QString::fromStdString(positionalSchemeName(c.pos)),
                                                 QString::fromStdString(transformerTaskName(c.task)));
    if (c.feedback == FeedbackMode::KPass) label += QStringLiteral(", k = %1").arg(c.passes);
    else if (c.feedback == FeedbackMode::Exact) label += QStringLiteral(", exact feedback");
    if (c.embedScale) label += QStringLiteral(", √d scale");
    return label + QStringLiteral(", seed %1").arg(c.seed);
}

void TransformerView::start()
{
    if (state_ == State::Running || state_ == State::Paused || state_ == State::Stopping) return;
    TransformerConfig c;
    if (const std::string err = transformerFrom(values(), c); !err.empty()) {
        readouts()->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>")
                                .arg(QString::fromStdString(err).toHtmlEscaped()));
        return;
    }
    run_.reset();
    config_ = std::move(c);
    config_.probeEvery = 0;         // snapshots by time only:
    config_.probeSeconds = 0.08;    // about 12 a second, whatever the model's speed
    result_.reset();
    framesShown_ = 0;
    lastFrameStep_ = -1;
    gateMean_ = heldout_ = repeat_ = bestScore_ = TransformerSnapshot::nan;
    heldoutStep_ = -1;
    ghostKept_ = false;
    const bool induction = config_.task == TransformerTask::Induction || config_.task == TransformerTask::InductionFixed;
    const int V = transformerVocabulary(config_);
    chart_->startRun(config_.steps, std::log(double(std::max(V, 2))), induction);
    lengths_->clearRows();
    sample_->setVisible(config_.task == TransformerTask::Text);
    sample_->clear();
    readouts()->setNote(QString());
    run_ = std::make_unique<TransformerRun>(config_);
    state_ = State::Running;
    frameTimer_->start();
    updateLive();
    updateButtons();
}

void TransformerView::pause()
{
    if (state_ != State::Running) return;
    run_->setPaused(true);
    state_ = State::Paused;
    updateButtons();
}

void TransformerView::resume()
{
    if (state_ != State::Paused) return;
    run_->setPaused(false);
    state_ = State::Running;
    updateButtons();
}

void TransformerView::stop()
{
    if (state_ != State::Running && state_ != State::Paused) return;
    run_->cancel();
    state_ = State::Stopping;
    updateButtons();
}

void TransformerView::reset()
{
    frameTimer_->stop();
    run_.reset();
    result_.reset();
    state_ = State::Idle;
    chart_->startRun(config_.steps > 0 ? config_.steps : 1500, std::log(16.0), false);
    lengths_->clearRows();
    maps_->setData({});
    recompute();  // the untrained maps again
    sample_->clear();
    readouts()->setNote(QString());
    framesShown_ = 0;
    lastFrameStep_ = -1;
    gateMean_ = heldout_ = repeat_ = bestScore_ = TransformerSnapshot::nan;
    updateLive();
    updateButtons();
}

void TransformerView::keepGhost()
{
    if (state_ != State::Done || ghostKept_) return;
    chart_->addGhost(runLabel());
    ghostKept_ = true;
    updateButtons();
}

void TransformerView::clearGhosts()
{
    chart_->clearGhosts();
    updateButtons();
}

void TransformerView::pull()
{
    if (!run_) return;
    TransformerRun::Update u = run_->take();
    chart_->appendLosses(u.losses);
    if (u.frame) {
        const TransformerFrame &f = *u.frame;
        maps_->setData(f.maps);
        ++framesShown_;
        lastFrameStep_ = f.step;
        gateMean_ = f.gateMean;
        if (f.heldoutStep >= 0) {
            chart_->appendHeldout(f.heldoutStep, f.heldoutLoss, f.secondHalfLoss);
            heldout_ = f.heldoutLoss;
            repeat_ = f.secondHalfLoss;
            heldoutStep_ = f.heldoutStep;
        }
        bestScore_ = TransformerSnapshot::nan;
        for (const auto &layer : f.inductionScore)
            for (double s : layer)
                if (std::isfinite(s) && !(bestScore_ >= s)) bestScore_ = s;
        if (!f.sample.empty()) sample_->setText(tr("Sample at step %1: ").arg(f.step) + QString::fromStdString(f.sample).toHtmlEscaped());
    }
    if (u.result) {
        result_ = std::move(u.result);
        std::vector<int> steps;
        std::vector<double> loss, repeat;
        for (const auto &p : result_->heldoutCurve) {
            steps.push_back(p.step);
            loss.push_back(p.loss);
            repeat.push_back(p.secondHalfLoss);
        }
        if (steps.empty() || steps.back() < result_->stepsDone) {  // the final held-out figures
            steps.push_back(result_->stepsDone);
            loss.push_back(result_->heldoutLoss);
            repeat.push_back(result_->secondHalfLoss);
        }
        chart_->setHeldout(std::move(steps), std::move(loss), std::move(repeat));
        lengths_->setRows(result_->lengths,
                          config_.task == TransformerTask::Induction || config_.task == TransformerTask::InductionFixed);
        if (!result_->message.empty()) readouts()->setNote(QString::fromStdString(result_->message).toHtmlEscaped());
    } else if (!u.error.empty()) {
        readouts()->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>")
                                .arg(QString::fromStdString(u.error).toHtmlEscaped()));
    }
    updateLive();
    if (state_ != State::Done && run_->ended() && (result_ || !u.error.empty())) finishRun();
}

void TransformerView::finishRun()
{
    frameTimer_->stop();
    run_->join();
    state_ = State::Done;
    updateButtons();
    Q_EMIT resultShown();
}

void TransformerView::waitForResult()
{
    LabView::waitForResult();
    if (state_ == State::Idle) start();
    if (run_ && (state_ == State::Running || state_ == State::Stopping)) run_->join();
    pull();
}

void TransformerView::setPresentationScale(double scale)
{
    LabView::setPresentationScale(scale);
    chart_->setFontScale(scale);
    maps_->setFontScale(scale);
}

void TransformerView::updateButtons()
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

void TransformerView::updateLive()
{
    const int total = std::max(1, config_.steps);
    controls_->progressBar()->setRange(0, total);
    controls_->progressBar()->setValue(std::min(total, stepsDone()));
    const std::vector<double> &losses = chart_->losses();
    const std::size_t n = std::min<std::size_t>(losses.size(), std::size_t(chart_->window()));
    double sum = 0.0;
    for (std::size_t i = losses.size() - n; i < losses.size(); ++i) sum += losses[i];
    readouts()->setRow(QStringLiteral("live"), tr("Training loss now"), n ? nats(sum / double(n)) : QStringLiteral("—"),
                       tr("Mean over the smoothing window"));
    const bool finalFigures = result_.has_value();
    const double held = finalFigures ? result_->heldoutLoss : heldout_;
    const double rep = finalFigures ? result_->secondHalfLoss : repeat_;
    readouts()->setRow(QStringLiteral("heldout"), tr("Held-out loss"),
                       nats(held) + (heldoutStep_ >= 0 && !finalFigures ? tr(" (step %1)").arg(heldoutStep_) : QString()),
                       tr("Mean cross entropy on held-out sequences"));
    readouts()->setRow(QStringLiteral("repeat"), tr("Held-out loss on the repeat"), nats(rep),
                       tr("Induction tasks: the predictions an induction head can make (ideal 0)"));
    const double best = finalFigures ? bestInductionScore(*result_) : bestScore_;
    readouts()->setRow(QStringLiteral("induction"), tr("Best induction score"),
                       std::isfinite(best) ? QString::number(best, 'f', 3) : QStringLiteral("—"),
                       tr("Mean attention of a query in the repeat on the token after its earlier occurrence"));
    readouts()->setRow(QStringLiteral("gate"), tr("Feedback gate mean"),
                       std::isfinite(gateMean_) ? QString::number(gateMean_, 'f', 3) : QStringLiteral("—"),
                       tr("Mean of σ(W_b u + b_b) on the probe sequence (218.6.2); only with feedback"));
    QString speed = QStringLiteral("—");
    if (finalFigures && result_->msPerStep > 0)
        speed = QStringLiteral("%1 ms/step · %2 GFLOP/s").arg(result_->msPerStep, 0, 'f', 2)
                    .arg(result_->flopsPerStep / (result_->msPerStep * 1e6), 0, 'f', 1);
    readouts()->setRow(QStringLiteral("speed"), tr("Speed"), speed, tr("Training steps only, one thread"));
}

} // namespace fb
