#include "views/training/training_results_table.h"

#include "views/widgets/number_text.h"

#include "core/training/trainer.h"

#include <QHeaderView>
#include <QLocale>

#include <cmath>

namespace fb {

TrainingResultsTable::TrainingResultsTable(QWidget *parent)
    : QTableWidget(0, 6, parent)
{
    setHorizontalHeaderLabels({ tr("arm"), tr("params"), tr("held-out\nloss (nats)"), tr("accuracy"),
                                tr("seconds"), tr("status") });
    // The numbers keep their width; the arm's name and the status (a divergence's whole reason)
    // share the rest and wrap, so that a narrow table (beside the parameters on a 1024 x 768
    // slide) grows taller instead of scrolling sideways.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ArmColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(StatusColumn, QHeaderView::Stretch);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    setWordWrap(true);
    setToolTip(tr("Held-out loss and bucket accuracy on 2,048 fresh sequences after training"));

    setRowCount(kChapterRows);
    setCells(0, { tr("chapter: token-only"), text::grouped(5700), QStringLiteral("0.5160"), QStringLiteral("0.745"),
                  QStringLiteral("—"), tr("printed in the chapter") }, true);
    setCells(1, { tr("chapter: latent-feedback (exact)"), text::grouped(8356), QStringLiteral("0.2494"),
                  QStringLiteral("0.896"), QStringLiteral("—"), tr("printed in the chapter") }, true);
}

void TrainingResultsTable::setCells(int row, const QStringList &cells, bool chapter, int first)
{
    for (int i = 0; i < cells.size(); ++i) {
        const int c = first + i;
        auto *item = new QTableWidgetItem(cells[i]);
        if (c != ArmColumn && c != StatusColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (chapter) {
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
            item->setForeground(QColor(100, 100, 100));
        }
        setItem(row, c, item);
    }
}

void TrainingResultsTable::beginRun(const QStringList &labels, const QStringList &keys, const QStringList &settings)
{
    for (int row = rowCount() - 1; row >= kChapterRows; --row)
        if (keys.contains(item(row, ArmColumn)->data(Qt::UserRole).toString())) removeRow(row);
    newestArms_ = int(labels.size());
    pending_ = QList<bool>(labels.size(), true);
    for (int arm = 0; arm < labels.size(); ++arm) {
        const int row = kChapterRows + arm;
        insertRow(row);
        setCells(row, { labels[arm], QStringLiteral("…"), QStringLiteral("…"), QStringLiteral("…"),
                        QStringLiteral("…"), tr("training") }, false);
        if (arm < keys.size()) item(row, ArmColumn)->setData(Qt::UserRole, keys[arm]);
        if (arm < settings.size()) item(row, ArmColumn)->setToolTip(settings[arm]);
    }
    scrollToTop();
}

void TrainingResultsTable::setPendingStatus(const QString &status)
{
    for (int arm = 0; arm < newestArms_; ++arm)
        if (pending_[arm]) item(kChapterRows + arm, StatusColumn)->setText(status);
}

QString TrainingResultsTable::statusText(const TrainResult &r, int stepsPlanned)
{
    switch (r.status) {
    case TrainStatus::Finished:
        return tr("finished");
    case TrainStatus::Cancelled:
        return tr("cancelled at step %1 of %2").arg(r.curve.size()).arg(stepsPlanned);
    case TrainStatus::Diverged: {
        // The trainer's message usually says "diverged at step ..." itself.
        const QString message = QString::fromStdString(r.message);
        if (message.isEmpty()) return tr("diverged");
        return message.startsWith(QLatin1String("diverged")) ? message : tr("diverged: %1").arg(message);
    }
    }
    return QString::fromStdString(trainStatusName(r.status));
}

void TrainingResultsTable::setResult(int arm, const TrainResult &r, int stepsPlanned)
{
    if (arm < 0 || arm >= newestArms_) return;
    const int row = kChapterRows + arm;
    // the arm's cell stays: its name, its key and its settings
    setCells(row, { text::grouped(r.params), text::fixed(r.heldoutLoss, 4), text::fixed(r.accuracy, 3), text::fixed(r.seconds, 2),
                    statusText(r, stepsPlanned) }, false, ParamsColumn);
    if (!r.message.empty()) item(row, StatusColumn)->setToolTip(QString::fromStdString(r.message));
    if (std::isfinite(r.kpassHeldoutLoss)) {
        const QString tip = tr("Measured with the exact recurrence, as the model runs at inference. With the "
                               "%1-pass forward it was trained on: %2 nats, accuracy %3.")
                                .arg(r.passes).arg(text::fixed(r.kpassHeldoutLoss, 4), text::fixed(r.kpassAccuracy, 3));
        item(row, LossColumn)->setToolTip(tip);
        item(row, AccuracyColumn)->setToolTip(tip);
    }
    pending_[arm] = false;
}

void TrainingResultsTable::setError(int arm, const QString &message)
{
    if (arm < 0 || arm >= newestArms_) return;
    const int row = kChapterRows + arm;
    item(row, StatusColumn)->setText(tr("not run: %1").arg(message));
    item(row, StatusColumn)->setToolTip(message);
    pending_[arm] = false;
}

void TrainingResultsTable::clearRuns()
{
    setRowCount(kChapterRows);
    newestArms_ = 0;
    pending_.clear();
}

} // namespace fb
