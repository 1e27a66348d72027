#include "views/lab/lab_view.h"

#include "views/widgets/chart_panel.h"
#include "views/lab/param_change.h"
#include "views/lab/explained_charts.h"
#include "views/lab/explanation_panel.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/wheel_guard.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QMetaObject>
#include <QPointer>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace fb {

LabView::LabView(const LabSpec &spec, QWidget *parent)
    : QWidget(parent)
    , spec_(spec)
    , title_(QString::fromStdString(spec.title))
    , runner_(std::make_unique<LatestWinsRunner>())
{
    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(8, 8, 8, 8);

    auto *side = new QWidget;
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(4, 4, 12, 4);
    panel_ = new ParamPanel(spec_);
    sideLayout->addWidget(panel_);
    sideArea_ = new QVBoxLayout;
    sideLayout->addLayout(sideArea_);
    readouts_ = new ReadoutPanel(tr("Figures"));
    sideLayout->addWidget(readouts_);
    sideLayout->addStretch(1);

    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("labSide"));
    scroll->setWidget(side);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(kSideMinWidth);
    side_ = scroll;

    auto *charts = new QWidget;
    charts->setObjectName(QStringLiteral("labCharts"));
    chartArea_ = new QVBoxLayout(charts);
    chartArea_->setContentsMargins(0, 0, 0, 0);
    // The section the lab follows, then what it shows, what to try, which formula.
    explanation_ = new ExplanationPanel(sectionLine());

    // The parameter column and the charts share the width through a splitter: drag it, or F6
    // hides the column and the charts take everything.
    split_ = new QSplitter(Qt::Horizontal);
    split_->setObjectName(QStringLiteral("labSplit"));
    split_->addWidget(scroll);
    split_->addWidget(new ExplainedCharts(explanation_, charts));
    split_->setChildrenCollapsible(false);
    split_->setStretchFactor(1, 1);
    outer->addWidget(split_);
    connect(split_, &QSplitter::splitterMoved, this, [this] { sideDragged_ = true; });

    undo_ = new QUndoStack(this);
    recorded_ = panel_->values();
    connect(panel_, &ParamPanel::valuesChanged, this, [this](const ParamValues &now) {
        if (recording_) recordChange(recorded_);
        recorded_ = now;
        recompute();
    });
}

void LabView::recordChange(const ParamValues &before)
{
    const ParamValues now = panel_->values();
    if (now == before) return;
    undo_->push(new ParamChange(spec_, before, now, [this](const ParamValues &v) {
        recording_ = false;
        panel_->setValues(v);
        recording_ = true;
    }));
    recorded_ = now;
}

LabView::~LabView()
{
    runner_.reset();  // waits for a running computation; nothing is delivered after this
}

QString LabView::name() const
{
    return QString::fromStdString(spec_.name);
}

const ParamValues &LabView::values() const
{
    return panel_->values();
}

QString LabView::setValues(const ParamValues &values, bool undoable)
{
    const QScopedValueRollback<bool> keep(recording_, recording_ && undoable);
    return panel_->setValues(values);
}

QString LabView::setValuesWithoutRules(const ParamValues &values)
{
    // not a step of the undo stack: a step is applied again through the rules, which refuse these
    const QScopedValueRollback<bool> keep(recording_, false);
    return panel_->setValuesWithoutRules(values);
}

QString LabView::caption() const
{
    QStringList parts;
    for (const auto &p : spec_.params) {
        const ParamValues &v = panel_->values();
        if (p.kind == ParamKind::Text || !spec_.isUsed(p, v)) continue;
        const QString value = (p.kind == ParamKind::Choice) ? QString::fromStdString(v.text(p.key))
                                                            : QString::fromStdString(formatNumber(v.number(p.key)));
        parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(p.key), value);
    }
    return title_ + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

void LabView::setPresentationScale(double scale)
{
    for (ChartPanel *chart : findChildren<ChartPanel *>()) chart->setFontScale(scale);
    readouts_->setFontScale(scale);
    explanation_->setFontScale(scale);
}

void LabView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Until the splitter is dragged, the parameter column takes 28% of the lab, between a readable
    // minimum and its full width: at 1024 px the charts keep two thirds of the screen.
    if (sideDragged_ || side_->isHidden()) return;
    const int total = split_->width() - split_->handleWidth();
    // Wider when its contents need it (a projector's larger fonts), up to 40% of the lab (or the
    // usual widest, 360 px, where that is more).
    auto *scroll = static_cast<QScrollArea *>(side_);
    const int need = scroll->widget()->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width();
    const int widest = std::max(kSideMaxWidth, int(width() * 0.4));
    const int share = std::min(int(width() * 0.28), kSideMaxWidth);
    const int side = std::clamp(std::max(share, need), kSideMinWidth, widest);
    if (total > side) split_->setSizes({ side, total - side });
}

void LabView::setSideVisible(bool visible)
{
    side_->setVisible(visible);
    if (visible) {
        // Back at its share of the width.
        QResizeEvent again(size(), size());
        resizeEvent(&again);
    }
}

bool LabView::isSideVisible() const
{
    return !side_->isHidden();
}

void LabView::setValidator(std::function<std::string(const ParamValues &)> validator)
{
    panel_->setValidator(std::move(validator));
}

void LabView::addChart(QWidget *chart, Exportable *exportable, int stretch)
{
    chartArea_->addWidget(chart, stretch);
    if (exportable) exportables_.append(exportable);
}

void LabView::setJob(Job job)
{
    job_ = std::move(job);
    // The panel is complete now (subclasses call this last): the wheel scrolls it, and changes only
    // the control the user clicked into.
    WheelGuard::install(side_);
    recompute();
}

void LabView::recompute()
{
    // Values set without the cross-key rules (an opened model's, its text file unknown) have no
    // preview: the lab would refuse them, and the note says what is missing.
    if (!job_ || panel_->rulesSkipped()) return;
    computeHeld_ = computeOnlyWhenShown_ && !isVisible();
    if (computeHeld_) return;  // showEvent or waitForResult starts it
    submitComputation();
}

void LabView::startHeldComputation()
{
    if (!computeHeld_) return;
    computeHeld_ = false;
    if (panel_->rulesSkipped()) return;  // values set without the rules since: no preview (recompute)
    submitComputation();
}

void LabView::submitComputation()
{
    sinceChange_.start();
    computationStarted();
    // The job owns copies of everything it computes with; the drawing closure it returns runs on
    // the GUI thread through a queued call, which Qt drops if the view is gone by then.
    runner_->submit([this, job = job_, values = panel_->values()](std::uint64_t generation, const RunControl &stop) {
        Delivery draw;
        QString error;
        try {
            draw = job(values, stop);
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        if (stop.stopRequested()) return;  // stale: a newer change is on its way
        QMetaObject::invokeMethod(this, [this, generation, draw = std::move(draw), error] {
            deliverFrame(generation, draw, error);
        }, Qt::QueuedConnection);
    });
}

void LabView::deliverFrame(std::uint64_t generation, const Delivery &draw, const QString &error)
{
    if (generation != runner_->latestGeneration()) return;  // a newer change is on its way
    if (!error.isEmpty()) {
        readouts_->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped()));
        return;
    }
    // Every chart lays a replaced series out once: held while the result is drawn, then its own
    // layout settled now (one frame per result, not a second one after the next paint).
    const QList<ChartPanel *> charts = findChildren<ChartPanel *>();
    for (ChartPanel *chart : charts) chart->holdReplots();
    if (draw) draw();
    for (ChartPanel *chart : charts) chart->settleLayout();
    lastLatencyMs_ = double(sinceChange_.nsecsElapsed()) / 1e6;
    Q_EMIT resultShown();
}

void LabView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    startHeldComputation();
}

void LabView::waitForResult()
{
    startHeldComputation();  // a caller waiting for the result (an export, a test) gets it, shown or not
    runner_->waitIdle();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

QString LabView::sectionLine() const
{
    return QStringLiteral("<p style='color:#555'>%1</p>").arg(QString::fromStdString(spec_.section).toHtmlEscaped());
}

void LabView::setExplanation(const QString &html)
{
    explanation_->setText(sectionLine() + html);
}

} // namespace fb
