#pragma once
// The results of the latent-feedback lab's runs, one row per arm and run, under the two rows the
// chapter prints (5,700 / 0.5160 / 0.745 and 8,356 / 0.2494 / 0.896) for comparison.
#include <QTableWidget>

#include <string>

namespace fb {

struct TrainResult;

class TrainingResultsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { ArmColumn, ParamsColumn, LossColumn, AccuracyColumn, SecondsColumn, StatusColumn };
    static constexpr int kChapterRows = 2;

    explicit TrainingResultsTable(QWidget *parent = nullptr);

    // Appends a row for one arm of a run; label names the arm and its settings.
    void addResult(const QString &label, const TrainResult &result, int stepsPlanned);
    // Appends a row for an arm whose training could not run (message says why).
    void addError(const QString &label, const QString &message);
    // Removes every run's row (the chapter's rows stay).
    void clearRuns();
    int runRows() const { return rowCount() - kChapterRows; }

    // "finished", "cancelled at step 57 of 220", "diverged: <message>".
    static QString statusText(const TrainResult &result, int stepsPlanned);

private:
    void appendRow(const QStringList &cells, bool chapter, const QString &statusTip = QString());
};

} // namespace fb
