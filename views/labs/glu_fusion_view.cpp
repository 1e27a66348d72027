#include "views/labs/glu_fusion_view.h"

#include "views/widgets/chart_label.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/selectable_text.h"
#include "views/widgets/series_points.h"

#include <QAreaSeries>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTextDocument>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

QScatterSeries *marker(const QString &name, const QColor &color, QScatterSeries::MarkerShape shape, qreal size)
{
    auto *s = new QScatterSeries;
    s->setName(name);
    s->setMarkerShape(shape);
    s->setMarkerSize(size);
    s->setColor(color);
    s->setBorderColor(Qt::white);
    return s;
}

// "0.0e+00", "2.26": a sensitivity as the chapter prints the zeroed one, or with three digits.
QString sensitivityText(double v)
{
    if (v == 0.0) return QStringLiteral("0.0e+00");
    if (v >= 1e-3 && v < 1e4) return QString::number(v, 'g', 3);
    return QString::number(v, 'e', 1);
}

QString alphaText(double alpha)
{
    return QString::number(alpha, 'f', alpha == std::round(alpha * 100) / 100 ? 2 : 3);
}

// The overhead as a small table: parameters and FLOPs per decoded token, fusion against stack.
QString overheadHtml(const GluFusionLabResult &r)
{
    const GluFusionOverhead &o = r.fusion.overhead;
    const GluFusionParams &p = r.params;
    const bool square = p.dEmb == p.dModel;
    const QString fusionParams = square ? QStringLiteral("2d(d<sub>e</sub> + d) = 4d²") : QStringLiteral("2d(d<sub>e</sub> + d)");
    const QString fusionFlops = square ? QStringLiteral("2 × 4d² = 8d²") : QStringLiteral("4d(d<sub>e</sub> + d)");
    auto cell = [](const QString &value, const QString &formula) {
        return QStringLiteral("<td align='right'><b>%1</b><br><span style='color:#555'>%2</span></td>").arg(value, formula);
    };
    QString html = QStringLiteral(
        "<table cellspacing='0' cellpadding='3' width='100%'>"
        "<tr><td></td><td align='right'><i>parameters</i></td><td align='right'><i>FLOPs per decoded token</i></td></tr>");
    html += QStringLiteral("<tr><td>fusion W<sub>a</sub>, W<sub>b</sub></td>%1%2</tr>")
                .arg(cell(text::grouped(o.fusionParams), fusionParams), cell(text::grouped(o.fusionFlops), fusionFlops));
    html += QStringLiteral("<tr><td>stack, L = %1 layers</td>%2%3</tr>")
                .arg(p.layers)
                .arg(cell(text::grouped(o.stackParams), QStringLiteral("12d²L")), cell(text::grouped(o.stackFlops), QStringLiteral("24d²L")));
    const QString ratio = square ? QStringLiteral("= 1/(3L)") : QString();
    html += QStringLiteral("<tr><td><b>overhead</b></td>%1%2</tr></table>")
                .arg(cell(text::percent(o.paramRatio, 2), ratio), cell(text::percent(o.flopRatio, 2), ratio));
    return html;
}

} // namespace

GluFusionView::GluFusionView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    // The gates: a filled step outline over (0, 1), 0.5 and the mean marked.
    histogramChart_ = new ChartPanel(QString());
    histogramChart_->setValueAxis(Qt::Horizontal, tr("gate value σ(W_b u)"));
    histogramChart_->setValueAxis(Qt::Vertical, tr("gates per bin"));
    histogramArea_ = new QAreaSeries;
    histogram_ = new QLineSeries(histogramArea_);  // owned by the area
    histogramBase_ = new QLineSeries(histogramArea_);
    histogramArea_->setUpperSeries(histogram_);
    histogramArea_->setLowerSeries(histogramBase_);
    QColor fill = seriesColor(0);
    fill.setAlphaF(0.45f);
    histogramArea_->setBrush(fill);
    histogramArea_->setPen(QPen(seriesColor(0), 1.5));
    histogramArea_->setName(tr("gates"));
    histogramChart_->attach(histogramArea_);
    halfLine_ = histogramChart_->addLine(tr("0.5: open above"), QColor(90, 90, 90), 1.5, Qt::DotLine);
    meanLine_ = histogramChart_->addLine(QString(), seriesColor(1), 2.5, Qt::DashLine);
    histogramChart_->chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    if (auto *x = qobject_cast<QValueAxis *>(histogramChart_->axisX())) {
        x->setRange(0.0, 1.0);
        x->setTickCount(11);
        x->setLabelFormat(QStringLiteral("%.1f"));
    }

    // The sensitivity to h_t over alpha, exactly 0 at alpha = 0, the current alpha marked.
    sensitivityChart_ = new ChartPanel(tr("Sensitivity of xₜ₊₁ to hₜ as the channel opens"));
    sensitivityChart_->setValueAxis(Qt::Horizontal, tr("α: the h columns of W_a and W_b scaled by α (0 = standard decoder)"));
    sensitivityChart_->setValueAxis(Qt::Vertical, tr("max |Δx|"));
    sensitivity_ = sensitivityChart_->addLine(tr("max |x(h) − x(h′)| over the batch"), seriesColor(0));
    alphaLine_ = sensitivityChart_->addLine(QString(), QColor(90, 90, 90), 1.5, Qt::DotLine);
    standard_ = sensitivityChart_->attach(marker(tr("α = 0: the standard decoder"), seriesColor(2),
                                                 QScatterSeries::MarkerShapeRectangle, 12));
    current_ = sensitivityChart_->attach(marker(tr("current α"), QColor(0, 0, 0), QScatterSeries::MarkerShapeCircle, 13));
    hideFromLegend(sensitivityChart_->chart(), alphaLine_);
    if (auto *x = qobject_cast<QValueAxis *>(sensitivityChart_->axisX())) {
        x->setRange(0.0, 1.0);
        x->setTickCount(11);
        x->setLabelFormat(QStringLiteral("%.1f"));
    }
    alphaLabel_ = new ChartLabel(sensitivityChart_->chart(), sensitivity_, QColor(0, 0, 0));
    standardLabel_ = new ChartLabel(sensitivityChart_->chart(), sensitivity_, QColor(0, 0x70, 0x50));

    // Rich text that changes on every step of a drag: SelectableText lays it out once per change,
    // where a QLabel made the window lay itself out again (most of a frame).
    overhead_ = new SelectableText;
    overhead_->setObjectName(QStringLiteral("gluOverhead"));
    overhead_->setTextFormat(Qt::RichText);
    overhead_->setMargin(6);  // wraps: the table narrows with the window instead of widening the lab
    overhead_->setAutoFillBackground(true);
    overhead_->setStyleSheet(QStringLiteral("fb--SelectableText { background: white; color: #141414; border: 1px solid #d8d8d8; }"));
    overhead_->setToolTip(tr("218.6.2: W_a and W_b add 2·d·(d_e + d) parameters (4d² at d_e = d) and about twice as "
                             "many FLOPs per decoded token, against 12d² parameters and 24d² FLOPs per layer"));

    addChart(histogramChart_, histogramChart_, 1);
    addChart(sensitivityChart_, sensitivityChart_, 1);
    chartArea()->addWidget(overhead_, 0);

    const QString wait = QStringLiteral("…");
    readouts()->setRow(QStringLiteral("mean"), tr("Mean gate σ(W_b u)"), wait,
                       tr("Mean over batch × d of the gate. The chapter prints 0.495 for its cell "
                          "(d = d_e = 512, batch 4, seed 3, α = 1)."));
    readouts()->setRow(QStringLiteral("open"), tr("Fraction of gates above 0.5"), wait,
                       tr("The chapter prints 0.493 for its cell: 1,009 of 2,048 gates."));
    readouts()->setRow(QStringLiteral("sensitivity"), tr("Sensitivity to hₜ at the current α"), wait,
                       tr("max |x(h) − x(h′)| over batch × d, h′ = torch.randn_like(h)"));
    readouts()->setRow(QStringLiteral("zeroed"), tr("… with the h columns zeroed (α = 0)"), wait,
                       tr("The chapter prints 0.0e+00: at α = 0 the fused input does not depend on hₜ at all."));
    readouts()->setRow(QStringLiteral("params"), tr("Fusion parameters, share of the stack's"), wait);
    readouts()->setRow(QStringLiteral("flops"), tr("Fusion FLOPs per token, share of a decode step's"), wait);

    beginComputing();
}

QString GluFusionView::alphaLabel() const
{
    return alphaLabel_->text();
}

QString GluFusionView::overheadText() const
{
    QTextDocument doc;
    doc.setHtml(overhead_->text());
    return doc.toPlainText();
}

void GluFusionView::draw(const GluFusionLabResult &r)
{
    const GluFusionResult &f = r.fusion;
    const GluFusionParams &p = r.params;

    // ---- histogram: bin k covers [k / bins, (k + 1) / bins)
    const int bins = int(f.gateHistogram.size());
    QList<QPointF> steps;
    steps.reserve(2 * bins + 2);
    steps.append(QPointF(0.0, 0.0));
    int highest = 1;
    for (int k = 0; k < bins; ++k) {
        const double c = f.gateHistogram[std::size_t(k)];
        steps.append(QPointF(double(k) / bins, c));
        steps.append(QPointF(double(k + 1) / bins, c));
        highest = std::max(highest, f.gateHistogram[std::size_t(k)]);
    }
    steps.append(QPointF(1.0, 0.0));
    histogramChart_->replacePoints(histogram_, steps);
    histogramChart_->replacePoints(histogramBase_, { QPointF(0.0, 0.0), QPointF(1.0, 0.0) });
    const double top = highest * 1.08;
    histogramChart_->replacePoints(halfLine_, { QPointF(0.5, 0.0), QPointF(0.5, top) });
    histogramChart_->replacePoints(meanLine_, { QPointF(f.meanGate, 0.0), QPointF(f.meanGate, top) });
    ChartPanel::setRange(histogramChart_->axisY(), 0.0, top, 0.0);
    const QString meanName = tr("mean gate %1").arg(f.meanGate, 0, 'f', 3);
    if (meanLine_->name() != meanName) meanLine_->setName(meanName);
    const QString histTitle = tr("Gate values σ(W_b u): %1 gates (batch %2 × d %3), α = %4, %5 open")
                                  .arg(text::grouped(r.gateCount)).arg(p.batch).arg(p.dModel)
                                  .arg(alphaText(p.alpha), text::grouped(f.gatesOpen));
    histogramChart_->setTitle(histTitle);

    // ---- sensitivity over alpha
    QList<QPointF> curve;
    curve.reserve(qsizetype(f.curveAlpha.size()));
    double highestSensitivity = f.sensitivity;
    for (std::size_t k = 0; k < f.curveAlpha.size() && k < f.curveSensitivity.size(); ++k) {
        curve.append(QPointF(f.curveAlpha[k], f.curveSensitivity[k]));
        highestSensitivity = std::max(highestSensitivity, f.curveSensitivity[k]);
    }
    const double yTop = highestSensitivity > 0.0 ? highestSensitivity * 1.12 : 1.0;
    sensitivityChart_->replacePoints(sensitivity_, curve);
    sensitivityChart_->replacePoints(alphaLine_, { QPointF(p.alpha, 0.0), QPointF(p.alpha, yTop) });
    sensitivityChart_->replacePoints(current_, { QPointF(p.alpha, f.sensitivity) });
    sensitivityChart_->replacePoints(standard_, { QPointF(0.0, r.sensitivityZeroed) });
    ChartPanel::setRange(sensitivityChart_->axisY(), 0.0, yTop, 0.0);
    // The current alpha's label on the side with more room.
    const bool left = p.alpha > 0.55;
    alphaLabel_->set(tr("α = %1: %2").arg(alphaText(p.alpha), sensitivityText(f.sensitivity)),
                     QPointF(p.alpha, f.sensitivity), (left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom,
                     QPointF(left ? -8 : 8, -6));
    standardLabel_->set(tr("α = 0, standard decoder: %1").arg(sensitivityText(r.sensitivityZeroed)),
                        QPointF(0.0, r.sensitivityZeroed), Qt::AlignLeft | Qt::AlignBottom, QPointF(10, -8));
    standardLabel_->setVisible(p.alpha > 0.2);  // at small α the current label says it

    // ---- overhead
    overhead_->setText(overheadHtml(r));

    // ---- figures
    readouts()->setRow(QStringLiteral("mean"), QString(),
                       tr("%1   (the chapter prints 0.495)").arg(f.meanGate, 0, 'f', 3));
    readouts()->setRow(QStringLiteral("open"), QString(),
                       tr("%1 = %2 of %3   (the chapter prints 0.493)")
                           .arg(f.fractionOpen, 0, 'f', 3).arg(text::grouped(f.gatesOpen), text::grouped(r.gateCount)));
    readouts()->setRow(QStringLiteral("sensitivity"), QString(),
                       tr("α = %1: %2").arg(alphaText(p.alpha), QString::number(f.sensitivity, 'g', 6)));
    readouts()->setRow(QStringLiteral("zeroed"), QString(),
                       tr("%1   (the chapter prints 0.0e+00)").arg(QString::number(r.sensitivityZeroed, 'e', 1)));
    const GluFusionOverhead &o = f.overhead;
    readouts()->setRow(QStringLiteral("params"), QString(),
                       tr("%1 of %2: %3").arg(text::grouped(o.fusionParams), text::grouped(o.stackParams),
                                              text::percent(o.paramRatio, 2)));
    readouts()->setRow(QStringLiteral("flops"), QString(),
                       tr("%1 of %2: %3").arg(text::grouped(o.fusionFlops), text::grouped(o.stackFlops),
                                              text::percent(o.flopRatio, 2)));
}

QString GluFusionView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> The gated fusion of 218.6.2: u = [e ; h] joins the sampled token's embedding "
        "and the previous top-layer state, x<sub>t+1</sub> = (W<sub>a</sub>u) ⊙ σ(W<sub>b</sub>u). The first "
        "chart is the histogram of the gates σ(W<sub>b</sub>u), each a per-coordinate valve on the latent carry; "
        "the second, how much x<sub>t+1</sub> moves when h<sub>t</sub> is replaced, as the channel opens.</p>"
        "<p><b>The opening α</b> scales the h columns of both matrices: at α = 0 they are the chapter's zeroed "
        "columns and the decoder is the standard one, exactly (the chapter prints 0.0e+00); the feedback "
        "channel opens continuously as α grows, with nothing else in the stack changed. Dragging α reuses the "
        "draws: only widths, batch and seed draw W<sub>a</sub>, W<sub>b</sub>, e, h and h′ again.</p>"
        "<p><b>The cost.</b> 4d² parameters against 12d² per layer, 8d² FLOPs per token against 24d²L: both "
        "1/(3L), 1.04% at L = 32. <b>Try</b> seed 3 at the chapter's sizes: mean gate 0.495, 49.3% of the gates "
        "above 0.5.</p>");
}

} // namespace fb
