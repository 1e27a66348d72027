#include "views/training/length_table.h"

#include "core/transformer/transformer_report.h"

#include <QHeaderView>
#include <QStyle>
#include <QStyleOptionViewItem>

#include <algorithm>
#include <cmath>

namespace fb {

LengthTable::LengthTable(QWidget *parent)
    : QTableWidget(0, 4, parent)
{
    setObjectName(QStringLiteral("lengthTable"));
    setHorizontalHeaderLabels({ tr("positions"), QStringLiteral("T"), QStringLiteral("2T"), QStringLiteral("4T") });
    verticalHeader()->setVisible(false);
    // Headers of two short lines ("4T" over "128"), the scheme column as wide as its contents, the
    // numbers sharing the rest: narrow enough to sit beside the loss curves on a 1024 x 768 slide.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setToolTip(tr("Held-out loss (nats) on fresh sequences of T, 2T and 4T tokens after training; for the "
                  "induction tasks on the repeat only. The RoPE rows rescale the frequencies for the longer lengths."));
}

void LengthTable::clearRows()
{
    // Empty, it is not shown: the loss curves beside it get the width (and their legend room).
    setVisible(false);
    setRowCount(0);
    horizontalHeaderItem(0)->setText(tr("positions"));
    for (int c = 1; c < 4; ++c) horizontalHeaderItem(c)->setText(c == 1 ? QStringLiteral("T") : QStringLiteral("%1T").arg(1 << (c - 1)));
}

void LengthTable::setRows(const std::vector<LengthRow> &rows, bool repeat)
{
    setRowCount(int(rows.size()));
    // The column of the positional schemes says which loss the cells hold (three short lines: the
    // table stays narrow enough for a slide with the parameter column).
    horizontalHeaderItem(0)->setText(repeat ? tr("positions\nrepeat loss\n(nats)") : tr("positions\nheld-out loss\n(nats)"));
    for (int r = 0; r < int(rows.size()); ++r) {
        const LengthRow &row = rows[std::size_t(r)];
        setItem(r, 0, new QTableWidgetItem(QString::fromStdString(row.label)));
        const std::vector<double> &loss = repeat ? row.repeatLoss : row.loss;
        for (int c = 0; c < 3; ++c) {
            const double v = std::size_t(c) < loss.size() ? loss[std::size_t(c)] : NAN;
            // "…": not measured yet (a run in progress), "—": no number at that length
            const bool pending = loss.empty() && std::size_t(c) < row.lengths.size();
            QString text = std::isfinite(v) ? QString::number(v, 'f', 3) : pending ? QStringLiteral("…") : QStringLiteral("—");
            if (c == 0 && std::size_t(c) < row.lengths.size())
                horizontalHeaderItem(1)->setText(QStringLiteral("T\n%1").arg(row.lengths[0]));
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(r, c + 1, item);
        }
    }
    // Tall enough for every row (at most four: RoPE and its three rescalings), no scroll bar.
    int height = horizontalHeader()->sizeHint().height() + 2 * frameWidth();
    for (int r = 0; r < rowCount(); ++r) height += rowHeight(r);
    setMinimumHeight(std::max(minimumHeight(), height));
    setMaximumHeight(std::max(maximumHeight(), height));
    if (!rows.empty() && rows.front().lengths.size() >= 3) {
        horizontalHeaderItem(2)->setText(QStringLiteral("2T\n%1").arg(rows.front().lengths[1]));
        horizontalHeaderItem(3)->setText(QStringLiteral("4T\n%1").arg(rows.front().lengths[2]));
    }
    setVisible(!rows.empty());
    updateGeometry();
}

QSize LengthTable::minimumSizeHint() const
{
    QSize s = QTableWidget::minimumSizeHint();
    if (rowCount() == 0) return s;
    // Each column as wide as its widest cell or header, plus a digit's width of air: the cells'
    // own padding is not in sizeHintForColumn.
    // The number columns at least as wide as a loss ("0.000", in a cell's margins) whatever they
    // hold: the "…" of a run in progress must not leave the table narrower than its numbers will
    // (the curves beside would narrow when they come).
    const QFontMetrics metrics = fontMetrics();
    const int air = metrics.horizontalAdvance(QLatin1Char('0'));
    // a cell holding "0.000", sized as the item delegate sizes one (through the style), and its grid line
    QStyleOptionViewItem cell;
    initViewItemOption(&cell);
    cell.text = QStringLiteral("0.000");
    cell.features |= QStyleOptionViewItem::HasDisplay;
    cell.displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
    const int loss = style()->sizeFromContents(QStyle::CT_ItemViewItem, &cell, QSize(), this).width() + (showGrid() ? 1 : 0);
    int width = 2 * frameWidth();
    for (int c = 0; c < columnCount(); ++c)
        width += std::max(horizontalHeader()->sectionSizeHint(c), std::max(sizeHintForColumn(c), c > 0 ? loss : 0) + air);
    return QSize(std::max(s.width(), width), s.height());
}

} // namespace fb
