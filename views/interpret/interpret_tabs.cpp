#include "views/interpret/interpret_tabs.h"

#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/offset_profile_chart.h"
#include "views/interpret/replay_bar.h"
#include "views/interpret/state_page.h"
#include "views/interpret/value_grid.h"
#include "views/widgets/heatmap_grid.h"

#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QTabBar>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fb {

InterpretTabs::InterpretTabs(HeatmapGrid *maps, QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
    maps_ = maps;
    addTab(maps, tr("Attention"));
    ablation_ = new HeadAblationPanel;
    ablation_->watchMaps(maps);
    connect(ablation_, &HeadAblationPanel::figuresChanged, this, &InterpretTabs::markHeadsOff);
    addTab(ablation_, tr("Heads"));
    lens_ = new ValueGrid;
    addTab(lens_, tr("Logit lens"));
    offsets_ = new OffsetProfileChart;
    addTab(offsets_, tr("Offsets"));
    states_ = new StatePage;
    addTab(states_, tr("States"));
    // Beside the tabs: the offsets' head (on that page only) and the replay slider.
    auto *corner = new QWidget;
    auto *row = new QHBoxLayout(corner);
    row->setContentsMargins(0, 0, 0, 0);
    head_ = new QComboBox;
    head_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    head_->setMinimumContentsLength(6);  // "L8 H16": the row's width does not wait for the names
    head_->setToolTip(tr("The head whose offset profile is drawn"));
    row->addWidget(head_);
    layer_ = new QComboBox;
    layer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // short entries ("L2", as the maps' titles name heads): the row beside the tabs is narrow on a slide
    layer_->setToolTip(tr("The layer whose heads the maps show: every layer (all), or one layer's heads drawn large"));
    layer_->addItem(tr("all"));
    row->addWidget(layer_);
    row->addWidget(states_->controls(), 1);  // the states' Play and position, on their page only
    replay_ = new ReplayBar;
    row->addWidget(replay_, 1);
    setCornerWidget(corner, Qt::TopRightCorner);
    tabBar()->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 2px 12px; }"));  // a low row
    head_->setVisible(false);
    connect(this, &QTabWidget::currentChanged, this, [this](int page) {
        head_->setVisible(widget(page) == offsets_);
        showLayerChoice();
        // The states are the newest frame's only: their page shows the run live, without the replay.
        const bool states = widget(page) == states_;
        states_->controls()->setVisible(states);
        replay_->setVisible(!states);
        if (states) replay_->slider()->setValue(replay_->slider()->maximum());
        else states_->stop();
    });
    connect(head_, &QComboBox::currentIndexChanged, this, &InterpretTabs::showHead);
    connect(layer_, &QComboBox::activated, this, [this](int index) { setMapsLayer(index); });
    applyLayer();
    clear();
}

void InterpretTabs::clear()
{
    mapsGiven_ = {};
    setCurrentIndex(pinned_ && pinned_ != states_ ? indexOf(pinned_) : 0);
    tabBar()->setVisible(false);  // no run: the maps alone
    cornerWidget()->setVisible(false);
    fitRow();
    ablation_->clear();
    replay_->clear();
    newestStates_ = nullptr;
    states_->clear();
    setTabVisible(indexOf(states_), false);
    ValueGridData d;
    d.title = tr("Loss read after each layer: after a run");
    d.message = tr("Start a run: when it ends, the held-out loss read through the final LayerNorm after each "
                   "layer, at every position, appears here.");
    lens_->setData(std::move(d));
    profile_.clear();
    pairs_.clear();
    bound_.clear();
    heads_ = 0;
    {
        const QSignalBlocker block(head_);
        head_->clear();
    }
    head_->setEnabled(false);
    offsets_->clearHead();
}

void InterpretTabs::recordFrame(std::shared_ptr<const TransformerFrame> frame)
{
    // Every frame of the run passes here, also while the replay holds an earlier one: the newest
    // states are taken before the replay drops them (a frame whose states were dropped keeps them).
    if (frame && (frame->states || !frame->statesDropped)) {
        newestStates_ = frame->states;
        if (replay_->live() || currentWidget() == states_) states_->setStates(newestStates_);
        setTabVisible(indexOf(states_), newestStates_ != nullptr);
        if (newestStates_ && pinned_ == states_ && currentWidget() != states_) setCurrentWidget(states_);
    }
    if (frame && frame->snapshot) setModelShape(frame->snapshot->layers, frame->snapshot->heads);
    replay_->record(std::move(frame));
    if (tabBar()->isVisibleTo(this)) return;
    tabBar()->setVisible(true);
    cornerWidget()->setVisible(true);
    fitRow();
}

void InterpretTabs::showStates(const std::shared_ptr<const TransformerFrame> &frame, bool live)
{
    if (!frame) return;
    // The States page shows the run live (its tab hides the replay): a replay step moved there (a
    // click on the loss chart, a slide's "replay") leaves it on the newest states.
    if (live || currentWidget() == states_)
        states_->setStates(newestStates_);
    else
        states_->setStates(frame->states, tr("The replay keeps the states of its newest frame only: move the "
                                             "replay to its right end (live)"));
}

QStringList InterpretTabs::pageNames()
{
    return { QStringLiteral("attention"), QStringLiteral("heads"), QStringLiteral("logit-lens"),
             QStringLiteral("offsets"), QStringLiteral("states") };
}

bool InterpretTabs::setPage(const QString &name)
{
    const qsizetype i = pageNames().indexOf(name);
    if (i < 0) return false;
    QWidget *pages[] = { maps_, ablation_, lens_, offsets_, states_ };
    pinned_ = pages[i];
    if (pinned_ != states_ || isTabVisible(indexOf(states_))) setCurrentWidget(pinned_);
    return true;
}

QString InterpretTabs::pageName() const
{
    const QWidget *pages[] = { maps_, ablation_, lens_, offsets_, states_ };
    for (int i = 0; i < 5; ++i)
        if (currentWidget() == pages[i]) return pageNames().at(i);
    return pageNames().at(0);
}

QString InterpretTabs::mapsLayerFrom(const QJsonValue &value, int &layer)
{
    if (value.isUndefined()) {
        layer = 0;
        return {};
    }
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || number != std::floor(number) || number < 0 || number > kMostLayers)
        return tr("extra.maps_layer must be a whole number from 0 (every layer) to %1").arg(kMostLayers);
    layer = int(number);
    return {};
}

bool InterpretTabs::setMapsLayer(int layer)
{
    if (layer < 0 || layer > kMostLayers) return false;
    mapsLayer_ = layer;
    applyLayer();
    return true;
}

void InterpretTabs::setModelShape(int layers, int heads)
{
    if (layers == shapeLayers_ && heads == shapeHeads_) return;
    shapeLayers_ = layers;
    shapeHeads_ = heads;
    const QSignalBlocker block(layer_);
    layer_->clear();
    layer_->addItem(tr("all"));
    for (int l = 1; l <= std::min(layers, kMostLayers); ++l) layer_->addItem(tr("L%1").arg(l));
    applyLayer();
}

void InterpretTabs::applyLayer()
{
    const bool one = mapsLayer_ > 0 && mapsLayer_ <= shapeLayers_ && shapeHeads_ > 0;
    maps_->setShownPanels(one ? (mapsLayer_ - 1) * shapeHeads_ : 0, one ? shapeHeads_ : 0);
    const QSignalBlocker block(layer_);
    layer_->setCurrentIndex(one ? mapsLayer_ : 0);
    showLayerChoice();
}

void InterpretTabs::showLayerChoice()
{
    layer_->setVisible(currentWidget() == maps_ && shapeLayers_ > 1);
}

void InterpretTabs::showMaps(const HeatmapGridData &maps)
{
    mapsGiven_ = maps;
    markHeadsOff();
}

void InterpretTabs::markHeadsOff()
{
    if (ablation_->heads().empty() && mapsGiven_.images.isEmpty()) return;  // nothing of a run to mark
    HeatmapGridData data = mapsGiven_;
    for (const HeadId &id : ablation_->heads()) {
        const qsizetype panel = qsizetype(id.layer) * heads_ + id.head;
        for (QList<QImage> *images : { &data.images, &data.logImages })
            if (panel < images->size())
                (*images)[panel] = (*images)[panel].convertToFormat(QImage::Format_Grayscale8).convertToFormat(QImage::Format_RGB32);
    }
    maps_->setData(std::move(data));
}

void InterpretTabs::setResult(const TransformerResult &r)
{
    mapsGiven_ = maps_->data();  // the final frame's, drawn before the result arrived
    tabBar()->setVisible(true);
    cornerWidget()->setVisible(true);
    ablation_->setResult(r);

    ValueGridData d;
    const std::size_t L = r.logitLensPositions.size();
    const std::size_t P = L ? r.logitLensPositions[0].size() : 0;
    d.title = tr("Held-out loss read after each layer, by position (nats)");
    d.rowTitle = tr("after layer");
    d.columnTitle = tr("position");
    double hi = 0.0;
    d.values = r.logitLensPositions;
    d.lines.assign(L, std::vector<QStringList>(P));
    d.tips.assign(L, std::vector<QString>(P));
    for (std::size_t l = 0; l < L; ++l) {
        d.rowLabels << tr("after L%1").arg(l + 1);
        for (std::size_t t = 0; t < P; ++t) {
            const double v = r.logitLensPositions[l][t];
            if (std::isfinite(v)) hi = std::max(hi, v);
            d.lines[l][t] << QString::number(v, 'f', 1);
            d.tips[l][t] = tr("Read after layer %1 at position %2 (predicting token %3): %4 nats; the model's own "
                              "readout is the last layer").arg(l + 1).arg(t).arg(t + 1).arg(v, 0, 'f', 3);
        }
    }
    for (std::size_t t = 0; t < P; ++t) d.columnLabels << QString::number(t);
    d.low = 0.0;
    d.high = std::max(hi, 1e-3);
    d.lowLabel = QStringLiteral("0");
    d.highLabel = QString::number(d.high, 'f', 2);
    d.valueTitle = tr("loss (nats), mean over held-out sequences");
    if (L == 0) d.title = tr("Loss read after each layer: not computed for this run");
    lens_->setData(std::move(d));

    profile_ = r.offsetProfile;
    pairs_ = r.offsetPairs;
    bound_ = r.offsetDecayBoundScaled;
    heads_ = r.model ? r.model->config.heads : 0;
    if (r.model) setModelShape(r.model->config.layers, r.model->config.heads);
    {
        const QSignalBlocker block(head_);
        const int was = head_->currentIndex();
        head_->clear();
        for (std::size_t l = 0; l < profile_.size(); ++l)
            for (std::size_t h = 0; h < profile_[l].size(); ++h)
                head_->addItem(QStringLiteral("L%1 H%2").arg(l + 1).arg(h + 1));
        // A new run's first choice: the best induction head (the one a lecture asks about), else L1 H1.
        int first = 0;
        double best = -1.0;
        for (std::size_t l = 0; l < r.inductionScore.size(); ++l)
            for (std::size_t h = 0; h < r.inductionScore[l].size(); ++h)
                if (std::isfinite(r.inductionScore[l][h]) && r.inductionScore[l][h] > best) {
                    best = r.inductionScore[l][h];
                    first = int(l) * std::max(heads_, 1) + int(h);
                }
        if (head_->count()) head_->setCurrentIndex(std::clamp(was >= 0 ? was : first, 0, head_->count() - 1));
    }
    head_->setEnabled(head_->count() > 0);
    showHead(head_->currentIndex());
}

void InterpretTabs::showHead(int index)
{
    if (index < 0 || heads_ <= 0) {
        offsets_->clearHead();
        return;
    }
    const std::size_t l = std::size_t(index / heads_), h = std::size_t(index % heads_);
    if (l >= profile_.size() || h >= profile_[l].size()) {
        offsets_->clearHead();
        return;
    }
    static const std::vector<std::vector<double>> none;
    static const std::vector<double> noBound;
    const auto &pairs = l < pairs_.size() && h < pairs_[l].size() ? pairs_[l][h] : none;
    const auto &bound = l < bound_.size() && h < bound_[l].size() ? bound_[l][h] : noBound;
    offsets_->setHead(head_->itemText(index), profile_[l][h], pairs, bound);
}

void InterpretTabs::setFontScale(double scale)
{
    ablation_->setFontScale(scale);
    lens_->setFontScale(scale);
    states_->setFontScale(scale);
    fontScale_ = scale;
    fitRow();
}

void InterpretTabs::fitRow()
{
    // In lecture mode the tabs and the corner are set at up to 1.15 times the usual size (the
    // application's font out of lecture mode) where the row's width holds them (a slide without its
    // parameters), else at the largest of 1, 0.9 and 0.8 times that does: the row costs the
    // charts below as little height as it can, and needs scroll arrows only where even 0.8 does not fit.
    if (fontScale_ <= 1.0) usualFont_ = QApplication::font();
    const auto apply = [this](const QFont &f) {
        if (tabBar()->font() == f) return;
        tabBar()->setFont(f);
        for (QWidget *w : cornerWidget()->findChildren<QWidget *>()) w->setFont(f);
        // the tab bar and the corner placed for their new sizes now, not at the next event loop
        QEvent layout(QEvent::LayoutRequest);
        QCoreApplication::sendEvent(this, &layout);
    };
    if (fontScale_ <= 1.0) {
        apply(usualFont_);
        return;
    }
    for (const double scale : { kLectureRowScale, 1.0, 0.9, 0.8 }) {
        if (scale > fontScale_) continue;
        QFont f = usualFont_;
        f.setPointSizeF(usualFont_.pointSizeF() * scale);
        apply(f);
        // the widest corner any page shows: the offsets' head or the maps' layer (never both), and
        // the replay or the states' controls (the head's chooser is as wide as "L8 H16" before a run
        // has named the heads, and the replay's label as "step 100,000" while it says "live": the
        // row's font does not change when a slide's run ends or the replay moves)
        const int spacing = std::max(0, cornerWidget()->layout()->spacing());
        const int corner = std::max(head_->sizeHint().width(), layer_->sizeHint().width()) + 2 * spacing
            + std::max(replay_->sizeHint().width(), states_->controls()->sizeHint().width());
        if (tabBar()->sizeHint().width() + corner + 24 <= width()) return;
    }
}

void InterpretTabs::resizeEvent(QResizeEvent *event)
{
    QTabWidget::resizeEvent(event);
    if (fontScale_ > 1.0 && event->size().width() != event->oldSize().width()) fitRow();
}

} // namespace fb
