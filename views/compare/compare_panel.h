#pragma once
// The transformer lab's comparison mode (issue 29): up to five configurations, each a line of
// overrides of the lab's current values ("kv_heads=1", "attn_gate=on", "loop=2, layers=1"; "base"
// or an empty line's placeholder is the lab's values themselves; an empty line is left out), trained
// side by side on the same task, seed and data by a CompareJob (never on the GUI thread). The lab's
// run controls drive it as they drive a single training (Start, Pause, Stop, a lecture's space and a
// slide's "train": "on-enter"): the lab calls startCompare(), then pull() on its 30 Hz timer, which
// takes what the workers published. It shows one loss chart (held-out curves, the training loss
// faint behind them) and one accuracy chart with a colour per configuration, and the table of sizes
// and figures; after a comparison, showStep redraws the curves as they were at a step (animations).
// Computes nothing: core/compare builds the configurations and trains them.
#include "core/compare/compare_run.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QStackedWidget;

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

    // Starts a comparison of the lines' configurations; "" or the one line shown instead. The owner
    // then calls pull() until it returns true.
    QString startCompare();
    // Takes what the workers published into the charts; true once the comparison has ended (its
    // rows drawn, or its error shown) or when none runs.
    bool pull();
    void stop();  // after the configurations' current steps; the rows keep what each reached
    void setPaused(bool paused);
    bool held() const;  // no step runs until resumed (parked in the pause, or ended)
    void join();        // blocks until the workers have returned (the command line only)
    // Abandons a running comparison (joined within a step) and empties the charts and the table.
    void clear();
    bool running() const;
    int stepsDone() const;   // training steps done over every configuration
    int stepsTotal() const;  // planned, over every configuration
    int configurations() const { return int(sizes_.size()); }  // of the comparison started last
    int longestRun() const;  // the most steps any configuration plans (the charts' step axis)
    // The ended comparison's curves as they were at step (0 .. longestRun()): what an animation draws.
    void showStep(int step);
    bool hasRows() const { return !rows_.empty(); }
    // Before a comparison (none running, none shown): whether the lab's task has exact answers, so
    // the accuracy chart and column are there before Start, as they will be after it.
    void expectAnswers(bool exactAnswers);
    // Induction tasks: the loss chart and the table's extra column give the held-out loss on the
    // repeat (the first half is random: the whole sequence's loss hides the differences).
    bool showsRepeat() const { return repeat_; }
    // A comparison that ended, drawn as such (what the job hands back at the end; tests).
    void showRows(const std::vector<CompareRow> &rows);
    void setFontScale(double scale);

    QLineEdit *line(int i) const { return lines_[std::size_t(i)]; }
    CompareChart *lossChart() const { return loss_; }
    CompareChart *accuracyChart() const { return accuracy_; }
    // mqar: each configuration's recall by number of pairs, shown in the accuracy chart's place once
    // a comparison has ended with recall points (the accuracy over steps returns with a new run or
    // an animation's step before the end; showStep at the end shows the recall again).
    CompareChart *recallChart() const { return recall_; }
    bool recallShown() const;
    bool accuracyShown() const;  // false: the task has no exact answers (the chart and column hidden)
    // A configuration's attention maps at its end, in place of the curves (a click on its row in the
    // table); false when it has none (not trained yet). showCurves returns to the curves.
    bool showMaps(int row);
    void showCurves();
    bool mapsShown() const;
    HeatmapGrid *maps() const { return maps_; }
    CompareTable *table() const { return table_; }
    QLabel *status() const { return status_; }

Q_SIGNALS:
    // Return pressed in a line: the lab starts the comparison, as its Start does.
    void startRequested();

private:
    void finish(std::vector<CompareRow> rows);
    void startCharts(const std::vector<CompareRow> &rows);
    void setAccuracyKnown(bool exactAnswers);
    void showRecall(const std::vector<CompareRow> &rows);  // the recall chart when rows have points
    void updateButtons();

    BaseSource base_;
    std::vector<QLineEdit *> lines_;
    QLabel *status_ = nullptr;
    CompareChart *loss_ = nullptr;
    CompareChart *accuracy_ = nullptr;
    CompareChart *recall_ = nullptr;
    QStackedWidget *accuracySlot_ = nullptr;  // accuracy_ or recall_
    QStackedWidget *chartsPage_ = nullptr;  // the curves, or one configuration's maps
    QWidget *curves_ = nullptr;
    QWidget *mapsPage_ = nullptr;
    QLabel *mapsTitle_ = nullptr;
    HeatmapGrid *maps_ = nullptr;
    std::vector<std::shared_ptr<const TransformerFrame>> frames_;  // [row] its maps (null: none)
    std::vector<CompareRow> rows_;  // the rows the table shows
    CompareTable *table_ = nullptr;
    std::unique_ptr<CompareJob> job_;
    std::vector<int> colours_;  // each configuration's colour: its line in the panel
    std::vector<CompareRow> sizes_;  // the rows before training (labels, sizes)
    std::vector<int> done_;          // [configuration] training steps pulled
    bool repeat_ = false;            // the held-out loss on the repeat (induction tasks)
};

} // namespace fb
