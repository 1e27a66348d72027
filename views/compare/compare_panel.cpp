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
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

// A configuration line's share of the row: 1 empty, up to 6 for a long list of mixers.
int lineStretch(const QString &text)
{
    return text.trimmed().isEmpty() ? 1 : std::clamp(int(text.size()) / 8, 3, 6);
}

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
                                QString(), QString() };
    for (int i = 0; i < kMaxCompareConfigs; ++i) {
        auto *swatch = new QLabel;
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(QStringLiteral("background: %1;").arg(seriesColor(i).name()));
        auto *edit = new QLineEdit(initial[i]);
        edit->setObjectName(QStringLiteral("compare%1").arg(i + 1));
        edit->setPlaceholderText(tr("e.g. window=8"));
        edit->setToolTip(tr("Overrides of the lab's values, comma separated KEY=VALUE as `fullband train --set` takes "
                            "them: mixer, short_conv, kv_heads, window, attn_gate, qk_norm, norm, loop, pos, layers, heads, d_model, lr, "
                            "steps ... \"base\": the lab's values. The task, its text and the seed are shared."));
        connect(edit, &QLineEdit::returnPressed, this, [this] { if (!running()) Q_EMIT startRequested(); });
        // a line narrower than its text ("mixer=gated-deltanet" at 1024 px) shows how it begins once left
        connect(edit, &QLineEdit::editingFinished, edit, [edit] { edit->setCursorPosition(0); });
        lines_.push_back(edit);
        lines->addWidget(swatch, 0, 2 * i);  // one row: the charts keep the height on a slide
        lines->addWidget(edit, 0, 2 * i + 1);
        // the width follows the text: a long list of mixers gets the room empty lines do not need
        edit->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        edit->setMinimumWidth(70);
        connect(edit, &QLineEdit::textChanged, this, [lines, i](const QString &text) {
            lines->setColumnStretch(2 * i + 1, lineStretch(text));
        });
        lines->setColumnStretch(2 * i + 1, lineStretch(initial[i]));
    }
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    loss_ = new CompareChart(tr("Held-out loss"), tr("loss (nats)"), true, 0.0);
    accuracy_ = new CompareChart(tr("Held-out accuracy"), tr("accuracy"), false, 1.0);
    recall_ = new CompareChart(tr("Recall by number of pairs"), tr("accuracy"), false, 1.0, nullptr,
                               tr("key-value pairs in the sequence"));
    loss_->setMinimumHeight(200);
    accuracy_->setMinimumHeight(200);
    recall_->setMinimumHeight(200);
    accuracySlot_ = new QStackedWidget;
    accuracySlot_->addWidget(accuracy_);
    accuracySlot_->addWidget(recall_);
    curves_ = new QWidget;
    auto *charts = new QHBoxLayout(curves_);
    charts->setContentsMargins(0, 0, 0, 0);
    charts->addWidget(loss_, 3);
    charts->addWidget(accuracySlot_, 2);  // hidden when the task has no exact answers
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

    table_ = new CompareTable;  // as tall as its rows: the charts take the rest

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(lines);
    layout->addWidget(status_);
    layout->addWidget(chartsPage_, 3);
    layout->addWidget(table_, 0);

    table_->setToolTip(tr("Click a configuration to see its attention maps at the end of its run"));
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { showMaps(row); });

    status_->setText(tr("Each line is one configuration: the lab's values with these keys changed. Start trains "
                        "them side by side."));
    updateButtons();
}

ComparePanel::~ComparePanel() = default;  // the job abandons and joins

bool ComparePanel::running() const
{
    return job_ != nullptr;
}

bool ComparePanel::accuracyShown() const
{
    return !accuracySlot_->isHidden();
}

bool ComparePanel::recallShown() const
{
    return accuracyShown() && accuracySlot_->currentWidget() == recall_;
}

void ComparePanel::showRecall(const std::vector<CompareRow> &rows)
{
    QStringList labels;
    int most = 0;
    for (const CompareRow &r : rows) {
        labels << QString::fromStdString(r.label);
        for (const auto &p : r.recallByPairs) most = std::max(most, p.pairs);
    }
    if (most == 0) {
        accuracySlot_->setCurrentWidget(accuracy_);
        return;
    }
    recall_->start(labels, most, colours_);
    for (int i = 0; i < int(rows.size()); ++i) {
        QList<QPointF> points;
        for (const auto &p : rows[std::size_t(i)].recallByPairs) points.append(QPointF(p.pairs, p.accuracy));
        recall_->setCurves(i, {}, points);
    }
    accuracySlot_->setCurrentWidget(recall_);
}

void ComparePanel::updateButtons()
{
    for (QLineEdit *e : lines_) e->setReadOnly(running());
}

int ComparePanel::stepsDone() const
{
    int n = 0;
    for (int d : done_) n += d;
    return n;
}

int ComparePanel::stepsTotal() const
{
    int n = 0;
    for (const CompareRow &r : sizes_) n += r.config.steps;
    return std::max(1, n);
}

int ComparePanel::longestRun() const
{
    int steps = 1;
    for (const CompareRow &r : rows_.empty() ? sizes_ : rows_) steps = std::max(steps, r.config.steps);
    return steps;
}

void ComparePanel::expectAnswers(bool exactAnswers)
{
    if (!running() && rows_.empty()) setAccuracyKnown(exactAnswers);
}

void ComparePanel::setPaused(bool paused)
{
    if (!job_) return;
    job_->setPaused(paused);
    // the rows still training say so (a row past its steps is evaluating, which a pause does not hold)
    for (int i = 0; i < int(done_.size()) && i < int(sizes_.size()); ++i)
        if (done_[std::size_t(i)] < sizes_[std::size_t(i)].config.steps)
            table_->setStatus(i, paused ? tr("paused") : tr("training"));
}

bool ComparePanel::held() const
{
    return !job_ || job_->held();
}

void ComparePanel::join()
{
    if (job_) job_->join();
}

void ComparePanel::clear()
{
    job_.reset();  // abandons and joins: at most one step per configuration
    sizes_.clear();
    rows_.clear();
    frames_.clear();
    done_.clear();
    colours_.clear();
    showCurves();
    startCharts({});
    table_->setRows({}, false, {});
    status_->setText(tr("Each line is one configuration: the lab's values with these keys changed. Start trains "
                        "them side by side."));
    updateButtons();
}

void ComparePanel::showStep(int step)
{
    if (rows_.empty()) return;
    step = std::clamp(step, 0, longestRun());
    // the curves as they were at step; at the end the recall chart, as the comparison ended
    if (step < longestRun()) accuracySlot_->setCurrentWidget(accuracy_);
    else showRecall(rows_);
    for (int i = 0; i < int(rows_.size()); ++i) {
        const CompareRow &r = rows_[std::size_t(i)];
        const std::size_t n = std::min(r.curve.size(), std::size_t(step));
        QList<QPointF> loss, accuracy;
        for (const auto &p : r.heldoutCurve)
            if (p.step <= step) {
                loss.append(QPointF(p.step, repeat_ ? p.secondHalfLoss : p.loss));
                accuracy.append(QPointF(p.step, p.accuracy));
            }
        loss_->setCurves(i, repeat_ ? std::vector<double>()
                                    : std::vector<double>(r.curve.begin(), r.curve.begin() + std::ptrdiff_t(n)),
                         loss);
        accuracy_->setCurves(i, {}, accuracy);
    }
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
    done_.assign(sizes_.size(), 0);
    job_ = std::make_unique<CompareJob>(std::move(entries), availableCores());
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
    repeat_ = !rows.empty() && transformerHasRepeat(rows.front().config.task);
    loss_->setTitle(repeat_ ? tr("Repeat loss: held-out loss on the repeat") : tr("Held-out loss"));
    table_->setColumnHidden(CompareTable::RepeatColumn, !repeat_);
    loss_->start(labels, steps, colours_);
    accuracy_->start(labels, steps, colours_);
    recall_->start({}, 1, {});
    accuracySlot_->setCurrentWidget(accuracy_);
    if (!rows.empty()) setAccuracyKnown(transformerHasAnswers(rows.front().config.task));
}

void ComparePanel::setAccuracyKnown(bool exactAnswers)
{
    // Without exact answers the loss chart takes the width and the table drops the column (on a
    // slide every pixel of both counts).
    accuracySlot_->setVisible(exactAnswers);
    table_->setColumnHidden(CompareTable::AccuracyColumn, !exactAnswers);
}

void ComparePanel::stop()
{
    if (job_) {
        job_->cancel();  // also wakes a pause
        status_->setText(tr("Stopping after the current step …"));
    }
}

bool ComparePanel::pull()
{
    if (!job_) return true;
    CompareJob::Update u = job_->take();
    for (int i = 0; i < int(u.losses.size()); ++i) {
        if (!repeat_) loss_->appendTraining(i, u.losses[std::size_t(i)]);  // (the whole sequence's loss)
        if (i >= int(done_.size()) || u.losses[std::size_t(i)].empty()) continue;
        done_[std::size_t(i)] += int(u.losses[std::size_t(i)].size());
        // its steps done, its final evaluations (anatomy, sink share) run until the others end too
        if (done_[std::size_t(i)] >= sizes_[std::size_t(i)].config.steps) table_->setStatus(i, tr("evaluating"));
    }
    for (int i = 0; i < int(u.heldout.size()); ++i) {
        for (const TransformerResult::HeldoutPoint &p : u.heldout[std::size_t(i)]) {
            loss_->appendHeldout(i, p.step, repeat_ ? p.secondHalfLoss : p.loss);
            accuracy_->appendHeldout(i, p.step, p.accuracy);
        }
        if (!u.heldout[std::size_t(i)].empty()) table_->showHeldout(i, u.heldout[std::size_t(i)].back());
    }
    if (!u.error.empty()) {
        job_.reset();
        // no figures will come: the rows' sizes stay, their held-out figures so far go
        table_->setRows(sizes_, false, colours_);
        for (int i = 0; i < int(sizes_.size()); ++i) table_->setStatus(i, tr("not run"));
        status_->setText(tr("Not run: %1").arg(QString::fromStdString(u.error)));
        updateButtons();
        return true;
    }
    if (u.rows) {
        job_.reset();
        frames_ = std::move(u.maps);
        finish(std::move(*u.rows));
        return true;
    }
    return false;
}

void ComparePanel::finish(std::vector<CompareRow> rows)
{
    bool exact = false;
    for (int i = 0; i < int(rows.size()); ++i) {
        const CompareRow &r = rows[std::size_t(i)];
        QList<QPointF> loss, accuracy;
        for (const auto &p : r.heldoutCurve) {
            loss.append(QPointF(p.step, repeat_ ? p.secondHalfLoss : p.loss));
            accuracy.append(QPointF(p.step, p.accuracy));
        }
        loss_->setCurves(i, repeat_ ? std::vector<double>() : r.curve, loss);
        accuracy_->setCurves(i, {}, accuracy);
        if (std::isfinite(r.accuracy)) exact = true;
    }
    setAccuracyKnown(exact);
    showRecall(rows);
    table_->setRows(rows, true, colours_);
    status_->setText(tr("Compared %1 configurations on the same task, seed and data; click one in the table for "
                        "its attention maps.").arg(rows.size())
                     + (recallShown() ? tr(" Right: each one's recall on held-out sequences of 1, 2, … pairs.") : QString()));
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
    recall_->setFontScale(scale);
    maps_->setFontScale(scale);
}

} // namespace fb
