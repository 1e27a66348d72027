#pragma once
// The transformer lab's comparison mode (issue 29): up to four configurations, each a line of
// overrides of the lab's current values ("kv_heads=1", "attn_gate=on", "loop=2, layers=1"; "base"
// or an empty line's placeholder is the lab's values themselves; an empty line is left out), trained
// side by side on the same task, seed and data by a CompareJob (never on the GUI thread: a 30 Hz
// timer takes what the workers published). It shows one loss chart (held-out curves, the training
// loss faint behind them) and one accuracy chart with a colour per configuration, and the table of
// sizes and figures. Computes nothing: core/compare builds the configurations and trains them.
#include "core/compare/compare_run.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTimer;

namespace fb {

class CompareChart;
class CompareJob;
class CompareTable;
class HeatmapGrid;
struct TransformerFrame;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    // base: fills the lab's current configuration, returns "" or why it cannot be trained.
    using BaseSource = std::function<std::string(TransformerConfig &)>;

    explicit ComparePanel(BaseSource base, QWidget *parent = nullptr);
    ~ComparePanel() override;  // abandons a running comparison and joins

    // Starts a comparison of the lines' configurations; "" or the one line shown instead.
    QString startCompare();
    void stop();
    bool running() const;
    // A comparison that ended, drawn as such (what the job hands back at the end; tests).
    void showRows(const std::vector<CompareRow> &rows);
    void setFontScale(double scale);

    QLineEdit *line(int i) const { return lines_[std::size_t(i)]; }
    QPushButton *compareButton() const { return compare_; }
    QPushButton *stopButton() const { return stop_; }
    CompareChart *lossChart() const { return loss_; }
    CompareChart *accuracyChart() const { return accuracy_; }
    bool accuracyShown() const;  // false: "no exact answers for this task" in its place
    // A configuration's attention maps at its end, in place of the curves (a click on its row in the
    // table); false when it has none (not trained yet). showCurves returns to the curves.
    bool showMaps(int row);
    void showCurves();
    bool mapsShown() const;
    HeatmapGrid *maps() const { return maps_; }
    CompareTable *table() const { return table_; }
    QLabel *status() const { return status_; }

private:
    void pull();
    void finish(std::vector<CompareRow> rows);
    void startCharts(const std::vector<CompareRow> &rows);
    void setAccuracyKnown(bool exactAnswers);
    void updateButtons();

    BaseSource base_;
    std::vector<QLineEdit *> lines_;
    QPushButton *compare_ = nullptr;
    QPushButton *stop_ = nullptr;
    QLabel *status_ = nullptr;
    CompareChart *loss_ = nullptr;
    CompareChart *accuracy_ = nullptr;
    QLabel *noAnswers_ = nullptr;
    QStackedWidget *accuracyPage_ = nullptr;
    QStackedWidget *chartsPage_ = nullptr;  // the curves, or one configuration's maps
    QWidget *curves_ = nullptr;
    QWidget *mapsPage_ = nullptr;
    QLabel *mapsTitle_ = nullptr;
    HeatmapGrid *maps_ = nullptr;
    std::vector<std::shared_ptr<const TransformerFrame>> frames_;  // [row] its maps (null: none)
    std::vector<CompareRow> rows_;  // the rows the table shows
    CompareTable *table_ = nullptr;
    QTimer *timer_ = nullptr;
    std::unique_ptr<CompareJob> job_;
    std::vector<int> colours_;  // each configuration's colour: its line in the panel
    std::vector<CompareRow> sizes_;  // the rows before training (labels, sizes)
    bool anyAccuracy_ = false;
};

} // namespace fb
