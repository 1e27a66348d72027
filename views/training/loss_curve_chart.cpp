#include "views/training/loss_curve_chart.h"

#include "views/widgets/line_cover.h"
#include "views/widgets/nice_number.h"

#include "views/training/moving_average.h"
#include "views/widgets/palette.h"
#include "views/widgets/series_points.h"

#include <QChart>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QJsonArray>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <iterator>
#include <cmath>

namespace fb {

namespace {

// More points than this per series are thinned for drawing: about one point per pixel of a wide
// chart. Every replace() costs Qt Charts time in proportion to the points, 30 times a second.
constexpr std::size_t kMaxDrawnPoints = 1200;

std::size_t strideFor(std::size_t n)
{
    return n <= kMaxDrawnPoints ? 1 : (n + kMaxDrawnPoints - 1) / kMaxDrawnPoints;
}

// 1, 2, 5 × 10^k: the tick spacing that gives about `ticks` intervals over span.
// A tick step of about span / ticks, rounded up to 1, 2 or 5 times a power of ten.
double niceInterval(double span, int ticks)
{
    return niceNumber(std::max(span / ticks, 1e-9), true);
}

QColor ghostColor(int index)
{
    // The Okabe-Ito colours not used by the two live arms, yellow left out (too faint on white).
    static const int order[] = { 2, 3, 5, 6, 4 };
    return seriesColor(order[index % 5]);
}

} // namespace

LossCurveChart::LossCurveChart(QWidget *parent)
    : ChartPanel(tr("Toy accumulator, 16 decoding steps"), parent)
{
    auto *x = setValueAxis(Qt::Horizontal, tr("training step"));
    auto *y = setValueAxis(Qt::Vertical, tr("cross entropy (nats)"));
    x->setLabelFormat(QStringLiteral("%d"));
    y->setLabelFormat(QStringLiteral("%.2f"));

    const QString names[2] = { tr("token-only feedback"), tr("latent feedback") };
    // Raw curves first so that every smoothed curve is drawn on top of them.
    for (int arm = 0; arm < 2; ++arm) {
        QColor faint = seriesColor(arm);
        faint.setAlphaF(0.28f);
        live_[std::size_t(arm)].raw = addLine(names[arm] + tr(" (raw)"), faint, 1.0);
    }
    floor_ = addLine(tr("Bayes floor for token-only, 0.5 nats"), QColor(128, 128, 128), 1.6, Qt::DashLine);
    for (int arm = 0; arm < 2; ++arm) live_[std::size_t(arm)].smooth = addLine(names[arm], seriesColor(arm), 2.6);
    for (int arm = 0; arm < 2; ++arm) hideFromLegend(chart(), live_[std::size_t(arm)].raw);
    hideFromLegend(chart(), floor_);  // labelled in the plot, as in the chapter's figure
    for (int arm = 0; arm < 2; ++arm) {
        QColor red(200, 30, 30);
        divergence_[std::size_t(arm)] = addLine(tr("diverged"), red, 1.8, Qt::DashLine);
        hideFromLegend(chart(), divergence_[std::size_t(arm)]);
        divergenceText_[std::size_t(arm)] = new QGraphicsSimpleTextItem(chart());
        divergenceText_[std::size_t(arm)]->setBrush(red);
        divergenceText_[std::size_t(arm)]->setZValue(10);
        divergenceText_[std::size_t(arm)]->hide();
    }
    // The legend stays above the plot, ghosts or not: it never moves to the side and takes the
    // plot's width.
    chart()->legend()->setAlignment(Qt::AlignTop);

    floorText_ = new QGraphicsSimpleTextItem(floorLabel(), chart());
    QFont f;
    f.setPointSizeF(10.5);
    floorText_->setFont(f);
    floorText_->setBrush(QColor(90, 90, 90));
    floorText_->setZValue(10);
    connect(chart(), &QChart::plotAreaChanged, this, [this] {
        placeFloorLabel();
        placeLegend();
    });

    startRun(220, 16, 4);
}

QString LossCurveChart::floorLabel() const
{
    return tr("Bayes floor for token-only, 0.5 nats");
}

void LossCurveChart::startRun(int steps, int seqLen, int buckets)
{
    steps_ = std::max(1, steps);
    yTop_ = std::max(1.0, 1.1 * std::log(double(std::max(2, buckets))));
    setTitle(tr("Toy accumulator, %1 decoding steps").arg(seqLen));
    clearLive();
}

void LossCurveChart::clearLive()
{
    floorPlace_ = -1;  // a new run: by the line again while the curves come
    for (Curve &c : live_) {
        c.losses.clear();
        redraw(c);
    }
    for (int arm = 0; arm < 2; ++arm) {
        divergedAt_[std::size_t(arm)] = 0;
        replacePoints(divergence_[std::size_t(arm)], {});
        divergenceText_[std::size_t(arm)]->hide();
    }
    updateRanges();
}

void LossCurveChart::markDivergence(int arm, int step, const QString &reason)
{
    if (arm < 0 || arm > 1 || step < 1) return;
    divergedAt_[std::size_t(arm)] = step;
    divergenceText_[std::size_t(arm)]->setText(reason.isEmpty() ? tr("diverged at step %1").arg(step) : reason);
    divergenceText_[std::size_t(arm)]->show();
    updateRanges();
    placeDivergence();
}

int LossCurveChart::divergedAt(int arm) const
{
    return arm < 0 || arm > 1 ? 0 : divergedAt_[std::size_t(arm)];
}

void LossCurveChart::placeDivergence()
{
    const QRectF plot = chart()->plotArea();
    double y = plot.top() + 6.0;
    for (int arm = 0; arm < 2; ++arm) {
        const int step = divergedAt_[std::size_t(arm)];
        if (step == 0) continue;
        const double top = static_cast<QValueAxis *>(axisY())->max();
        replacePoints(divergence_[std::size_t(arm)], { QPointF(step, 0.0), QPointF(step, top) });
        QGraphicsSimpleTextItem *text = divergenceText_[std::size_t(arm)];
        const QPointF at = chart()->mapToPosition(QPointF(step, top), divergence_[std::size_t(arm)]);
        const QRectF box = text->boundingRect();
        // Beside its line, inside the plot: to the right of it, or to the left near the right edge.
        double x = at.x() + 6.0;
        if (x + box.width() > plot.right() - 4.0) x = std::max(plot.left() + 4.0, at.x() - 6.0 - box.width());
        text->setPos(x, y);
        y += box.height() + 2.0;
    }
}

void LossCurveChart::placeLegend()
{
    // Attached above the plot: Qt lays it out.
}

void LossCurveChart::setArm(int arm, bool shown, const QString &name)
{
    if (arm < 0 || arm > 1) return;
    Curve &c = live_[std::size_t(arm)];
    c.smooth->setName(name);
    c.raw->setName(name + tr(" (raw)"));
    c.smooth->setVisible(shown);
    c.raw->setVisible(shown);
    for (QLegendMarker *m : chart()->legend()->markers(c.smooth)) m->setVisible(shown);
    hideFromLegend(chart(), c.raw);
    placeLegend();
}

void LossCurveChart::appendLosses(int arm, const std::vector<double> &losses)
{
    if (arm < 0 || arm > 1 || losses.empty()) return;
    Curve &c = live_[std::size_t(arm)];
    c.losses.insert(c.losses.end(), losses.begin(), losses.end());
    redraw(c);
    updateRanges();
}

void LossCurveChart::setWindow(int window)
{
    window_ = std::max(1, window);
    for (Curve &c : live_) redraw(c);
    for (Curve &c : ghosts_) redraw(c);
    updateRanges();
}

void LossCurveChart::addGhost(const QString &label, const std::vector<double> &losses)
{
    QColor color = ghostColor(int(ghosts_.size()));
    color.setAlphaF(0.85f);
    Curve ghost;
    ghost.losses = losses;
    ghost.label = label;
    ghost.smooth = addLine(tr("ghost: %1").arg(label), color, 2.0, Qt::DashDotLine);
    ghosts_.push_back(std::move(ghost));
    redraw(ghosts_.back());
    raiseLiveCurves();
    updateRanges();
    placeLegend();
}

void LossCurveChart::raiseLiveCurves()
{
    // Qt Charts draws series in the order they were added: add the live smoothed curves again so
    // that they stay in front of every ghost (and come last in the legend).
    for (Curve &c : live_) {
        const bool shown = c.smooth->isVisible();
        chart()->removeSeries(c.smooth);
        chart()->addSeries(c.smooth);
        c.smooth->attachAxis(axisX());
        c.smooth->attachAxis(axisY());
        for (QLegendMarker *m : chart()->legend()->markers(c.smooth)) m->setVisible(shown);
    }
}

bool LossCurveChart::hasGhost(const QString &label, const std::vector<double> &losses) const
{
    return std::any_of(ghosts_.begin(), ghosts_.end(),
                       [&](const Curve &g) { return g.label == label && g.losses == losses; });
}

void LossCurveChart::clearGhosts()
{
    for (Curve &g : ghosts_) removeSeries(g.smooth);
    ghosts_.clear();
    updateRanges();
    placeLegend();
}

QList<QPointF> LossCurveChart::rawPoints(const std::vector<double> &losses)
{
    QList<QPointF> pts;
    if (losses.size() <= kMaxDrawnPoints) {
        pts.reserve(qsizetype(losses.size()));
        for (std::size_t i = 0; i < losses.size(); ++i) pts.append(QPointF(double(i + 1), losses[i]));
        return pts;
    }
    // Thinned: the lowest and the highest loss of each bin of steps, in step order, so that the
    // faint raw curve keeps the width of its noise band.
    const std::size_t bin = 2 * ((losses.size() + kMaxDrawnPoints - 1) / kMaxDrawnPoints);
    pts.reserve(qsizetype(2 * (losses.size() / bin + 1)));
    for (std::size_t start = 0; start < losses.size(); start += bin) {
        const std::size_t end = std::min(losses.size(), start + bin);
        std::size_t lo = start, hi = start;
        for (std::size_t i = start; i < end; ++i) {
            if (losses[i] < losses[lo]) lo = i;
            if (losses[i] > losses[hi]) hi = i;
        }
        const std::size_t first = std::min(lo, hi), second = std::max(lo, hi);
        pts.append(QPointF(double(first + 1), losses[first]));
        if (second != first) pts.append(QPointF(double(second + 1), losses[second]));
    }
    return pts;
}

QList<QPointF> LossCurveChart::smoothedPoints(const std::vector<double> &losses, double *maxValue) const
{
    // The i-th mean covers steps i + 1 .. i + w; it is drawn at the window's centre so that it
    // lies over the raw curve it averages.
    const std::vector<double> avg = movingAverage(losses, window_);
    const double offset = (window_ + 1) / 2.0;
    QList<QPointF> pts;
    const std::size_t stride = strideFor(avg.size());
    pts.reserve(qsizetype(avg.size() / stride + 2));
    for (std::size_t i = 0; i < avg.size(); i += stride) pts.append(QPointF(double(i) + offset, avg[i]));
    *maxValue = 0.0;
    for (double v : avg)
        if (std::isfinite(v)) *maxValue = std::max(*maxValue, v);
    if (!avg.empty() && (avg.size() - 1) % stride != 0)
        pts.append(QPointF(double(avg.size() - 1) + offset, avg.back()));
    return pts;
}

void LossCurveChart::redraw(Curve &curve)
{
    if (curve.raw) replacePoints(curve.raw, rawPoints(curve.losses));
    if (curve.smooth) replacePoints(curve.smooth, smoothedPoints(curve.losses, &curve.smoothMax));
}

void LossCurveChart::updateRanges()
{
    int dataMax = 0;
    double yMax = yTop_;
    for (const Curve *set : { live_.data(), ghosts_.data() }) {
        const std::size_t n = set == live_.data() ? live_.size() : ghosts_.size();
        for (std::size_t i = 0; i < n; ++i) {
            dataMax = std::max(dataMax, int(set[i].losses.size()));
            yMax = std::max(yMax, set[i].smoothMax * 1.05);
        }
    }
    const int xMax = xAxisEnd(steps_, dataMax);
    // The axis only ever grows within a run, so the picture does not jump while it trains.
    yTop_ = yMax;

    auto *x = static_cast<QValueAxis *>(axisX());
    auto *y = static_cast<QValueAxis *>(axisY());
    bool moved = false;
    if (setTickedRange(x, 0.0, xMax, niceInterval(xMax, 8))) {
        replacePoints(floor_, { QPointF(0.0, kBayesFloor), QPointF(double(xMax), kBayesFloor) });
        moved = true;
    }
    if (setTickedRange(y, 0.0, yMax, niceInterval(yMax, 6))) moved = true;
    if (moved) placeDivergence();
    placeFloorLabel();  // the curves moved too
}

int LossCurveChart::xAxisEnd(int planned, int longest)
{
    // Nothing drawn yet: the run to come. Then the axis follows the longest curve, a round step
    // number ahead of it, and never beyond the longer of the run and the curves.
    if (longest <= 0) return std::max(1, planned);
    const int cap = std::max(planned, longest);
    const double interval = niceInterval(std::max(longest, 10), 8);
    const int end = int(std::ceil(std::max(longest, 10) * 1.05 / interval) * interval);
    return std::min(cap, std::max(end, 1));
}

void LossCurveChart::placeFloorLabel()
{
    if (!floorText_ || !floor_) return;
    const QRectF plot = chart()->plotArea();
    const QPointF onLine = chart()->mapToPosition(QPointF(0.0, kBayesFloor), floor_);
    // Under the dashed line or over it, at the plot's right or left end; when each of those hides
    // part of a curve, in the plot's top right or left corner, led by a dash so that it names the
    // line (at the end of a run the token-only curve lies on the line and the latent curve a few
    // pixels under it on a short plot, 1024 x 768 in lecture mode). The first place that hides the
    // least of the smoothed curves (ghosts too) and of a divergence's text; the place it has keeps it
    // unless another hides clearly less, so it does not hop while the curves grow.
    const QString nearLine = floorLabel(), inCorner = tr("- - %1").arg(floorLabel());
    const QFontMetricsF metrics(floorText_->font());
    const QSizeF nearSize(metrics.horizontalAdvance(nearLine), metrics.height()),
        cornerSize(metrics.horizontalAdvance(inCorner), metrics.height());
    const double under = onLine.y() + 4.0, over = onLine.y() - 4.0 - nearSize.height(), top = plot.top() + 6.0;
    const auto right = [&](const QSizeF &size) { return plot.right() - size.width() - 8.0; };
    const double left = plot.left() + 8.0;
    const struct {
        QPointF at;
        bool corner;
    } candidates[] = { { { right(nearSize), under }, false }, { { left, under }, false }, { { right(nearSize), over }, false },
                       { { left, over }, false }, { { right(cornerSize), top }, true }, { { left, top }, true } };
    std::vector<QLineSeries *> curves;
    for (const Curve &c : live_)
        if (c.smooth->isVisible()) curves.push_back(c.smooth);
    for (const Curve &g : ghosts_) curves.push_back(g.smooth);
    // how much of the curves a place hides (pixels of line, by the steps under it: the points are in
    // step order), and of a divergence's text
    const auto hidden = [&](const QRectF &place) {
        double length = 0.0;
        for (QLineSeries *curve : curves) {
            const double from = chart()->mapToValue(place.topLeft(), curve).x(),
                         to = chart()->mapToValue(place.topRight(), curve).x();
            const QList<QPointF> points = curve->points();
            auto first = std::lower_bound(points.cbegin(), points.cend(), from,
                                          [](const QPointF &p, double x) { return p.x() < x; });
            if (first != points.cbegin()) --first;  // the segment entering the place
            QList<QPointF> under;
            for (auto it = first; it != points.cend(); ++it) {
                under.append(chart()->mapToPosition(*it, curve));
                if (it->x() > to) break;  // the segment leaving it
            }
            length += insideLength(under, place);
        }
        for (const QGraphicsSimpleTextItem *text : divergenceText_)
            if (text->isVisible() && text->mapRectToParent(text->boundingRect()).intersects(place)) length += 1e4;
        return length;
    };
    int best = -1;
    double least = 0.0, current = -1.0;
    for (int i = 0; i < int(std::size(candidates)); ++i) {
        // with 5 pixels of air around it: a curve brushing the letters counts
        const QRectF text(candidates[i].at, candidates[i].corner ? cornerSize : nearSize);
        if (text.top() < plot.top() - 1 || text.bottom() > plot.bottom() + 1) continue;
        const double cost = hidden(text.adjusted(-5, -5, 5, 5));
        if (i == floorPlace_) current = cost;
        if (best < 0 || cost < least) {
            best = i;
            least = cost;
        }
    }
    if (best < 0) best = 0;
    if (current >= 0.0 && current <= least + 8.0) best = floorPlace_;  // where it is, unless clearly worse
    floorPlace_ = best;
    const QString text = candidates[best].corner ? inCorner : nearLine;
    if (floorText_->text() != text) floorText_->setText(text);
    floorText_->setPos(candidates[best].at);
    floorText_->setVisible(plot.height() > 4 * nearSize.height());
}

QRectF LossCurveChart::floorLabelRect() const
{
    return floorText_->isVisible() ? floorText_->boundingRect().translated(floorText_->pos()) : QRectF();
}

QJsonObject LossCurveChart::state() const
{
    QJsonArray ghosts;
    for (const Curve &g : ghosts_) {
        QJsonArray losses;
        for (double v : g.losses) losses.append(v);
        ghosts.append(QJsonObject { { QStringLiteral("label"), g.label }, { QStringLiteral("losses"), losses } });
    }
    QJsonObject o { { QStringLiteral("window"), window_ } };
    if (!ghosts.isEmpty()) o.insert(QStringLiteral("ghosts"), ghosts);
    return o;
}

QString LossCurveChart::setState(const QJsonObject &state)
{
    constexpr qsizetype kMaxGhosts = 16, kMaxSteps = 100000;
    int window = window_;
    const QJsonValue w = state.value(QStringLiteral("window"));
    if (!w.isUndefined()) {
        if (!w.isDouble() || w.toDouble() != std::floor(w.toDouble()) || w.toDouble() < 1 || w.toDouble() > 101)
            return tr("extra.window must be an integer in [1, 101]");
        window = w.toInt();
    }
    const QJsonValue g = state.value(QStringLiteral("ghosts"));
    if (!g.isUndefined() && !g.isArray()) return tr("extra.ghosts must be an array");
    const QJsonArray arr = g.toArray();
    if (arr.size() > kMaxGhosts) return tr("extra.ghosts holds %1 curves; at most %2").arg(arr.size()).arg(kMaxGhosts);
    std::vector<std::pair<QString, std::vector<double>>> ghosts;
    for (qsizetype i = 0; i < arr.size(); ++i) {
        const QJsonObject o = arr[i].toObject();
        const QJsonArray losses = o.value(QStringLiteral("losses")).toArray();
        if (!o.value(QStringLiteral("label")).isString() || losses.isEmpty() || losses.size() > kMaxSteps)
            return tr("extra.ghosts[%1] needs a label and 1 to %2 losses").arg(i).arg(kMaxSteps);
        std::vector<double> values;
        values.reserve(std::size_t(losses.size()));
        for (qsizetype k = 0; k < losses.size(); ++k) {
            const double v = losses[k].toDouble(-1.0);
            if (!losses[k].isDouble() || !std::isfinite(v) || v < 0.0)
                return tr("extra.ghosts[%1] loss %2 must be a finite number >= 0").arg(i).arg(k);
            values.push_back(v);
        }
        ghosts.emplace_back(o.value(QStringLiteral("label")).toString().left(120), std::move(values));
    }
    clearGhosts();
    window_ = window;
    for (const auto &[label, losses] : ghosts) addGhost(label, losses);
    setWindow(window);
    return {};
}

void LossCurveChart::setLabelScale(double scale)
{
    QFont f = floorText_->font();
    f.setPointSizeF(10.5 * scale);
    floorText_->setFont(f);
    for (QGraphicsSimpleTextItem *t : divergenceText_) t->setFont(f);
    placeFloorLabel();
    placeDivergence();
    placeLegend();
}

} // namespace fb
