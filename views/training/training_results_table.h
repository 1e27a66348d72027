#pragma once
// The results of the latent-feedback lab's runs under the two rows the chapter prints
// (5,700 / 0.5160 / 0.745 and 8,356 / 0.2494 / 0.896) for comparison. The newest run comes right
// under the chapter's rows, one row per arm, its status live ("training", "paused") until it ends.
#include <QTableWidget>

namespace fb {

struct TrainResult;

class TrainingResultsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { ArmColumn, ParamsColumn, LossColumn, AccuracyColumn, SecondsColumn, StatusColumn };
    static constexpr int kChapterRows = 2;

    explicit TrainingResultsTable(QWidget *parent = nullptr);

    // Adds the rows of a new run (one per arm, labels naming each arm and its settings) above the
    // earlier runs; the arms are numbered 0.. in the order of labels. keys (as many as labels, or
    // none) name each arm's whole configuration: an earlier row of the same key (the same numbers
    // again: a retrain on a slide) is removed; settings: each arm's settings, its label's tooltip.
    void beginRun(const QStringList &labels, const QStringList &keys = {}, const QStringList &settings = {});
    // Status text of the newest run's arms that have not ended yet ("training", "paused").
    void setPendingStatus(const QString &status);
    // An arm of the newest run ended with result / could not run (message says why).
    void setResult(int arm, const TrainResult &result, int stepsPlanned);
    void setError(int arm, const QString &message);
    // Removes every run's rows (the chapter's rows stay).
    void clearRuns();
    int runRows() const { return rowCount() - kChapterRows; }

    // "finished", "cancelled at step 57 of 220", "diverged at step 2: ...".
    static QString statusText(const TrainResult &result, int stepsPlanned);

private:
    // cells into the columns from first on
    void setCells(int row, const QStringList &cells, bool chapter, int first = ArmColumn);

    int newestArms_ = 0;
    QList<bool> pending_;  // per arm of the newest run
};

} // namespace fb
