#include "views/labs/accounting_view.h"

#include "views/widgets/chart_panel.h"
#include "views/widgets/formula_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/scrolled_text.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {


QString emph(const QString &s, bool bad = false)
{
    return QStringLiteral("<b style='color:%1'>%2</b>").arg(bad ? QStringLiteral("#b00020") : QStringLiteral("#0b4f8a"), s);
}

QString formulaHtml(const AccountingLabResult &r)
{
    const AccountingParams &p = r.params;
    const AccountingResult &f = r.figures;
    const QString m = text::fixed(r.passK, 3), md = text::fixed(r.passDeep, 3);
    const QString phase = text::fixed(f.phaseMultiplier, 3), run = text::fixed(f.runMultiplier, 3);
    const QString total = text::fixed(f.totalMultiplier, 3);
    struct Line { QString name, formula, values, result; };
    const QList<Line> lines {
        { QStringLiteral("pass cost"), QStringLiteral("M<sub>k</sub> = (k + 2) / 3"),
          QStringLiteral("(%1 + 2) / 3").arg(p.passes), m },
        { QString(), QStringLiteral("M<sub>k′</sub> = (k′ + 2) / 3"), QStringLiteral("(%1 + 2) / 3").arg(p.deepPasses), md },
        { QStringLiteral("param overhead"), QStringLiteral("4 / (12 · L)"),
          QStringLiteral("4 / (12 · %1)").arg(p.layers), text::percent(f.paramOverhead, 2) },
        { QStringLiteral("decode overhead"), QStringLiteral("1 / (3 · L)"),
          QStringLiteral("1 / (3 · %1)").arg(p.layers), text::percent(f.decodeOverhead, 2) },
        { QStringLiteral("phase multiplier"), QStringLiteral("(1 − ρ)·M<sub>k</sub> + ρ·M<sub>k′</sub>"),
          QStringLiteral("%1 · %2 + %3 · %4").arg(text::short4(1.0 - p.rho), m, text::short4(p.rho), md), phase },
        { QStringLiteral("run multiplier"), QStringLiteral("(1 − φ) + φ · phase"),
          QStringLiteral("%1 + %2 · %3").arg(text::short4(1.0 - p.phi), text::short4(p.phi), phase), run },
        { QStringLiteral("with parameters"), QStringLiteral("run · (1 + param overhead)"),
          QStringLiteral("%1 · %2").arg(run, text::fixed(1.0 + f.paramOverhead, 4)), total },
        { QStringLiteral("saving"), QStringLiteral("1 − total / data ratio"),
          QStringLiteral("1 − %1 / %2").arg(total, text::short4(p.dataRatio)), text::percent(f.saving, 1) },
    };
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    for (int i = 0; i < lines.size(); ++i) {
        const Line &l = lines[i];
        const bool last = i == lines.size() - 1;
        const QString eq = QStringLiteral("&nbsp;=&nbsp;");
        html += QStringLiteral("<tr><td nowrap>%1</td><td>%2</td><td nowrap>%3</td><td>%4</td><td nowrap>%5</td>"
                               "<td>%4</td><td nowrap align='right'>%6</td></tr>")
                    .arg(l.name, l.name.isEmpty() ? QString() : eq, FormulaPanel::keepTogether(l.formula), eq, FormulaPanel::keepTogether(l.values),
                         emph(l.result, last && f.saving < 0));
    }
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p style='margin-top:6px'>C<sub>base</sub> = 6N · (%1 D) = %2 ND &nbsp;&nbsp;vs&nbsp;&nbsp; "
                           "C<sub>fb</sub> = %3 × 6ND = %4 ND%5</p>")
                .arg(text::short4(p.dataRatio), text::short4(6.0 * p.dataRatio), total, text::fixed(6.0 * f.totalMultiplier, 2),
                     f.saving < 0 ? QStringLiteral(" &nbsp;— the latent run costs <b>more</b> than the baseline")
                                  : QString());
    return html;
}

} // namespace

AccountingView::AccountingView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    formulas_ = new FormulaPanel(tr("Part C: what the wider channel costs"));
    formulas_->setObjectName(QStringLiteral("accountingFormulas"));
    QFont f = formulas_->font();
    f.setPointSizeF(14.0);
    formulas_->setFont(f);

    chart_ = new ChartPanel(tr("Pretraining compute saved"));
    chart_->setLogAxis(Qt::Horizontal, tr("layers L (log₂ scale)"), 2.0);  // the default sweep
    chart_->setValueAxis(Qt::Vertical, tr("saved (%)"))->setLabelFormat(QStringLiteral("%g"));
    saving_ = chart_->addLine(tr("compute saved"), seriesColor(0), 3.0);
    nominal_ = chart_->addLine(QString(), seriesColor(2), 2.0, Qt::DashLine);
    zero_ = chart_->addLine(tr("break-even"), QColor(60, 60, 60), 1.5, Qt::DotLine);
    point_ = new QScatterSeries;
    point_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    point_->setMarkerSize(14);
    point_->setColor(seriesColor(1));
    point_->setBorderColor(Qt::white);
    chart_->attach(point_);

    chartArea()->addWidget(new ScrolledText(formulas_), 0);  // scrolls when the window is low
    addChart(chart_, chart_, 1);
    registerExportable(formulas_);

    beginComputing();
}

void AccountingView::draw(const AccountingLabResult &r)
{
    const AccountingParams &p = r.params;
    const AccountingResult &f = r.figures;

    // The x axis changes kind only when the sweep does: log2 for L, linear for phi.
    if (r.sweep != sweep_) {
        if (r.sweep == AccountingSweep::Layers)
            chart_->setLogAxis(Qt::Horizontal, tr("layers L (log₂ scale)"), 2.0);
        else
            chart_->setValueAxis(Qt::Horizontal, tr("fraction φ of pretraining with latent feedback on"));
        sweep_ = r.sweep;
    }
    // Savings in percent; the x range is the sweep's.
    QList<QPointF> saving;
    double yMin = std::min(0.0, 100.0 * r.nominalSaving), yMax = std::max(0.0, 100.0 * r.nominalSaving);
    for (std::size_t i = 0; i < r.sweepX.size(); ++i) {
        saving.append(QPointF(r.sweepX[i], 100.0 * r.sweepSaving[i]));
        yMin = std::min(yMin, saving.back().y());
        yMax = std::max(yMax, saving.back().y());
    }
    const double xMin = r.sweepX.empty() ? 0.0 : r.sweepX.front(), xMax = r.sweepX.empty() ? 1.0 : r.sweepX.back();
    const double x = r.sweep == AccountingSweep::Layers ? double(p.layers) : p.phi;
    chart_->replacePoints(saving_, saving);
    chart_->replacePoints(zero_, { QPointF(xMin, 0.0), QPointF(xMax, 0.0) });
    chart_->replacePoints(nominal_, { QPointF(xMin, 100.0 * r.nominalSaving), QPointF(xMax, 100.0 * r.nominalSaving) });
    chart_->replacePoints(point_, { QPointF(x, 100.0 * f.saving) });
    ChartPanel::setRange(chart_->axisX(), xMin, xMax, 0.0);
    ChartPanel::setRange(chart_->axisY(), yMin, yMax, 0.08);
    if (auto *y = qobject_cast<QValueAxis *>(chart_->axisY())) y->applyNiceNumbers();

    const QString nominalName = tr("no overhead: 1 − 1/%1").arg(text::short4(p.dataRatio));
    if (nominal_->name() != nominalName) nominal_->setName(nominalName);
    const QString pointName = tr("chosen: %1").arg(text::percent(f.saving, 1));
    if (point_->name() != pointName) point_->setName(pointName);

    formulas_->setFormulas(formulaHtml(r));

    const QString dr = text::short4(p.dataRatio);
    readouts()->setRow(QStringLiteral("param"), tr("GLU parameter overhead"),
                       text::percent(f.paramOverhead, 2), tr("The chapter prints 1.04% at L = 32"));
    readouts()->setRow(QStringLiteral("decode"), tr("per-token decode FLOP overhead"),
                       text::percent(f.decodeOverhead, 2), tr("The chapter prints 1.04% at L = 32"));
    readouts()->setRow(QStringLiteral("phase"), tr("latent-phase training multiplier"),
                       text::fixed(f.phaseMultiplier, 3), tr("The chapter prints 1.367"));
    readouts()->setRow(QStringLiteral("run"), tr("whole-run training multiplier"), text::fixed(f.runMultiplier, 3),
                       tr("The chapter prints 1.073"));
    readouts()->setRow(QStringLiteral("total"), tr("with parameter overhead"), text::fixed(f.totalMultiplier, 3),
                       tr("The chapter prints 1.085"));
    readouts()->setRow(QStringLiteral("saving"), tr("compute saved vs baseline"),
                       text::percent(f.saving, 1), tr("The chapter prints 27.7%"));
    readouts()->setRow(QStringLiteral("breakeven"), tr("break-even data ratio"),
                       tr("%1x").arg(text::fixed(f.totalMultiplier, 3)),
                       tr("Latent feedback saves compute whenever the baseline needs more than this many times the tokens"));
    readouts()->setNote(f.saving < 0
        ? tr("<span style='color:#b00020'>The overhead (%1×) exceeds the data ratio (%2×): the latent run costs "
             "more than the baseline.</span>").arg(text::fixed(f.totalMultiplier, 3), dr)
        : tr("Illustrative schedule: the paper does not publish φ and ρ. The multi-pass overhead eats part of the "
             "nominal saving 1 − 1/%1 = %2.").arg(dr, text::percent(r.nominalSaving, 1)));
}

QString AccountingView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Part C of 218.6.5, the costs of 218.6.2 and 218.6.4. The fusion adds 4d² "
        "parameters to 12d²L and 8d² FLOPs per decoded token to 24d²L: 1/(3L) each. A k-pass training step costs "
        "C<sub>k</sub> = (k − 1)F + 3F, so M<sub>k</sub> = (k + 2)/3 of an ordinary step. With a fraction ρ of "
        "latent-phase batches at k′ passes and the latent phase over the last fraction φ of pretraining, the "
        "run costs (1 − φ) + φ[(1 − ρ)M<sub>k</sub> + ρM<sub>k′</sub>] times the baseline, times the parameter "
        "overhead.</p>"
        "<p><b>The saving.</b> If the baseline needs <i>data ratio</i> times the tokens (the paper: about 1.5), "
        "C ≈ 6ND gives a saving of 1 − multiplier / ratio: 27.7% at the chapter's L = 32, φ = 0.2, ρ = 0.1. "
        "Illustrative schedule: the paper does not publish φ and ρ.</p>"
        "<p><b>Try.</b> Sweep φ instead of L; raise k; lower the data ratio towards the multiplier (1.085 at "
        "the chapter's values), where the saving reaches zero.</p>");
}

} // namespace fb
