#include "views/compare/compare_panel.h"

#include "core/transformer/transformer_estimate.h"
#include "views/compare/compare_chart.h"
#include "views/compare/compare_job.h"
#include "views/compare/compare_table.h"
#include "views/training/transformer_run.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/palette.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace fb {

namespace {
constexpr int kPullMs = 33;  // 30 Hz, as the lab's own run
} // namespace

ComparePanel::ComparePanel(BaseSource base, QWidget *parent)
    : QWidget(parent)
    , base_(std::move(base))
{
    auto *lines = new QGridLayout;
    lines->setContentsMargins(0, 0, 0, 0);
    lines->setHorizontalSpacing(6);
    lines->setVerticalSpacing(3);
    const QStringList initial { QStringLiteral("base"), QStringLiteral("kv_heads=1"), QStringLiteral("attn_gate=on"),
                                QString() };
    for (int i = 0; i < kMaxCompareConfigs; ++i) {
        auto *swatch = new QLabel;
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(QStringLiteral("background: %1;").arg(seriesColor(i).name()));
        auto *edit = new QLineEdit(initial[i]);
        edit->setObjectName(QStringLiteral("compare%1").arg(i + 1));
        edit->setPlaceholderText(tr("configuration %1: e.g. window=8, loop=2").arg(i + 1));
        edit->setToolTip(tr("Overrides of the lab's values, comma separated KEY=VALUE as `fullband train --set` takes "
                            "them: kv_heads, window, attn_gate, qk_norm, norm, loop, pos, layers, heads, d_model, lr, "
                            "steps ... \"base\": the lab's values. The task, its text and the seed are shared."));
        connect(edit, &QLineEdit::returnPressed, this, [this] { if (!running()) startCompare(); });
        lines_.push_back(edit);
        lines->addWidget(swatch, i / 2, (i % 2) * 2);
        lines->addWidget(edit, i / 2, (i % 2) * 2 + 1);
    }
    compare_ = new QPushButton(tr("Compare"));
    compare_->setObjectName(QStringLiteral("compare"));
    compare_->setToolTip(tr("Train every configuration on the same task, seed and data, side by side"));
    stop_ = new QPushButton(tr("Stop"));
    stop_->setToolTip(tr("End the comparison now; the table shows what each configuration reached"));
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(compare_, &QPushButton::clicked, this, [this] { startCompare(); });
    connect(stop_, &QPushButton::clicked, this, [this] { stop(); });
    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(compare_);
    buttons->addWidget(stop_);
    buttons->addWidget(status_, 1);

    loss_ = new CompareChart(tr("Held-out loss"), tr("loss (nats)"), true, 0.0);
    accuracy_ = new CompareChart(tr("Held-out accuracy"), tr("accuracy"), false, 1.0);
    loss_->setMinimumHeight(200);
    accuracy_->setMinimumHeight(200);
    noAnswers_ = new QLabel(tr("Held-out accuracy: no exact answers for this task"));
    noAnswers_->setAlignment(Qt::AlignCenter);
    noAnswers_->setWordWrap(true);
    noAnswers_->setFrameShape(QFrame::StyledPanel);
    accuracyPage_ = new QStackedWidget;
    accuracyPage_->addWidget(accuracy_);
    accuracyPage_->addWidget(noAnswers_);
    curves_ = new QWidget;
    auto *charts = new QHBoxLayout(curves_);
    charts->setContentsMargins(0, 0, 0, 0);
    charts->addWidget(loss_, 3);
    charts->addWidget(accuracyPage_, 2);
    // A configuration's maps in the curves' place: a click on its row, "Back to the curves" returns.
    mapsPage_ = new QWidget;
    maps_ = new HeatmapGrid;
    mapsTitle_ = new QLabel;
    mapsTitle_->setWordWrap(true);
    auto *back = new QPushButton(tr("Back to the curves"));
    connect(back, &QPushButton::clicked, this, [this] { showCurves(); });
    auto *mapsHead = new QHBoxLayout;
    mapsHead->setContentsMargins(0, 0, 0, 0);
    mapsHead->addWidget(mapsTitle_, 1);
    mapsHead->addWidget(back);
    auto *mapsColumn = new QVBoxLayout(mapsPage_);
    mapsColumn->setContentsMargins(0, 0, 0, 0);
    mapsColumn->addLayout(mapsHead);
    mapsColumn->addWidget(maps_, 1);
    chartsPage_ = new QStackedWidget;
    chartsPage_->addWidget(curves_);
    chartsPage_->addWidget(mapsPage_);

    table_ = new CompareTable;
    table_->setMinimumHeight(110);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(lines);
    layout->addLayout(buttons);
    layout->addWidget(chartsPage_, 3);
    layout->addWidget(table_, 2);

    table_->setToolTip(tr("Click a configuration to see its attention maps at the end of its run"));
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { showMaps(row); });

    timer_ = new QTimer(this);
    timer_->setInterval(kPullMs);
    connect(timer_, &QTimer::timeout, this, [this] { pull(); });
    status_->setText(tr("Each line is one configuration: the lab's values with these keys changed."));
    updateButtons();
}

ComparePanel::~ComparePanel() = default;  // the job abandons and joins

bool ComparePanel::running() const
{
    return job_ != nullptr;
}

bool ComparePanel::accuracyShown() const
{
    return accuracyPage_->currentWidget() == accuracy_;
}

void ComparePanel::updateButtons()
{
    compare_->setEnabled(!running());
    stop_->setEnabled(running());
    for (QLineEdit *e : lines_) e->setReadOnly(running());
}

QString ComparePanel::startCompare()
{
    if (running()) return tr("a comparison is running");
    TransformerConfig base;
    std::string err = base_ ? base_(base) : std::string("no configuration");
    std::vector<std::string> overrides;
    std::vector<int> colours;  // each configuration keeps its line's colour, empty lines skipped
    for (int i = 0; i < int(lines_.size()); ++i) {
        const QString text = lines_[std::size_t(i)]->text().trimmed();
        if (text.isEmpty()) continue;
        overrides.push_back(text == QLatin1String("base") ? std::string() : text.toStdString());
        colours.push_back(i);
    }
    std::vector<CompareEntry> entries;
    if (err.empty()) err = buildCompareEntries(base, overrides, entries);
    if (!err.empty()) {
        const QString message = QString::fromStdString(err);
        status_->setText(message);
        return message;
    }
    sizes_.clear();
    for (const CompareEntry &e : entries) sizes_.push_back(compareRow(e));
    colours_ = std::move(colours);
    frames_.clear();
    rows_.clear();
    showCurves();
    startCharts(sizes_);
    table_->setRows(sizes_, false, colours_);
    job_ = std::make_unique<CompareJob>(std::move(entries), availableCores());
    timer_->start();
    status_->setText(tr("Training %1 configurations side by side …").arg(sizes_.size()));
    updateButtons();
    return {};
}

void ComparePanel::startCharts(const std::vector<CompareRow> &rows)
{
    QStringList labels;
    int steps = 1;
    for (const CompareRow &r : rows) {
        labels << QString::fromStdString(r.label);
        steps = std::max(steps, r.config.steps);
    }
    loss_->start(labels, steps, colours_);
    accuracy_->start(labels, steps, colours_);
    anyAccuracy_ = false;
    setAccuracyKnown(true);
}

void ComparePanel::setAccuracyKnown(bool exactAnswers)
{
    accuracyPage_->setCurrentWidget(exactAnswers ? static_cast<QWidget *>(accuracy_) : noAnswers_);
}

void ComparePanel::stop()
{
    if (job_) {
        job_->cancel();
        status_->setText(tr("Stopping after the current step …"));
    }
}

void ComparePanel::pull()
{
    if (!job_) return;
    CompareJob::Update u = job_->take();
    for (int i = 0; i < int(u.losses.size()); ++i) loss_->appendTraining(i, u.losses[std::size_t(i)]);
    for (int i = 0; i < int(u.heldout.size()); ++i)
        for (const TransformerResult::HeldoutPoint &p : u.heldout[std::size_t(i)]) {
            loss_->appendHeldout(i, p.step, p.loss);
            accuracy_->appendHeldout(i, p.step, p.accuracy);
            if (std::isfinite(p.accuracy)) anyAccuracy_ = true;
            else if (!anyAccuracy_) setAccuracyKnown(false);
        }
    if (!u.error.empty()) {
        timer_->stop();
        job_.reset();
        status_->setText(tr("Not run: %1").arg(QString::fromStdString(u.error)));
        updateButtons();
        return;
    }
    if (u.rows) {
        timer_->stop();
        job_.reset();
        frames_ = std::move(u.maps);
        finish(std::move(*u.rows));
    }
}

void ComparePanel::finish(std::vector<CompareRow> rows)
{
    bool exact = false;
    for (int i = 0; i < int(rows.size()); ++i) {
        const CompareRow &r = rows[std::size_t(i)];
        QList<QPointF> loss, accuracy;
        for (const auto &p : r.heldoutCurve) {
            loss.append(QPointF(p.step, p.loss));
            accuracy.append(QPointF(p.step, p.accuracy));
        }
        loss_->setCurves(i, r.curve, loss);
        accuracy_->setCurves(i, {}, accuracy);
        if (std::isfinite(r.accuracy)) exact = true;
    }
    setAccuracyKnown(exact);
    table_->setRows(rows, true, colours_);
    status_->setText(tr("Compared %1 configurations on the same task, seed and data; click one in the table for "
                        "its attention maps.").arg(rows.size()));
    rows_ = std::move(rows);
    updateButtons();
}

bool ComparePanel::showMaps(int row)
{
    if (row < 0 || row >= int(frames_.size()) || !frames_[std::size_t(row)] || row >= int(rows_.size())) return false;
    const TransformerFrame &f = *frames_[std::size_t(row)];
    maps_->setData(f.maps);
    mapsTitle_->setText(tr("<b>%1</b>: each head's attention at the end of its run")
                            .arg(QString::fromStdString(rows_[std::size_t(row)].label).toHtmlEscaped()));
    chartsPage_->setCurrentWidget(mapsPage_);
    return true;
}

void ComparePanel::showCurves()
{
    chartsPage_->setCurrentWidget(curves_);
}

bool ComparePanel::mapsShown() const
{
    return chartsPage_->currentWidget() == mapsPage_;
}

void ComparePanel::showRows(const std::vector<CompareRow> &rows)
{
    timer_->stop();
    job_.reset();
    colours_.clear();
    frames_.clear();  // maps come made from the job's worker only
    startCharts(rows);
    finish(rows);
}

void ComparePanel::setFontScale(double scale)
{
    loss_->setFontScale(scale);
    accuracy_->setFontScale(scale);
    maps_->setFontScale(scale);
}

} // namespace fb
