#include "views/labs/rope_invariance_view.h"

#include "views/widgets/chart_panel.h"
#include "views/widgets/palette.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/series_points.h"

#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

// A round step (1, 2 or 5 times a power of ten) giving about `count` intervals over span.
double roundStep(double span, int count)
{
    if (!(span > 0.0)) return 1.0;
    const double raw = span / count;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

// Ticks at multiples of a round step, anchored at 0, whatever the range.
void roundTicks(QAbstractAxis *axis, double span, int count, bool integers)
{
    auto *a = qobject_cast<QValueAxis *>(axis);
    if (!a) return;
    const double step = integers ? std::max(1.0, roundStep(span, count)) : roundStep(span, count);
    a->setTickType(QValueAxis::TicksDynamic);
    a->setTickAnchor(0.0);
    a->setTickInterval(step);
    a->setLabelFormat(integers || step >= 1.0 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
}


} // namespace

RopeInvarianceView::RopeInvarianceView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    chart_ = new ChartPanel(tr("Same content, same separation, sliding window"));
    chart_->setValueAxis(Qt::Horizontal, tr("position m of the query (key at m + offset)"));
    chart_->setValueAxis(Qt::Vertical, tr("attention logit"));
    rope_ = chart_->addLine(tr("RoPE (rotated Q, K)"), seriesColor(0), 5.0);
    sinusoidal_ = chart_->addLine(tr("additive sinusoidal"), seriesColor(1), 2.5);
    reference_ = chart_->addLine(tr("RoPE logit at position 0"), QColor(0, 0, 0), 1.5, Qt::DashLine);
    addChart(chart_, chart_, 1);

    beginComputing();
}

void RopeInvarianceView::draw(const RopeInvarianceLabResult &result)
{
    const RopeInvarianceResult &f = result.figures;
    const int offset = result.params.offset, positions = result.params.positions;
    const double reference = f.referenceLogit;
    const QList<QPointF> rope = indexPoints(f.ropeLogits), sinusoidal = indexPoints(f.sinusoidalLogits);
    const double last = std::max(1.0, double(positions - 1));
    chart_->replacePoints(rope_, rope);
    chart_->replacePoints(sinusoidal_, sinusoidal);
    chart_->replacePoints(reference_, { QPointF(0.0, reference), QPointF(last, reference) });
    chart_->axisX()->setTitleText(offset >= 0 ? tr("position m of the query (key at m + %1)").arg(offset)
                                              : tr("position m of the query (key at m − %1)").arg(-offset));
    double lo = reference, hi = reference;
    for (const auto *pts : { &rope, &sinusoidal })
        for (const QPointF &pt : *pts) {
            if (!std::isfinite(pt.y())) continue;
            lo = std::min(lo, pt.y());
            hi = std::max(hi, pt.y());
        }
    // A tight range (ChartPanel::setRange would round it out to nice numbers) with round ticks inside.
    const double pad = std::max((hi - lo) * 0.06, 0.05 * std::max(1e-9, std::fabs(hi)));
    // Tick spacing first, then the range: the other order lays out one tick per old interval
    // across the new range (65,536 ticks after a sweep of one position).
    roundTicks(chart_->axisX(), last, 8, true);
    roundTicks(chart_->axisY(), std::max(hi - lo, 1e-9 * std::max(1.0, std::fabs(hi))), 6, false);
    chart_->axisX()->setRange(0.0, last);  // exactly the swept positions
    chart_->axisY()->setRange(lo - pad, hi + pad);

    // The chapter's three printed lines, in its formats, then the deviation relative to the logit.
    readouts()->setRow(QStringLiteral("reference"), tr("Reference"),
                       tr("RoPE logit at offset %1, query position 0: %2").arg(offset).arg(reference, 0, 'f', 6),
                       tr("The chapter prints 1.634715 for its PyTorch-seeded q, k"));
    readouts()->setRow(QStringLiteral("deviation"), tr("Invariance"),
                       tr("Max deviation across %1 shifted positions: %2").arg(positions).arg(f.maxDeviationFloat32, 0, 'e', 2),
                       tr("max over m of |RoPE logit at (m, m + offset) − logit at (0, offset)|, measured as the "
                          "chapter's cell does, on float32 copies of the logits; the chapter prints 0.00e+00"));
    readouts()->setRow(QStringLiteral("deviation64"), tr("In double precision"),
                       tr("%1").arg(f.maxDeviation, 0, 'e', 2),
                       tr("The same maximum without rounding to float32: rounding error only"));
    readouts()->setRow(QStringLiteral("range"), tr("Drift"),
                       tr("Additive sinusoidal logit range: [%1, %2] (spread %3)")
                           .arg(f.sinusoidalMin, 0, 'f', 3).arg(f.sinusoidalMax, 0, 'f', 3).arg(f.sinusoidalSpread(), 0, 'f', 3),
                       tr("The chapter prints [17.058, 41.833] (spread 24.775)"));
    readouts()->setRow(QStringLiteral("relative"), tr("Relative deviation"),
                       tr("%1 of |logit at position 0|").arg(result.relativeDeviation, 0, 'e', 2),
                       tr("Rounding of double precision is about 1e-16"));
}

QString RopeInvarianceView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Figure 218.1 (left): one fixed content pair q, k slides along the sequence, "
        "the key always <i>offset</i> positions after the query. Under RoPE the logit "
        "(R<sub>m</sub>q)ᵀ(R<sub>m+offset</sub>k) = qᵀR<sub>offset</sub>k does not depend on m; the additive "
        "sinusoidal logit (q + PE<sub>m</sub>)ᵀ(k + PE<sub>m+offset</sub>) wanders over a range comparable to "
        "its own size.</p>"
        "<p><b>The formula.</b> Rotations in a plane form a one-parameter group, R(α)ᵀR(β) = R(β − α), so "
        "absolute position cancels in every inner product (218.4.4).</p>"
        "<p><b>Try.</b> Any width d, base b or offset: the RoPE line stays flat, only its height changes. The "
        "deviation is the point: zero up to rounding under RoPE. q and k are drawn exactly as the chapter's cell "
        "draws them (torch.manual_seed(seed), then torch.randn(d) twice, reproduced bit for bit without "
        "PyTorch), so seed 0 and d = 64 give the chapter's printed numbers: logit 1.634715, deviation 0.00e+00, "
        "sinusoidal range [17.058, 41.833].</p>");
}

} // namespace fb
