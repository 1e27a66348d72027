#include "views/training/transformer_view.h"
#include "views/training/transformer_explanation.h"

#include "views/compare/compare_chart.h"
#include "views/compare/compare_panel.h"

#include "core/transformer/transformer_json.h"
#include "views/widgets/heatmap_grid.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/offset_profile_chart.h"
#include "views/interpret/replay_bar.h"
#include "views/interpret/state_page.h"
#include "views/interpret/value_grid.h"
#include "views/training/length_table.h"
#include "views/widgets/readout_panel.h"
#include "views/training/training_control_bar.h"
#include "views/training/transformer_loss_chart.h"
#include "views/training/transformer_run.h"
#include "core/labs/transformer_spec.h"
#include "views/writing/text_task_link.h"
#include "views/writing/writing_panel.h"
#include "views/writing/writing_tabs.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace fb {

TransformerView::TransformerView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    chart_ = new TransformerLossChart;
    maps_ = new HeatmapGrid;
    maps_->setExportTitle(tr("Transformer attention maps"));
    lengths_ = new LengthTable;
    lengths_->setMinimumHeight(90);
    lengths_->clearRows();  // shown once a run has filled it
    // The column of controls, maps, curves and table fits a 1280 x 720 screen: the charts may be
    // shorter than a chart's usual minimum.
    maps_->setMinimumHeight(250);  // the heads stay readable, also with the explanation open
    chart_->setMinimumHeight(195);  // 170 cut the step labels to "..." (the explanation open and tall)

    // The maps above, the curves and the length table side by side below, with more of the height:
    // on a 1024 x 768 projector the loss curves keep a readable plot.
    interpret_ = new InterpretTabs(maps_);  // the maps' page, and the trained model taken apart
    connect(interpret_->ablation(), &HeadAblationPanel::figuresChanged, this, [this] { updateLive(); });
    connect(interpret_->replay(), &ReplayBar::frameChosen, this, [this](const std::shared_ptr<const TransformerFrame> &frame, bool live) {
        interpret_->showMaps(frame->maps);
        interpret_->showStates(frame, live);
        chart_->setReplayStep(live ? -1 : frame->step);
        readouts()->setRow(QStringLiteral("replay"), tr("Replay"), live ? tr("live") : ReplayBar::describe(*frame),
                           tr("The step slider beside the maps' tabs: the run as it was at that step"));
    });
    writing_ = new WritingPanel;
    tabs_ = new WritingTabs(interpret_, writing_);  // the maps and their tabs, or the writing
    frames_ = std::make_unique<TransformerRunFrames>(chart_, maps_, interpret_, lengths_, writing_, tabs_, readouts());
    addChart(tabs_, maps_, 1);
    auto *belowBox = new QWidget;  // hidden while the writing tab is shown: the writing takes the height
    auto *below = new QHBoxLayout(belowBox);
    below->setContentsMargins(0, 0, 0, 0);
    below->addWidget(chart_, 2);  // two thirds: room for the legend beside the curves on a slide
    below->addWidget(lengths_, 1);
    registerExportable(chart_);
    // The model taken apart, for slides too: the heads' ablation grid, the logit lens, the offsets.
    registerExportable(interpret_->ablation()->grid());
    registerExportable(interpret_->lens());
    registerExportable(interpret_->offsets());
    chartArea()->addWidget(belowBox, 1);
    belowBox_ = belowBox;
    connect(tabs_, &QTabWidget::currentChanged, belowBox,
            [this, belowBox](int tab) { belowBox->setVisible(tab == 0 && !compare_->isVisibleTo(this)); });
    // Comparison mode: the panel takes the place of the maps and the curves.
    compare_ = new ComparePanel([this](TransformerConfig &c) { return transformerFrom(values(), c); });
    compare_->setVisible(false);
    chartArea()->addWidget(compare_, 1);
    compareChartIndex_ = int(exportables().size());
    registerExportable(compare_->lossChart());
    registerExportable(compare_->accuracyChart());
    registerExportable(interpret_->states()->grid());  // after the comparison's: decks name charts by index
    registerExportable(compare_->recallChart());
    connect(compare_, &ComparePanel::startRequested, this, [this] { start(); });
    compareToggle_ = new QPushButton(tr("Compare mode"));
    compareToggle_->setObjectName(QStringLiteral("compareMode"));
    compareToggle_->setCheckable(true);
    compareToggle_->setToolTip(tr("Train up to five variants of these values side by side (kv_heads=1, "
                                  "attn_gate=on, window=8 ...) and compare their curves, sizes and figures"));
    connect(compareToggle_, &QPushButton::toggled, this, [this](bool on) { setCompareMode(on); });
    controls()->addButton(compareToggle_);
    connect(this, &TrainingLabView::stateChanged, this, [this] { updateModeButtons(); });
    linkTextTask(panel());
    connect(writing_, &WritingPanel::sentenceMaps, this,
            [this](std::shared_ptr<const TransformerFrame> f) { frames_->showSentence(*f); });

    chart_->setWindow(controls()->windowSlider()->value());

    beginComputing([](TransformerLabResult &&r) {  // on the worker: the untrained maps coloured there
        TransformerPreview p;
        if (r.initial) p.maps = TransformerRun::makeFrame(*r.initial, r.task);
        p.sizes = std::move(r);
        return p;
    });
    updateButtons();
}

TransformerView::~TransformerView() = default;  // the run abandons and joins

void TransformerView::setCompareMode(bool on)
{
    if (compareToggle_->isChecked() != on) compareToggle_->setChecked(on);  // calls back once
    compare_->setVisible(on);
    tabs_->setVisible(!on);
    belowBox_->setVisible(!on && tabs_->currentIndex() == 0);
    controls()->startButton()->setToolTip(on ? tr("Trains the configurations below side by side")
                                             : expected_.isEmpty() ? QString() : tr("Trains for %1").arg(expected_));
    // After a comparison the one model's view shows its own run if it has one (the comparison does
    // not touch it), else the untrained model of the values; the comparison stays for compare mode.
    if (state() == State::Done && !on && comparing_ && !run_) recompute();
    updateProgress();
    updateModeButtons();
}

bool TransformerView::compareMode() const
{
    return compareToggle_->isChecked();
}

void TransformerView::updateModeButtons()
{
    const bool active = state() == State::Running || state() == State::Paused || state() == State::Stopping;
    compareToggle_->setEnabled(!active);
    compareToggle_->setToolTip(active ? tr("Stop or reset the run to switch between one model and the comparison")
                                      : tr("Train up to five variants of these values side by side (kv_heads=1, "
                                           "attn_gate=on, window=8 ...) and compare their curves, sizes and figures"));
    // A comparison keeps no ghost curves: its chart shows every configuration already.
    controls()->ghostButton()->setVisible(!compareMode());
    controls()->clearGhostsButton()->setVisible(!compareMode());
}

QString TransformerView::startTraining()
{
    if (state() == State::Running || state() == State::Paused || state() == State::Stopping)
        return tr("a training is already running");
    start();
    if (state() == State::Running) return {};
    const QString note = compareMode() ? compare_->status()->text() : QString();
    return note.isEmpty() ? tr("the values cannot be trained") : note;
}

int TransformerView::replaySteps() const
{
    if (comparing_ && compareMode() && state() != State::Idle) return compare_->longestRun();
    if (state() != State::Idle && config_.steps > 0) return config_.steps;
    return int(values().integer("steps"));
}

void TransformerView::showStep(int step)
{
    if (state() != State::Done) return;
    if (comparing_ && compareMode()) {
        compare_->showStep(step);
        return;
    }
    if (!frames_->result()) return;
    frames_->showStep(std::clamp(step, 0, replaySteps()), config_, runMaxLoss_);
}

void TransformerView::setRunPaused(bool paused)
{
    if (comparing_) compare_->setPaused(paused);
    else if (run_) run_->setPaused(paused);
}

bool TransformerView::runHeld() const
{
    return comparing_ ? compare_->held() : run_ && run_->isHeld();
}

void TransformerView::cancelRun()
{
    if (comparing_) compare_->stop();
    else if (run_) run_->cancel();
}

void TransformerView::joinRun()
{
    if (comparing_) compare_->join();
    else if (run_) run_->join();
}

QJsonObject TransformerView::extraState() const
{
    QJsonObject o;
    if (const QString page = interpret_->pageName(); page != InterpretTabs::pageNames().constFirst())
        o.insert(QStringLiteral("page"), page);
    if (interpret_->mapsLayer() > 0) o.insert(QStringLiteral("maps_layer"), interpret_->mapsLayer());
    if (!compareToggle_->isChecked()) return o;
    QJsonArray lines;
    for (int i = 0; i < kMaxCompareConfigs; ++i) lines.append(compare_->line(i)->text());
    o.insert(QStringLiteral("compare"), lines);
    return o;
}

QString TransformerView::setExtraState(const QJsonObject &state)
{
    const QJsonValue value = state.value(QStringLiteral("compare"));
    QStringList lines;
    if (!value.isUndefined()) {
        const QJsonArray array = value.toArray();
        bool ok = value.isArray() && !array.isEmpty() && array.size() <= kMaxCompareConfigs;
        for (const QJsonValue &line : array) {
            ok = ok && line.isString() && line.toString().size() <= 1000;
            lines << line.toString();
        }
        if (!ok)
            return tr("extra.compare must be a list of 1 to %1 configurations (text of at most 1000 characters each)")
                .arg(kMaxCompareConfigs);
    }
    const QJsonValue page = state.value(QStringLiteral("page"));
    if (!page.isUndefined() && !InterpretTabs::pageNames().contains(page.toString()))
        return tr("extra.page must be one of %1").arg(InterpretTabs::pageNames().join(QStringLiteral(", ")));
    int layer = 0;
    if (QString err = InterpretTabs::mapsLayerFrom(state.value(QStringLiteral("maps_layer")), layer); !err.isEmpty())
        return err;
    if (QString err = TrainingLabView::setExtraState(state); !err.isEmpty()) return err;
    interpret_->setPage(page.isUndefined() ? InterpretTabs::pageNames().constFirst() : page.toString());
    interpret_->setMapsLayer(layer);
    // The slide shows what it says: a run of the other mode, or a comparison of other lines, is cleared.
    bool sameLines = true;
    for (int i = 0; i < kMaxCompareConfigs; ++i)
        sameLines = sameLines && compare_->line(i)->text() == (i < lines.size() ? lines[i] : QString());
    if (TrainingLabView::state() != State::Idle && (compareMode() != !lines.isEmpty() || (comparing_ && !sameLines))) reset();
    if (!lines.isEmpty())
        for (int i = 0; i < kMaxCompareConfigs; ++i) {
            compare_->line(i)->setText(i < lines.size() ? lines[i] : QString());
            compare_->line(i)->setCursorPosition(0);  // a line narrower than its text shows how it begins
        }
    compare_->showCurves();  // a slide shows the comparison's curves, not the maps a row was clicked for
    setCompareMode(!lines.isEmpty());
    return {};
}

int TransformerView::stepsDone() const
{
    if (comparing_ && compareMode() && state() != State::Idle) return compare_->stepsDone();
    return int(chart_->losses().size());
}

int TransformerView::stepsTotal() const
{
    if (comparing_ && compareMode() && state() != State::Idle) return compare_->stepsTotal();
    return state() == State::Idle || !run_ ? int(values().integer("steps")) : std::max(1, config_.steps);
}

void TransformerView::draw(const TransformerPreview &preview)
{
    const TransformerLabResult &p = preview.sizes;
    valuesShown();  // a run of other values than these is cleared
    tabs_->setTextTask(p.task == TransformerTask::Text || writing_->model());
    compare_->expectAnswers(transformerHasAnswers(p.task));
    // No model of its own trained yet (before a run, after Reset, after a comparison): the untrained one.
    if (state() == State::Idle || (!run_ && !compareMode())) {
        updateProgress();
        // The empty loss chart spans the run Start would train (not an earlier run's length).
        if (stepsDone() == 0) chart_->setPlannedSteps(int(values().integer("steps")));
        // Before a run (or after Reset) the maps show the untrained model of the current values (of
        // their shape: a layer chosen for the maps is that model's layer, not an earlier run's)
        interpret_->setModelShape(preview.maps && preview.maps->snapshot ? preview.maps->snapshot->layers : 0,
                                  preview.maps && preview.maps->snapshot ? preview.maps->snapshot->heads : 0);
        if (preview.maps) {
            HeatmapGridData data = preview.maps->maps;
            data.title = tr("Attention before training (Start trains)");
            maps_->setData(std::move(data));
        } else if (p.workspaceBytes > kTransformerPreviewBytes) {
            // no untrained model is built above the preview's memory: say so, not "Computing…"
            HeatmapGridData data;
            data.title = tr("The maps appear once training starts (Start): the untrained model is not drawn "
                            "when training needs over %1 MB, and this one needs %2 MB")
                             .arg(kTransformerPreviewBytes / 1e6, 0, 'f', 0)
                             .arg(p.workspaceBytes / 1e6, 0, 'f', 0);
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
    // How long Start will train, beside Start (the run's own progress bar says the time left).
    expected_ = QString::fromStdString(p.expected);
    if (state() == State::Idle && !compareMode())
        controls()->startButton()->setToolTip(expected_.isEmpty() ? QString() : tr("Trains for %1").arg(expected_));
    readouts()->setRow(QStringLiteral("expected"), tr("Expected time"), plannedText(),
                       tr("Steps × work per step over this machine's measured speed: a lower estimate"));
    if (state() == State::Idle) updateProgress();
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

QString TransformerView::beginRun()
{
    if (compareMode() && !saved_) {
        // The comparison trains beside the single model's run, which stays as it ended.
        const QString err = compare_->startCompare();
        if (err.isEmpty()) comparing_ = true;  // beside the opened model's run, which stays
        return err;
    }
    comparing_ = false;
    TransformerConfig c;
    const std::shared_ptr<SavedModel> saved = std::exchange(saved_, nullptr);
    if (saved) c = saved->model.config;
    else if (const std::string err = transformerFrom(values(), c); !err.empty()) return QString::fromStdString(err);
    openedModel_.clear();  // a new run (openSaved names its file again once it is under way)
    run_.reset();
    config_ = std::move(c);
    config_.probeEvery = config_.evalEvery;  // a snapshot at every held-out evaluation (a short run's
    config_.probeSeconds = 0.08;             // replay too) and about 12 a second, whatever the speed
    config_.snapshotWeights = true;  // the writing panel writes with the newest
    frames_->clear();
    const int V = saved ? saved->run.vocab : transformerVocabulary(config_);
    runMaxLoss_ = std::log(double(std::max(V, 2)));
    chart_->startRun(config_.steps, runMaxLoss_, transformerHasRepeat(config_.task));
    // the table's rows wait for their numbers in its place: the loss curves beside keep their width
    // when the run ends
    lengths_->setRows(transformerLengthRows(config_), transformerHasRepeat(config_.task));
    interpret_->clear();
    writing_->setModel(nullptr, {});
    run_ = saved ? std::make_unique<TransformerRun>(std::move(*saved))
                 : std::make_unique<TransformerRun>(config_, controls()->pace());
    return {};
}

void TransformerView::openSaved(SavedModel saved, const QString &path, const std::string &textPath)
{
    if (state() != State::Idle) reset();
    setCompareMode(false);  // the model's own maps and curves, not the comparison's panel
    // A model file keeps no text: the text file given, or the one this window knows, if the rules
    // take it; otherwise the panel shows the model's values with its text file empty, and training
    // asks for the file.
    const TransformerConfig &config = saved.model.config;
    const std::string text = textPath.empty() ? values().text("text") : textPath;
    QString note;
    if (const QString refused = setValues(transformerValues(config, text)); !refused.isEmpty()) {
        if (const QString err = setValuesWithoutRules(transformerValues(config, std::string())); !err.isEmpty())
            note = tr(" Its settings cannot be shown here: %1").arg(err.toHtmlEscaped());
        else if (config.task == TransformerTask::Text)
            note = tr(" To train it again choose its text file.");
        else
            note = tr(" To train it again: %1").arg(refused.toHtmlEscaped());
    }
    saved_ = std::make_shared<SavedModel>(std::move(saved));
    start();
    openedModel_ = path;
    readouts()->setNote(tr("Opened %1.").arg(QFileInfo(path).fileName().toHtmlEscaped()) + note);
}

void TransformerView::holdReplayAt(int step)
{
    frames_->holdReplayAt(step);
}

std::optional<SavedModel> TransformerView::modelToSave() const
{
    return frames_->modelToSave();
}

void TransformerView::clearRun(bool keepHistory)
{
    (void)keepHistory;  // the lab lists no runs but its ghosts
    openedModel_.clear();
    run_.reset();  // abandons and joins: at most one training step
    compare_->clear();
    comparing_ = false;
    frames_->clear();
    chart_->startRun(config_.steps > 0 ? config_.steps : 1500, std::log(16.0), false);
    lengths_->clearRows();
    interpret_->clear();
    maps_->setData({});
    writing_->setModel(nullptr, {});
    recompute();  // the untrained maps of the current values again
}

void TransformerView::setRunPace(double stepsPerSecond)
{
    if (run_) run_->setPace(stepsPerSecond);
}

void TransformerView::setSmoothing(int window)
{
    chart_->setWindow(window);
}

void TransformerView::keepGhostCurves()
{
    chart_->addGhost(runLabel());
}

void TransformerView::clearGhostCurves()
{
    chart_->clearGhosts();
}

int TransformerView::ghostCount() const
{
    return chart_->ghostCount();
}

bool TransformerView::pullRun()
{
    if (comparing_) return compare_->pull();
    if (!run_) return true;
    return frames_->pull(*run_, config_.task);
}

void TransformerView::setPresentationScale(double scale)
{
    TrainingLabView::setPresentationScale(scale);
    chart_->setFontScale(scale);
    maps_->setFontScale(scale);
    interpret_->setFontScale(scale);
    writing_->setFontScale(scale);
    compare_->setFontScale(scale);
}

void TransformerView::updateLive()
{
    frames_->showFigures(windowMean(chart_->losses(), chart_->window()));
}

QString TransformerView::explanationText()
{
    return transformerExplanation();
}

} // namespace fb
