#include "views/training_results_table.h"

#include "core/training/trainer.h"

#include <QHeaderView>
#include <QLocale>

#include <cmath>

namespace fb {

namespace {

QString grouped(long long n)
{
    return QLocale(QLocale::English).toString(n);
}

} // namespace

TrainingResultsTable::TrainingResultsTable(QWidget *parent)
    : QTableWidget(0, 6, parent)
{
    setHorizontalHeaderLabels({ tr("arm"), tr("params"), tr("held-out loss (nats)"), tr("accuracy"),
                                tr("seconds"), tr("status") });
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setToolTip(tr("Held-out loss and bucket accuracy on 2,048 fresh sequences after training"));

    appendRow({ tr("chapter: token-only"), grouped(5700), QStringLiteral("0.5160"), QStringLiteral("0.745"),
                QStringLiteral("—"), tr("printed in the chapter") }, true);
    appendRow({ tr("chapter: latent-feedback (exact)"), grouped(8356), QStringLiteral("0.2494"),
                QStringLiteral("0.896"), QStringLiteral("—"), tr("printed in the chapter") }, true);
}

void TrainingResultsTable::appendRow(const QStringList &cells, bool chapter, const QString &statusTip)
{
    const int row = rowCount();
    insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        if (c != ArmColumn && c != StatusColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (chapter) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
            item->setForeground(QColor(100, 100, 100));
        }
        if (c == StatusColumn && !statusTip.isEmpty()) item->setToolTip(statusTip);
        setItem(row, c, item);
    }
    scrollToBottom();
}

QString TrainingResultsTable::statusText(const TrainResult &r, int stepsPlanned)
{
    switch (r.status) {
    case TrainStatus::Finished:
        return tr("finished");
    case TrainStatus::Cancelled:
        return tr("cancelled at step %1 of %2").arg(r.curve.size()).arg(stepsPlanned);
    case TrainStatus::Diverged:
        return r.message.empty() ? tr("diverged") : tr("diverged: %1").arg(QString::fromStdString(r.message));
    }
    return QString::fromStdString(trainStatusName(r.status));
}

void TrainingResultsTable::addResult(const QString &label, const TrainResult &r, int stepsPlanned)
{
    auto num = [](double v, int digits) {
        return std::isfinite(v) ? QString::number(v, 'f', digits) : QStringLiteral("—");
    };
    appendRow({ label, grouped(r.params), num(r.heldoutLoss, 4), num(r.accuracy, 3), num(r.seconds, 2),
                statusText(r, stepsPlanned) },
              false, QString::fromStdString(r.message));
}

void TrainingResultsTable::addError(const QString &label, const QString &message)
{
    appendRow({ label, QStringLiteral("—"), QStringLiteral("—"), QStringLiteral("—"), QStringLiteral("—"),
                tr("not run: %1").arg(message) }, false, message);
}

void TrainingResultsTable::clearRuns()
{
    setRowCount(kChapterRows);
}

} // namespace fb
