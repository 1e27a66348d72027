#pragma once
// The training-curve chart of the latent-feedback lab (Figure 218.2, right): per arm a faint raw
// curve and its moving average in front, the token-only Bayes floor (0.5 nats) dashed grey with its
// label, and ghost curves kept from earlier runs. Curves grow live: each redraw is one
// QXYSeries::replace per series, never clear() + append().
#include "views/widgets/chart_panel.h"

#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>

#include <array>
#include <vector>

class QGraphicsSimpleTextItem;
class QLineSeries;

namespace fb {

class LossCurveChart : public ChartPanel {
    Q_OBJECT
public:
    static constexpr int kTokenOnly = 0;
    static constexpr int kLatent = 1;
    static constexpr double kBayesFloor = 0.5;  // nats, token-only arm, any number of buckets

    explicit LossCurveChart(QWidget *parent = nullptr);

    // A new run: empties the live curves, sets the title ("Toy accumulator, T decoding steps") and
    // the axes for steps training steps starting near ln(buckets).
    void startRun(int steps, int seqLen, int buckets);
    // Empties the live curves (ghosts stay).
    void clearLive();
    // Shows or hides one arm's curves and legend entry, and names it ("latent feedback, k = 2").
    void setArm(int arm, bool shown, const QString &name);
    // Appends training losses of one arm (kTokenOnly or kLatent) and redraws that arm.
    void appendLosses(int arm, const std::vector<double> &losses);
    const std::vector<double> &losses(int arm) const { return live_[std::size_t(arm)].losses; }

    // Moving-average window in steps (1 = no smoothing); re-smooths live and ghost curves.
    void setWindow(int window);
    int window() const { return window_; }

    // Keeps losses as a ghost curve (smoothed like the live ones) under label.
    void addGhost(const QString &label, const std::vector<double> &losses);
    void clearGhosts();
    // A ghost with this label and exactly these losses exists already.
    bool hasGhost(const QString &label, const std::vector<double> &losses) const;
    int ghostCount() const { return int(ghosts_.size()); }

    // The ghosts and the smoothing window as JSON, for scenes: {"window": 15, "ghosts": [{"label":
    // "latent k=2, seed 0", "losses": [...]}, ...]}. setState checks everything first: a malformed
    // object is refused with a message naming the field and changes nothing.
    QJsonObject state() const;
    QString setState(const QJsonObject &state);

    // Marks where an arm diverged: a red dashed line at that step, with the reason beside it.
    // Cleared by the next run (clearLive).
    void markDivergence(int arm, int step, const QString &reason);
    int divergedAt(int arm) const;  // 0: not diverged

    // Where the x axis ends: the planned steps before anything is drawn, then a round number just
    // past the longest curve (the axis follows the run), at most the longer of the two.
    static int xAxisEnd(int planned, int longest);

    // Scales the in-plot label with the chart's fonts (presentation mode).
    void setLabelScale(double scale);

    // For tests and benchmarks.
    QLineSeries *rawSeries(int arm) const { return live_[std::size_t(arm)].raw; }
    QLineSeries *smoothSeries(int arm) const { return live_[std::size_t(arm)].smooth; }
    QLineSeries *floorSeries() const { return floor_; }
    QString floorLabel() const;
    // the floor's label as placed, in the chart's coordinates (empty when hidden)
    QRectF floorLabelRect() const;

private:
    struct Curve {
        std::vector<double> losses;
        QString label;                  // ghosts
        QLineSeries *raw = nullptr;     // null for ghosts
        QLineSeries *smooth = nullptr;
        double smoothMax = 0.0;         // largest value of the moving average
    };

    void redraw(Curve &curve);
    void updateRanges();
    void placeFloorLabel();
    void placeLegend();
    void placeDivergence();
    void raiseLiveCurves();
    // The moving average as points; *maxValue receives its largest finite value (0 if none).
    QList<QPointF> smoothedPoints(const std::vector<double> &losses, double *maxValue) const;
    static QList<QPointF> rawPoints(const std::vector<double> &losses);

    std::array<Curve, 2> live_;
    std::vector<Curve> ghosts_;
    QLineSeries *floor_ = nullptr;
    QGraphicsSimpleTextItem *floorText_ = nullptr;
    int floorPlace_ = -1;  // placeFloorLabel's place now (-1: none yet)
    std::array<QLineSeries *, 2> divergence_ {};
    std::array<QGraphicsSimpleTextItem *, 2> divergenceText_ {};
    std::array<int, 2> divergedAt_ {};
    int window_ = 15;
    int steps_ = 220;
    double yTop_ = 1.5;
};

} // namespace fb
