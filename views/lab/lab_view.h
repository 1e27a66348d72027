#pragma once
// The base of every lab: a parameter panel and the figures it prints on the left, the lab's charts
// on the right. Parameter changes are computed on the lab's own worker thread (latest wins: one job
// in flight, one pending, stale results dropped); results are drawn on the GUI thread.
#include "core/run/latest_wins_runner.h"
#include "core/lab/param_spec.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QWidget>

#include <functional>
#include <memory>

class QSplitter;
class QUndoStack;
class QVBoxLayout;

namespace fb {

class Exportable;
class ExplanationPanel;
class ParamPanel;
class ReadoutPanel;

class LabView : public QWidget {
    Q_OBJECT
public:
    // spec: the lab's parameters and title (core's list, core/lab/lab.h).
    explicit LabView(const LabSpec &spec, QWidget *parent = nullptr);
    ~LabView() override;

    QString title() const { return title_; }
    QString name() const;  // command-line name, e.g. "decay-bound"
    ParamPanel *panel() const { return panel_; }
    ReadoutPanel *readouts() const { return readouts_; }
    // What the lab shows, beside or above its charts (each view's explanationText()); collapsible.
    ExplanationPanel *explanation() const { return explanation_; }
    QList<Exportable *> exportables() const { return exportables_; }
    // The exportable Export chart offers first: the one the lab shows now (index into exportables()).
    virtual int preferredExportable() const { return 0; }

    // Sets parameters (as scenes and the command line do). Refused values keep the current state
    // and return the message. An undoable change is a step on the lab's undo stack; animations set
    // their frames' values with undoable false.
    QString setValues(const ParamValues &values, bool undoable = true);
    // Each value in its range, the cross-key rules not asked (ParamPanel::setValuesWithoutRules).
    QString setValuesWithoutRules(const ParamValues &values);
    const ParamValues &values() const;

    // Every parameter change, from the panel or setValues: Ctrl+Z / Ctrl+Shift+Z (the window's
    // QUndoGroup holds one stack per lab).
    QUndoStack *undoStack() const { return undo_; }
    // One undo step from before to the current values (a scene applied in parts, as one step).
    void recordChange(const ParamValues &before);

    // Blocks until the latest computation has been applied to the charts (tests, export).
    // Virtual for labs that draw from their own workers (the training lab trains to the end first).
    virtual void waitForResult();

    // Milliseconds from the last parameter change to its result being drawn.
    double lastLatencyMs() const { return lastLatencyMs_; }

    // The lab's key figures in one line, for captions and tooltips.
    virtual QString caption() const;

    // Lab-specific state beyond the parameters (pinned curves, kept runs), saved in scenes.
    virtual QJsonObject extraState() const { return {}; }
    // Restores it; a malformed object is refused with a message and changes nothing.
    virtual QString setExtraState(const QJsonObject &) { return {}; }

    // Presentation: fonts and lines scaled for a projector (1 = normal), parameter column shown or not.
    virtual void setPresentationScale(double scale);
    void setSideVisible(bool visible);
    bool isSideVisible() const;

    // The parameter column's width range (it takes 28% of the lab in between).
    static constexpr int kSideMinWidth = 280;
    static constexpr int kSideMaxWidth = 360;

Q_SIGNALS:
    // A result was drawn (after the charts were updated).
    void resultShown();

protected:
    // Called whenever the lab's computation starts (shown, or waited for): a view with work of its
    // own besides it (the depth lab's classifier training) starts that here, held as it is.
    virtual void computationStarted() {}
    // What the worker hands back: a closure the GUI thread runs to draw one result (empty: nothing
    // to draw), and the job that makes it from the parameter values. LabViewFor<Lab> writes both.
    using Delivery = std::function<void()>;
    using Job = std::function<Delivery(const ParamValues &, const RunControl &)>;
    // Called once by subclasses' constructors (LabViewFor::beginComputing); computes the first result.
    void setJob(Job job);

    void setValidator(std::function<std::string(const ParamValues &)> validator);
    // The explanation panel's text under the section the lab follows: what the lab shows, the
    // formula it draws, what to try (rich text; each view's constructor sets its own).
    void setExplanation(const QString &html);
    // Adds a chart to the lab's chart area (row-wise; stretch as in QBoxLayout).
    void addChart(QWidget *chart, Exportable *exportable, int stretch = 1);
    // A container for custom chart layouts (e.g. two charts side by side).
    QVBoxLayout *chartArea() const { return chartArea_; }
    void registerExportable(Exportable *exportable) { exportables_.append(exportable); }
    // Extra controls under the parameter panel (buttons such as "pin").
    QVBoxLayout *sideArea() const { return sideArea_; }

    // Starts a computation with the current values (held until the view is shown, or waited for,
    // when computeOnlyWhenShown is set).
    void recompute();
    // A lab whose computation is a measurement of this machine (the cost-against-length lab), or
    // seconds of work (the depth lab's LSTM training): it runs while the lab is on screen, not at
    // the window's start behind other labs, where it burned a core nobody looked at (and measured a
    // machine busy with the other labs' work). Call before LabViewFor::beginComputing.
    void setComputeOnlyWhenShown(bool on) { computeOnlyWhenShown_ = on; }

    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

public:
    // A computation held back until the view is shown (setComputeOnlyWhenShown), for tests.
    bool computeHeld() const { return computeHeld_; }

private:
    // The current values' computation on the worker, its result drawn on the GUI thread.
    void submitComputation();
    // The computation recompute() held back, if any (the view is shown, or its result waited for).
    void startHeldComputation();
    QString sectionLine() const;  // the section the lab follows, above its explanation
    void deliverFrame(std::uint64_t generation, const Delivery &draw, const QString &error);

    LabSpec spec_;
    QString title_;
    ParamPanel *panel_ = nullptr;
    ReadoutPanel *readouts_ = nullptr;
    ExplanationPanel *explanation_ = nullptr;
    QVBoxLayout *chartArea_ = nullptr;
    QVBoxLayout *sideArea_ = nullptr;
    QWidget *side_ = nullptr;
    QSplitter *split_ = nullptr;
    bool sideDragged_ = false;  // the user moved the splitter: keep their widths
    QList<Exportable *> exportables_;
    Job job_;
    QElapsedTimer sinceChange_;
    double lastLatencyMs_ = 0.0;
    std::unique_ptr<LatestWinsRunner> runner_;
    QUndoStack *undo_ = nullptr;
    ParamValues recorded_;   // the values the undo stack last saw
    bool recording_ = true;  // false while undo, redo or a non-undoable setValues applies values
    bool computeOnlyWhenShown_ = false;
    bool computeHeld_ = false;  // a computation recompute() held back while the view was hidden
};

} // namespace fb
