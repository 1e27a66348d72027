#include "views/compare/compare_table.h"

#include "core/compare/compare_config.h"
#include "core/compare/compare_run.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"

#include <QHeaderView>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

constexpr int kNarrow = 760;  // px: below it the parameters and FLOPs columns are left out

QIcon swatch(const QColor &colour)
{
    QPixmap p(12, 12);
    p.fill(colour);
    return QIcon(p);
}

QString orDash(double v, int decimals)
{
    return std::isfinite(v) ? text::fixed(v, decimals) : QStringLiteral("—");
}

// A label may wrap after "_", "=", "," and "-" too (a narrow column on a slide: "kv_heads=1" or
// "mixer=gated-deltanet" on several lines rather than cut), with a zero-width space the cell does not show.
QString breakable(QString label)
{
    for (const QString &after : { QStringLiteral("_"), QStringLiteral("="), QStringLiteral(","), QStringLiteral("-") })
        label.replace(after, after + QChar(0x200B));
    return label;
}

// A list of mixers, one per layer, names its Gated DeltaNets "GDN" in the table and counts a run of
// equal layers once (its tooltip, the line above and the JSON keep the whole list):
// "mixer=3×GDN,softmax" takes a line where the whole words took three (slide 15's third row went
// below the table's edge at 1024 x 768), and two where "GDN,GDN,GDN,softmax" took four beside the
// explanation.
QString shownLabel(const QString &label)
{
    // read as the comparison reads its lines (compare_config.h): "mixer=a, a,b" is a list too
    std::vector<std::pair<std::string, std::string>> pairs;
    if (!parseOverrides(label.toStdString(), pairs).empty()) return label;  // "base": as it is
    bool list = false;
    for (const auto &[key, value] : pairs) list = list || (key == "mixer" && value.find(',') != std::string::npos);
    if (!list) return label;  // one mixer for every layer keeps its whole name
    QStringList shown;
    for (const auto &[key, value] : pairs) {
        const QString k = QString::fromStdString(key), v = QString::fromStdString(value);
        if (key != "mixer" || !v.contains(QLatin1Char(','))) {
            shown << k + QLatin1Char('=') + v;
            continue;
        }
        QStringList runs;
        const QStringList layers = v.split(QLatin1Char(','));
        for (qsizetype i = 0; i < layers.size();) {
            qsizetype j = i + 1;
            while (j < layers.size() && layers[j] == layers[i]) ++j;
            QString name = layers[i];
            name.replace(QLatin1String("gated-deltanet"), QLatin1String("GDN"));
            runs << (j - i > 1 ? QString::number(j - i) + QChar(0x00D7) + name : name);
            i = j;
        }
        shown << k + QLatin1Char('=') + runs.join(QLatin1Char(','));
    }
    return shown.join(QStringLiteral(", "));
}

} // namespace

CompareTable::CompareTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({ tr("variant"), tr("params"), tr("MFLOP\n/step"), tr("KV bytes\n/token"),
                                tr("ms\n/step"), tr("held-out\nloss"), tr("repeat\nloss"), tr("accuracy"), tr("sink\nshare"),
                                tr("status") });
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ConfigColumn, QHeaderView::Stretch);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(true);
    horizontalHeaderItem(ConfigColumn)->setToolTip(tr("The configuration: the lab's values with these keys changed (in a "
                                                      "list of mixers, GDN is gated-deltanet, and 3×GDN three such "
                                                      "layers in a row)"));
    horizontalHeaderItem(KvColumn)->setToolTip(
        tr("KV cache at inference per cached token: 2 × layers × loops × kv_heads × d_head × 4 bytes (float32). "
           "With a sliding window at most `window` tokens are cached."));
    horizontalHeaderItem(MsColumn)->setToolTip(
        tr("Milliseconds per training step, with the configurations training side by side (they share the cores "
           "and the memory bandwidth)"));
    horizontalHeaderItem(AccuracyColumn)->setToolTip(tr("Held-out accuracy of the answer tokens; — when the task "
                                                        "has no exact answers"));
    horizontalHeaderItem(RepeatColumn)->setToolTip(tr("Induction tasks: the held-out loss on the repeat, the "
                                                      "predictions an induction head can make (ideal 0)"));
    setColumnHidden(RepeatColumn, true);
    // the other columns size to their contents after the rows change: fit again once they have
    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column) { if (column != ConfigColumn && column != SinkColumn) fitColumns(); },
            Qt::QueuedConnection);
    horizontalHeaderItem(SinkColumn)->setToolTip(tr("Mean attention the queries after the first put on position 0"));
}

void CompareTable::setRows(const std::vector<CompareRow> &rows, bool trained, const std::vector<int> &colours)
{
    setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const CompareRow &row = rows[std::size_t(r)];
        QString status = tr("training");
        if (trained) {
            status = QString::fromStdString(trainStatusName(row.status));
            if (row.status == TrainStatus::Cancelled) status = tr("stopped at %1").arg(row.stepsDone);
        }
        const QString kvTip = tr("%1 tokens cached at T = %2: %3")
                                  .arg(row.kv.cachedTokens)
                                  .arg(row.config.seqLen)
                                  .arg(text::bytes(row.kv.cacheBytes));
        const QStringList cells {
            breakable(shownLabel(QString::fromStdString(row.label))),
            text::grouped(double(row.params)),
            text::fixed(row.flopsPerStep / 1e6, 1),
            text::grouped(row.kv.bytesPerToken),
            trained ? (row.stepsDone > 0 ? orDash(row.msPerStep, 2) : QStringLiteral("—")) : QStringLiteral("…"),
            trained ? orDash(row.heldoutLoss, 3) : QStringLiteral("…"),
            trained ? orDash(row.secondHalfLoss, 3) : QStringLiteral("…"),
            trained ? orDash(row.accuracy, 3) : QStringLiteral("…"),
            trained ? orDash(row.sinkShare, 3) : QStringLiteral("…"),
            status,
        };
        for (int c = 0; c < int(cells.size()); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c != ConfigColumn && c != StatusColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == ConfigColumn) {
                item->setIcon(swatch(seriesColor(r < int(colours.size()) ? colours[std::size_t(r)] : r)));
                // the whole list of mixers (GDN: gated-deltanet), and the sizes a narrow table leaves out
                item->setToolTip(tr("%1\n%2 parameters, %3 MFLOP per training step")
                                     .arg(QString::fromStdString(row.label), text::grouped(double(row.params)),
                                          text::fixed(row.flopsPerStep / 1e6, 1)));
            }
            if (c == KvColumn) item->setToolTip(kvTip);
            if (c == LossColumn || c == RepeatColumn)
                item->setToolTip(QString::number(c == LossColumn ? row.heldoutLoss : row.secondHalfLoss, 'f', 6));
            if (c == StatusColumn && (trained && row.status == TrainStatus::Cancelled))
                item->setToolTip(tr("Stopped at step %1 of %2; the figures are those of the weights it reached")
                                     .arg(row.stepsDone).arg(row.config.steps));
            else if (c == StatusColumn && !row.message.empty()) item->setToolTip(QString::fromStdString(row.message));
            setItem(r, c, item);
        }
    }
    fitColumns();
    resizeRowsToContents();
    updateGeometry();
}

void CompareTable::fitColumns()
{
    const QFontMetrics fm(font());
    int widest = 0;
    for (int r = 0; r < rowCount(); ++r)
        if (const QTableWidgetItem *i = item(r, ConfigColumn))
            for (const QString &piece : i->text().split(QRegularExpression(QStringLiteral("[\\x{200B} ]"))))
                widest = std::max(widest, fm.horizontalAdvance(piece));
    if (widest == 0) return;
    const int need = widest + iconSize().width() + 4 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 12;
    int others = 0;
    for (int c = 0; c < ColumnCount; ++c)
        if (c != ConfigColumn && c != SinkColumn && !isColumnHidden(c)) others += horizontalHeader()->sectionSize(c);
    const int sink = std::max(sizeHintForColumn(SinkColumn), horizontalHeader()->sectionSizeHint(SinkColumn));
    // with room to spare before it comes back (a scroll bar's width), so that it never flickers
    const int spare = viewport()->width() - others - sink - need;
    if (!isColumnHidden(SinkColumn) && spare < 0) setColumnHidden(SinkColumn, true);
    else if (isColumnHidden(SinkColumn) && spare > 2 * style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this))
        setColumnHidden(SinkColumn, false);
}

QSize CompareTable::sizeHint() const
{
    QSize size = QTableWidget::sizeHint();
    const int rows = std::max(rowCount(), 2);  // an empty table keeps room for two
    int body = verticalHeader()->length();
    if (rowCount() < rows) body += (rows - rowCount()) * verticalHeader()->defaultSectionSize();
    int h = horizontalHeader()->sizeHint().height() + body + 2 * frameWidth();
    if (horizontalScrollBar()->isVisible()) h += horizontalScrollBar()->sizeHint().height();
    size.setHeight(h);
    return size;
}

QSize CompareTable::minimumSizeHint() const
{
    // Every row whole, except that a row taller than two lines (a long list of mixers wrapped
    // beside a slide's parameters) counts as two: the table scrolls instead of pushing the window
    // past the screen (a 3:1 hybrid's slide needed 1,019 px of 768).
    const int cap = 2 * fontMetrics().lineSpacing() + 8;
    int capped = 0;
    for (int r = 0; r < rowCount(); ++r) capped += std::max(0, rowHeight(r) - cap);
    const QSize whole = sizeHint();
    return QSize(QTableWidget::minimumSizeHint().width(), whole.height() - capped);
}

void CompareTable::resizeEvent(QResizeEvent *event)
{
    // Narrow (a slide with its parameters or explanation shown): the parameters and FLOPs go to the
    // configurations' tooltips, and the names keep the room to be read (beside slide 15's
    // explanation at 1024 x 768 each list of mixers took three lines and the third row was cut).
    const bool narrow = event->size().width() < kNarrow;
    setColumnHidden(FlopsColumn, narrow);
    setColumnHidden(ParamsColumn, narrow);
    QTableWidget::resizeEvent(event);
    fitColumns();
    const int before = sizeHint().height();
    resizeRowsToContents();
    if (sizeHint().height() != before || height() != before) updateGeometry();
}

void CompareTable::setStatus(int row, const QString &status)
{
    if (QTableWidgetItem *i = item(row, StatusColumn); i && i->text() != status) i->setText(status);
}

void CompareTable::showHeldout(int row, const TransformerResult::HeldoutPoint &point)
{
    const QString tip = tr("Held-out at step %1: the figures so far; the final ones come when every configuration has "
                           "ended").arg(point.step);
    const std::pair<Column, double> figures[] = { { LossColumn, point.loss },
                                                  { RepeatColumn, point.secondHalfLoss },
                                                  { AccuracyColumn, point.accuracy } };
    for (const auto &[column, value] : figures) {
        QTableWidgetItem *i = item(row, column);
        if (!i) continue;
        i->setText(orDash(value, 3));
        i->setForeground(palette().color(QPalette::PlaceholderText));
        i->setToolTip(tip);
    }
}

QString CompareTable::cell(int row, Column column) const
{
    const QTableWidgetItem *i = item(row, column);
    return i ? QString(i->text()).remove(QChar(0x200B)) : QString();
}

} // namespace fb
