#pragma once
// The transformer lab's ablation grid (issue 27): a layer x head table of the trained model where
// a click on a cell (or on a head's attention map, watchMaps) switches that head off or on again,
// several at once; "Restore all"; zero- or mean-ablation. The held-out loss and, on the induction
// tasks, the repeat loss with those heads off are recomputed at once on a worker (core's
// HeadAblator through a LatestWinsRunner: the job copies what it reads and hands back values; the
// GUI thread only draws them) and shown beside the unablated figures. The cells are coloured by
// the table of each head ablated alone (the loss increase), or by the heads' previous-token,
// induction or composition scores, with every figure in the cell's text where it fits and in its
// hover tip. Starts no thread itself: the runner is core's.
#include "core/interpret/ablation.h"
#include "core/interpret/head_ablator.h"
#include "core/run/latest_wins_runner.h"
#include "core/transformer/transformer_report.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace fb {

class HeatmapGrid;
class ValueGrid;

class HeadAblationPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeadAblationPanel(QWidget *parent = nullptr);
    ~HeadAblationPanel() override;  // cancels and joins the worker before the widgets go

    // A finished run: its table and scores are shown; clicks ablate from now on. Copies what it keeps.
    void setResult(const TransformerResult &result);
    // No trained model (a new run, a reset): the grid says what it will show, clicks do nothing.
    void clear();
    // A click on one of these maps toggles the head of the panel clicked (panel = layer * H + head).
    void watchMaps(HeatmapGrid *maps);

    void toggleHead(int layer, int head);
    // Switches a layer's FFN (0-based) or the feedback gate (feedback models) off or on again.
    void toggleFfn(int layer);
    void toggleFeedback();
    void restoreAll();
    void setMeanAblation(bool mean);
    void setFontScale(double scale);

    // For tests and the lecture: the heads off now, and the figures shown for them.
    const std::vector<HeadId> &heads() const { return heads_; }
    const std::vector<int> &ffnsOff() const { return ffnOff_; }
    bool feedbackShut() const { return feedbackShut_; }
    bool busy() const { return pending_; }
    double ablatedHeldout() const { return ablatedHeldout_; }
    double ablatedRepeat() const { return ablatedRepeat_; }
    // One line for the lab's readouts: the heads off and their held-out loss, or "—".
    QString summary() const;
    ValueGrid *grid() const { return grid_; }
    QLabel *figures() const { return figures_; }
    // Blocks until the worker is idle and delivers its result (tests only).
    void waitForWorker();

Q_SIGNALS:
    // The heads off changed or their losses arrived (the lab's readouts follow).
    void figuresChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Outcome {
        std::shared_ptr<const TrainedTransformer> model;  // whose: a job of an earlier run is dropped
        Ablation parts;  // heads, FFNs and feedback switched off (kind too)
        TransformerEvaluator::Losses losses;
        std::shared_ptr<const HeadAblator::Table> table;  // when this job computed one
        QString error;
    };
    // Holds the worker's ablator between jobs; only the worker touches what it points to.
    struct Slot {
        std::unique_ptr<HeadAblator> ablator;
    };
    void submit();
    void deliver(std::uint64_t generation, const Outcome &outcome);
    void redraw();
    AblationKind kind() const;
    Ablation parts() const;  // what is off now
    bool nothingOff() const { return heads_.empty() && ffnOff_.empty() && !feedbackShut_; }
    void rebuildPartButtons(bool feedback);
    QString partNames() const;

    QComboBox *measure_ = nullptr, *kind_ = nullptr;
    QPushButton *restore_ = nullptr;
    ValueGrid *grid_ = nullptr;
    QLabel *figures_ = nullptr;

    std::shared_ptr<const TrainedTransformer> model_;
    std::shared_ptr<Slot> slot_;
    int layers_ = 0, heads_n_ = 0;
    bool repeat_ = false;
    int phaseChange_ = -1;
    std::vector<std::vector<double>> prevToken_, induction_, composition_, sink_;
    double sinkShare_ = TransformerResult::nan;  // over every head
    std::shared_ptr<const HeadAblator::Table> tables_[2];  // [kind]: zero, mean (null: not yet)
    std::vector<HeadId> heads_;
    std::vector<int> ffnOff_;    // layers whose FFN is off
    bool feedbackShut_ = false;
    QWidget *partsRow_ = nullptr;  // a toggle per FFN, and the feedback gate's
    std::vector<double> ffnAlone_, ffnAloneRepeat_;  // the run's table: each FFN alone off
    double feedbackAlone_ = TransformerResult::nan, feedbackAloneRepeat_ = TransformerResult::nan;
    double baseHeldout_ = TransformerResult::nan, baseRepeat_ = TransformerResult::nan;
    double ablatedHeldout_ = TransformerResult::nan, ablatedRepeat_ = TransformerResult::nan;
    bool pending_ = false;
    std::unique_ptr<LatestWinsRunner> runner_;  // last: destroyed first
};

} // namespace fb
