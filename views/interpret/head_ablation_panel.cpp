#include "views/interpret/head_ablation_panel.h"

#include "views/interpret/value_grid.h"
#include "views/widgets/flow_layout.h"
#include "views/widgets/heatmap_grid.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>

namespace fb {

namespace {

enum Measure { LossIncrease, RepeatIncrease, PrevToken, Induction, Composition, SinkShare };

QString num(double v, int digits = 2)
{
    if (!std::isfinite(v)) return QStringLiteral("—");
    QString text = QString::number(v, 'f', digits);
    if (text.startsWith(QLatin1Char('-')) && text.count(QLatin1Char('0')) == text.size() - 2) text.remove(0, 1);  // "-0.000"
    return text.replace(QLatin1Char('-'), QStringLiteral("−"));
}

QString signedNum(double v)
{
    if (!std::isfinite(v)) return QStringLiteral("—");
    const QString text = QString::number(std::abs(v), 'f', 3);
    return (v < 0 && text != QStringLiteral("0.000") ? QStringLiteral("−") : QStringLiteral("+")) + text;
}

double at(const std::vector<std::vector<double>> &g, int l, int h)
{
    return std::size_t(l) < g.size() && std::size_t(h) < g[std::size_t(l)].size() ? g[std::size_t(l)][std::size_t(h)]
                                                                                   : std::nan("");
}

} // namespace

HeadAblationPanel::HeadAblationPanel(QWidget *parent)
    : QWidget(parent)
    , runner_(std::make_unique<LatestWinsRunner>(std::chrono::milliseconds(0)))
{
    grid_ = new ValueGrid;
    measure_ = new QComboBox;
    kind_ = new QComboBox;
    kind_->addItem(tr("Ablate to zero"));
    kind_->addItem(tr("Ablate to the mean"));
    kind_->setToolTip(tr("An ablated head outputs 0, or its mean output over the held-out set"));
    restore_ = new QPushButton(tr("Restore all"));
    figures_ = new QLabel;
    figures_->setWordWrap(true);
    figures_->setTextFormat(Qt::RichText);
    figures_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    measure_->setToolTip(tr("What colours the cells; every figure is in each cell's text where it fits, and in its tip"));
    auto *side = new QVBoxLayout;
    side->setSpacing(4);
    side->addWidget(measure_);
    side->addWidget(kind_);
    side->addWidget(restore_);
    partsRow_ = new QWidget;
    partsRow_->setObjectName(QStringLiteral("ablationParts"));
    new FlowLayout(partsRow_, 4, 4);
    // The figures scroll where the page is short (a slide at 1024 x 768): the page asks no more
    // height than the maps' page, and the loss curves below keep theirs.
    auto *figuresScroll = new QScrollArea;
    figuresScroll->setObjectName(QStringLiteral("ablationFiguresScroll"));
    figuresScroll->setFrameShape(QFrame::NoFrame);
    figuresScroll->setWidgetResizable(true);
    figuresScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // the FFN and feedback toggles scroll with the figures (the page keeps the maps' height)
    auto *scrolled = new QWidget;
    auto *scrolledColumn = new QVBoxLayout(scrolled);
    scrolledColumn->setContentsMargins(0, 0, 0, 0);
    scrolledColumn->setSpacing(4);
    scrolledColumn->addWidget(partsRow_);
    scrolledColumn->addWidget(figures_, 1);
    figuresScroll->setWidget(scrolled);
    figuresScroll->setMinimumHeight(figures_->fontMetrics().lineSpacing() * 2);
    side->addWidget(figuresScroll, 1);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(2, 2, 2, 2);
    row->addWidget(grid_, 3);
    row->addLayout(side, 2);

    connect(grid_, &ValueGrid::cellClicked, this, [this](int r, int c) { toggleHead(r, c); });
    connect(restore_, &QPushButton::clicked, this, &HeadAblationPanel::restoreAll);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] { submit(); });
    connect(measure_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    clear();
}

HeadAblationPanel::~HeadAblationPanel()
{
    runner_.reset();  // the running job finishes its evaluation; nothing is delivered after this
}

AblationKind HeadAblationPanel::kind() const
{
    return kind_->currentIndex() == 1 ? AblationKind::Mean : AblationKind::Zero;
}

void HeadAblationPanel::setMeanAblation(bool mean)
{
    kind_->setCurrentIndex(mean ? 1 : 0);
}

void HeadAblationPanel::clear()
{
    runner_->cancelAll();
    model_.reset();
    slot_.reset();
    tables_[0].reset();
    tables_[1].reset();
    heads_.clear();
    ffnOff_.clear();
    feedbackShut_ = false;
    ffnAlone_.clear();
    ffnAloneRepeat_.clear();
    feedbackAlone_ = feedbackAloneRepeat_ = TransformerResult::nan;
    layers_ = heads_n_ = 0;
    rebuildPartButtons(false);
    prevToken_.clear();
    induction_.clear();
    composition_.clear();
    sink_.clear();
    sinkShare_ = TransformerResult::nan;
    phaseChange_ = -1;
    pending_ = false;
    baseHeldout_ = baseRepeat_ = ablatedHeldout_ = ablatedRepeat_ = TransformerResult::nan;
    redraw();
    Q_EMIT figuresChanged();
}

void HeadAblationPanel::setResult(const TransformerResult &r)
{
    clear();
    if (!r.model || r.ablationHeldoutLoss.empty()) return;
    model_ = r.model;
    slot_ = std::make_shared<Slot>();
    layers_ = r.model->config.layers;
    heads_n_ = r.model->config.heads;
    repeat_ = !r.ablationSecondHalfLoss.empty();
    prevToken_ = r.prevTokenScore;
    induction_ = r.heldoutInductionScore;
    composition_ = r.composition;
    sink_ = r.sinkShareByHead;
    sinkShare_ = r.sinkShare;
    phaseChange_ = r.phaseChangeStep;
    baseHeldout_ = r.heldoutLoss;
    baseRepeat_ = r.secondHalfLoss;
    ffnAlone_ = r.ablationFfnHeldoutLoss;
    ffnAloneRepeat_ = r.ablationFfnSecondHalfLoss;
    feedbackAlone_ = r.ablationFeedbackHeldoutLoss;
    feedbackAloneRepeat_ = r.ablationFeedbackSecondHalfLoss;
    rebuildPartButtons(r.model->config.feedback != FeedbackMode::Off);
    const HeadAblator::Table own = HeadAblator::tableOf(r);
    tables_[own.kind == AblationKind::Mean ? 1 : 0] = std::make_shared<const HeadAblator::Table>(own);
    {
        const QSignalBlocker block(measure_);
        const int was = measure_->currentIndex();
        measure_->clear();
        measure_->addItem(tr("Loss increase, alone off"), int(LossIncrease));
        if (repeat_) measure_->addItem(tr("Repeat-loss increase"), int(RepeatIncrease));
        measure_->addItem(tr("Previous-token score"), int(PrevToken));
        if (repeat_) {
            measure_->addItem(tr("Induction score"), int(Induction));
            measure_->addItem(tr("Composition"), int(Composition));
        }
        if (!sink_.empty()) measure_->addItem(tr("Sink share (weight on position 0)"), int(SinkShare));
        measure_->setCurrentIndex(std::clamp(was, 0, measure_->count() - 1));
    }
    if (own.kind != kind()) submit();  // the other kind's table, on the worker
    redraw();
    Q_EMIT figuresChanged();
}

void HeadAblationPanel::watchMaps(HeatmapGrid *maps)
{
    maps->installEventFilter(this);
}

bool HeadAblationPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::MouseButtonPress && model_ && heads_n_ > 0) {
        if (auto *maps = qobject_cast<HeatmapGrid *>(watched)) {
            const auto *e = static_cast<QMouseEvent *>(event);
            const HeatmapGrid::Cell cell = maps->cellAt(e->position());
            if (cell.panel >= 0 && e->button() == Qt::LeftButton && cell.panel < layers_ * heads_n_) {
                toggleHead(cell.panel / heads_n_, cell.panel % heads_n_);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void HeadAblationPanel::toggleHead(int layer, int head)
{
    if (!model_ || layer < 0 || layer >= layers_ || head < 0 || head >= heads_n_) return;
    const HeadId id { layer, head };
    const auto it = std::find(heads_.begin(), heads_.end(), id);
    if (it != heads_.end()) heads_.erase(it);
    else heads_.push_back(id);
    submit();
}

void HeadAblationPanel::toggleFfn(int layer)
{
    if (!model_ || layer < 0 || layer >= layers_) return;
    const auto it = std::find(ffnOff_.begin(), ffnOff_.end(), layer);
    if (it != ffnOff_.end()) ffnOff_.erase(it);
    else ffnOff_.push_back(layer);
    submit();
}

void HeadAblationPanel::toggleFeedback()
{
    if (!model_ || model_->config.feedback == FeedbackMode::Off) return;
    feedbackShut_ = !feedbackShut_;
    submit();
}

void HeadAblationPanel::restoreAll()
{
    if (nothingOff()) return;
    heads_.clear();
    ffnOff_.clear();
    feedbackShut_ = false;
    submit();
}

Ablation HeadAblationPanel::parts() const
{
    Ablation a;
    a.heads = heads_;
    a.ffnOff = ffnOff_;
    a.feedbackShut = feedbackShut_;
    a.kind = kind();
    return a;
}

QString HeadAblationPanel::partNames() const
{
    QStringList names;
    // As people read them: heads by name, "FFN L1" for the command line's F1, "feedback gate".
    for (const std::string &name : ablationNames(parts())) {
        QString n = QString::fromStdString(name);
        if (n.size() > 1 && n.front() == QLatin1Char('F') && n.mid(1).toInt() > 0) n = tr("FFN L%1").arg(n.mid(1));
        else if (n == QLatin1String("feedback")) n = tr("feedback gate");
        names << n;
    }
    return names.join(QStringLiteral(", "));
}

void HeadAblationPanel::rebuildPartButtons(bool feedback)
{
    for (QPushButton *b : partsRow_->findChildren<QPushButton *>(Qt::FindDirectChildrenOnly)) delete b;
    const auto add = [this](const QString &text, const QString &tip, auto toggle, bool on) {
        auto *b = new QPushButton(text, partsRow_);
        b->setCheckable(true);
        b->setChecked(on);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, toggle);
        partsRow_->layout()->addWidget(b);
    };
    for (int l = 0; l < layers_; ++l)
        add(tr("FFN L%1 off").arg(l + 1), tr("Switch layer %1's feed-forward block off (its output left out)").arg(l + 1),
            [this, l] { toggleFfn(l); }, std::find(ffnOff_.begin(), ffnOff_.end(), l) != ffnOff_.end());
    if (feedback)
        add(tr("Feedback shut"), tr("Force the gate on h(t-1) shut: every position reads h(t-1) = 0"),
            [this] { toggleFeedback(); }, feedbackShut_);
    partsRow_->setVisible(layers_ > 0);
}

void HeadAblationPanel::submit()
{
    ablatedHeldout_ = ablatedRepeat_ = TransformerResult::nan;
    if (!model_) {
        redraw();
        return;
    }
    const AblationKind k = kind();
    const bool needTable = !tables_[k == AblationKind::Mean ? 1 : 0];
    if (nothingOff() && !needTable) {  // the unablated figures are the run's own
        runner_->cancelAll();
        pending_ = false;
        redraw();
        Q_EMIT figuresChanged();
        return;
    }
    pending_ = true;
    runner_->submit([this, model = model_, slot = slot_, parts = parts(), k, needTable](std::uint64_t generation,
                                                                                        const RunControl &stop) {
        Outcome out;
        out.model = model;
        out.parts = parts;
        try {
            if (!slot->ablator) slot->ablator = std::make_unique<HeadAblator>(model);
            if (needTable) {
                auto t = std::make_shared<HeadAblator::Table>(slot->ablator->table(k, [&stop] { return stop.stopRequested(); }));
                out.table = std::move(t);
            }
            if (!parts.empty() && !stop.stopRequested()) out.losses = slot->ablator->evaluate(parts);
        } catch (const std::exception &e) {
            out.error = QString::fromUtf8(e.what());
        }
        if (stop.stopRequested()) return;  // a newer choice is on its way
        QMetaObject::invokeMethod(this, [this, generation, out = std::move(out)] { deliver(generation, out); },
                                  Qt::QueuedConnection);
    });
    redraw();
    Q_EMIT figuresChanged();
}

void HeadAblationPanel::deliver(std::uint64_t generation, const Outcome &out)
{
    if (!runner_ || generation != runner_->latestGeneration()) return;  // a newer choice is on its way
    if (out.model != model_) return;  // of a run cleared since
    pending_ = false;
    if (out.table) tables_[out.parts.kind == AblationKind::Mean ? 1 : 0] = out.table;
    if (out.parts.heads == heads_ && out.parts.ffnOff == ffnOff_ && out.parts.feedbackShut == feedbackShut_
        && out.parts.kind == kind()) {
        ablatedHeldout_ = out.losses.loss;
        ablatedRepeat_ = out.losses.repeat;
    }
    if (!out.error.isEmpty()) figures_->setToolTip(out.error);
    redraw();
    Q_EMIT figuresChanged();
}

QString HeadAblationPanel::summary() const
{
    if (!model_ || nothingOff()) return QStringLiteral("—");
    if (!std::isfinite(ablatedHeldout_)) return tr("%1: computing…").arg(partNames());
    QString text = tr("%1: %2 nats").arg(partNames(), num(ablatedHeldout_, 3));
    if (repeat_) text += tr(" (repeat %1)").arg(num(ablatedRepeat_, 3));
    return text;
}

void HeadAblationPanel::waitForWorker()
{
    runner_->waitIdle();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

void HeadAblationPanel::setFontScale(double scale)
{
    grid_->setFontScale(scale);  // the widgets' own fonts follow the window's (lecture mode sets it)
}

void HeadAblationPanel::redraw()
{
    ValueGridData d;
    restore_->setEnabled(model_ && !nothingOff());
    measure_->setEnabled(bool(model_));
    kind_->setEnabled(bool(model_));
    if (!model_) {
        d.title = tr("Heads switched off: after a run");
        d.message = tr("Start a run: when it ends, every head appears here, coloured by what switching it off costs.");
        figures_->setText(tr("Then click a cell, or a head's map, to switch that head off."));
        grid_->setData(std::move(d));
        return;
    }
    const int m = measure_->currentData().toInt();
    const AblationKind k = kind();
    const std::shared_ptr<const HeadAblator::Table> &table = tables_[k == AblationKind::Mean ? 1 : 0];
    const QString kindName = k == AblationKind::Mean ? tr("mean") : tr("zero");
    d.rowTitle = tr("layer");
    d.columnTitle = tr("head");
    for (int l = 0; l < layers_; ++l) d.rowLabels << QStringLiteral("L%1").arg(l + 1);
    for (int h = 0; h < heads_n_; ++h) d.columnLabels << QStringLiteral("H%1").arg(h + 1);
    d.values.assign(std::size_t(layers_), std::vector<double>(std::size_t(heads_n_), std::nan("")));
    d.lines.assign(std::size_t(layers_), std::vector<QStringList>(std::size_t(heads_n_)));
    d.tips.assign(std::size_t(layers_), std::vector<QString>(std::size_t(heads_n_)));
    d.marked.assign(std::size_t(layers_), std::vector<bool>(std::size_t(heads_n_), false));
    for (const HeadId &id : heads_) d.marked[std::size_t(id.layer)][std::size_t(id.head)] = true;
    double lo = 0.0, hi = 0.0;
    for (int l = 0; l < layers_; ++l)
        for (int h = 0; h < heads_n_; ++h) {
            const double inc = table ? at(table->heldoutIncrease, l, h) : std::nan("");
            const double rinc = table ? at(table->repeatIncrease, l, h) : std::nan("");
            const double prev = at(prevToken_, l, h), ind = at(induction_, l, h), comp = at(composition_, l, h);
            const double sink = at(sink_, l, h);
            double v = std::nan("");
            QString first;
            switch (m) {
            case LossIncrease: v = inc; first = signedNum(inc); break;
            case RepeatIncrease: v = rinc; first = QStringLiteral("rep ") + signedNum(rinc); break;
            case PrevToken: v = prev; first = QStringLiteral("prev ") + num(prev); break;
            case SinkShare: v = sink; first = QStringLiteral("sink ") + num(sink); break;
            case Induction: v = ind; first = QStringLiteral("ind ") + num(ind); break;
            default: v = comp; first = QStringLiteral("comp ") + num(comp); break;
            }
            d.values[std::size_t(l)][std::size_t(h)] = v;
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
            QStringList &lines = d.lines[std::size_t(l)][std::size_t(h)];
            lines << first;
            if (m != PrevToken) lines << QStringLiteral("prev ") + num(prev);
            if (repeat_ && m != Induction) lines << QStringLiteral("ind ") + num(ind);
            if (repeat_ && m != Composition && std::isfinite(comp)) lines << QStringLiteral("comp ") + num(comp);
            QString tip = tr("L%1 H%2 alone off (%3): held-out loss %4 nats (%5)")
                              .arg(l + 1).arg(h + 1).arg(kindName)
                              .arg(num(table ? at(table->heldout, l, h) : std::nan(""), 3), signedNum(inc));
            if (repeat_)
                tip += tr(", repeat %1 nats (%2)").arg(num(table ? at(table->repeat, l, h) : std::nan(""), 3), signedNum(rinc));
            tip += tr("\nprevious-token score %1, sink share %2").arg(num(prev), num(sink));
            if (repeat_) tip += tr(", induction score %1, composition %2").arg(num(ind), num(comp));
            tip += d.marked[std::size_t(l)][std::size_t(h)] ? tr("\nOff now: click to switch it on") : tr("\nClick to switch it off");
            d.tips[std::size_t(l)][std::size_t(h)] = tip;
        }
    const bool scores = m == PrevToken || m == Induction || m == Composition || m == SinkShare;
    d.low = scores ? 0.0 : lo;
    d.high = scores ? 1.0 : std::max(hi, 1e-3);
    d.lowLabel = num(d.low, scores ? 2 : 3);
    d.highLabel = num(d.high, scores ? 2 : 3);
    d.valueTitle = scores ? tr("score") : tr("nats more than with every head on");
    d.title = scores ? tr("%1 of each head").arg(measure_->currentText())
                     : tr("Each head alone off (%1): %2").arg(kindName, table ? tr("loss increase") : tr("computing…"));
    grid_->setData(std::move(d));

    QString text = tr("<b>Every head on</b>: held-out %1 nats").arg(num(baseHeldout_, 3));
    if (repeat_) text += tr(", repeat %1").arg(num(baseRepeat_, 3));
    if (nothingOff()) {
        text += tr("<br>Click cells or maps to switch heads off.");
    } else {
        text += tr("<br><b>%1 off</b> (%2): ").arg(partNames(), kindName);
        if (pending_ && !std::isfinite(ablatedHeldout_)) text += tr("computing…");
        else {
            text += tr("held-out %1 nats").arg(num(ablatedHeldout_, 3));
            if (repeat_) text += tr(", repeat %1").arg(num(ablatedRepeat_, 3));
        }
    }
    if (!ffnAlone_.empty()) {
        QStringList ffn;
        for (std::size_t l = 0; l < ffnAlone_.size(); ++l) {
            QString item = tr("L%1 %2").arg(int(l) + 1).arg(signedNum(ffnAlone_[l] - baseHeldout_));
            if (repeat_ && l < ffnAloneRepeat_.size()) item += tr(" (repeat %1)").arg(signedNum(ffnAloneRepeat_[l] - baseRepeat_));
            ffn << item;
        }
        text += tr("<br>Each FFN alone off: %1 nats").arg(ffn.join(QStringLiteral(", ")));
    }
    if (std::isfinite(feedbackAlone_)) {
        text += tr("<br>Feedback shut: %1 nats").arg(signedNum(feedbackAlone_ - baseHeldout_));
        if (repeat_) text += tr(" (repeat %1)").arg(signedNum(feedbackAloneRepeat_ - baseRepeat_));
    }
    if (std::isfinite(sinkShare_))
        text += tr("<br>Attention sink: %1% of the later queries' weight on position 0").arg(num(100.0 * sinkShare_, 1));
    if (repeat_)
        text += phaseChange_ >= 0 ? tr("<br>Phase change at step %1").arg(phaseChange_) : tr("<br>No phase change");
    figures_->setText(text);
}

} // namespace fb
