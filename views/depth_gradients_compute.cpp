#include "views/depth_gradients_compute.h"

#include "core/depth/depth_lab_spec.h"

#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

// (index, values[index] / values.back()), leaving out what a log axis cannot show.
QList<QPointF> relativePoints(const std::vector<double> &values)
{
    QList<QPointF> pts;
    if (values.empty() || !(values.back() > 0.0)) return pts;
    const double top = values.back();
    pts.reserve(qsizetype(values.size()));
    for (std::size_t k = 0; k < values.size(); ++k) {
        const double v = values[k] / top;
        if (std::isfinite(v) && v >= kSmallestDrawn) pts.append(QPointF(double(k), v));
    }
    return pts;
}

ParamValues subset(const ParamValues &v, std::initializer_list<const char *> keys)
{
    ParamValues s;
    for (const char *k : keys) {
        if (auto it = v.numbers.find(k); it != v.numbers.end()) s.numbers.insert(*it);
        if (auto it = v.texts.find(k); it != v.texts.end()) s.texts.insert(*it);
    }
    return s;
}

} // namespace

DepthLabFrame DepthLabComputer::compute(const ParamValues &values)
{
    DepthLabConfig c;
    if (const std::string err = depthLabFrom(values, c); !err.empty()) throw std::invalid_argument(err);
    const ParamValues depthKey = subset(values, { "depth", "width", "activation", "norm", "init_scale", "seed" });
    const ParamValues timeKey = subset(values, { "seq_len", "hidden", "radius", "forget_bias", "seed" });

    std::lock_guard lock(mutex_);
    if (!depthKey_ || !(*depthKey_ == depthKey)) {
        DepthGradients g = depthCache_.compute(c.stack, false);  // the lab shows no weight gradients
        depthPart_.plain = relativePoints(g.plain.gradNorm);
        depthPart_.residual = relativePoints(g.residual.gradNorm);
        depthPart_.depth = c.stack.depth;
        g.plain = {};
        g.residual = {};
        depthPart_.depthNumbers = g;
        depthPart_.depthLabel = QStringLiteral("%1%2, σ = %3, w = %4")
                                    .arg(QString::fromStdString(activationName(c.stack.activation)),
                                         c.stack.norm ? QStringLiteral(" + norm") : QString(),
                                         QString::fromStdString(formatNumber(c.stack.initScale)))
                                    .arg(c.stack.width);
        depthKey_ = depthKey;
        ++depthRuns_;
    }
    if (!timeKey_ || !(*timeKey_ == timeKey)) {
        TimeGradients t = timeGradients(c.time);
        timePart_.rnn = relativePoints(t.rnn);
        timePart_.lstmCell = relativePoints(t.lstmCell);
        timePart_.lstmHidden = relativePoints(t.lstmHidden);
        // the carousel relative to dL/dc_T, like the cell curve
        timePart_.lstmCarousel.clear();
        if (!t.lstmCell.empty() && t.lstmCell.back() > 0.0)
            for (std::size_t k = 0; k < t.lstmCarousel.size(); ++k) {
                const double v = t.lstmCarousel[k] / t.lstmCell.back();
                if (std::isfinite(v) && v >= kSmallestDrawn) timePart_.lstmCarousel.append(QPointF(double(k), v));
            }
        timePart_.seqLen = c.time.seqLen;
        timePart_.hidden = c.time.hidden;
        timePart_.radius = c.time.radius;
        timePart_.forgetBias = c.time.forgetBias;
        t.rnn = t.lstmCell = t.lstmHidden = t.lstmCarousel = {};
        timePart_.timeNumbers = t;
        timeKey_ = timeKey;
        ++timeRuns_;
    }
    DepthLabFrame f = timePart_;
    f.plain = depthPart_.plain;
    f.residual = depthPart_.residual;
    f.depth = depthPart_.depth;
    f.depthNumbers = depthPart_.depthNumbers;
    f.depthLabel = depthPart_.depthLabel;
    return f;
}

} // namespace fb
