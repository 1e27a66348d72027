#include "views/accounting_view.h"

#include "core/accounting_lab_spec.h"
#include "views/chart_panel.h"
#include "views/formula_panel.h"
#include "views/number_text.h"
#include "views/palette.h"
#include "views/readout_panel.h"

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

// What the worker hands to the GUI thread.
struct AccountingViewResult {
    AccountingLabParams params;
    AccountingResult figures;
    double passK = 0, passDeep = 0;   // M_k, M_k'
    QList<QPointF> saving;            // (L or phi, saving %)
    QList<QPointF> zero, nominal;     // reference lines across the x range
    QList<QPointF> point;             // the current (x, saving %)
    double xMin = 1, xMax = 128, yMin = 0, yMax = 40;
};

std::any computeAccounting(const ParamValues &values)
{
    AccountingLabParams lab;
    if (const std::string err = accountingLabFrom(values, lab); !err.empty()) throw std::invalid_argument(err);
    const AccountingParams &p = lab.accounting;
    AccountingViewResult r;
    r.params = lab;
    r.figures = accounting(p);
    r.passK = passMultiplier(p.passes);
    r.passDeep = passMultiplier(p.deepPasses);

    AccountingParams q = p;
    if (lab.sweep == AccountingSweep::Layers) {
        r.xMin = 1;
        r.xMax = std::max(128, p.layers);
        for (int layers = 1; layers <= int(r.xMax); ++layers) {
            q.layers = layers;
            r.saving.append(QPointF(layers, 100.0 * accounting(q).saving));
        }
        r.point = { QPointF(p.layers, 100.0 * r.figures.saving) };
    } else {
        r.xMin = 0;
        r.xMax = 1;
        const int n = 200;
        for (int i = 0; i <= n; ++i) {
            q.phi = double(i) / n;
            r.saving.append(QPointF(q.phi, 100.0 * accounting(q).saving));
        }
        r.point = { QPointF(p.phi, 100.0 * r.figures.saving) };
    }
    const double nominal = 100.0 * (1.0 - 1.0 / p.dataRatio);
    r.zero = { QPointF(r.xMin, 0.0), QPointF(r.xMax, 0.0) };
    r.nominal = { QPointF(r.xMin, nominal), QPointF(r.xMax, nominal) };
    r.yMin = std::min(0.0, nominal);
    r.yMax = std::max(0.0, nominal);
    for (const QPointF &pt : r.saving) {
        r.yMin = std::min(r.yMin, pt.y());
        r.yMax = std::max(r.yMax, pt.y());
    }
    return r;
}

// Inputs the way a person writes them: 0.9, 0.25, 32.
QString num(double v)
{
    return QString::number(v, 'g', 4);
}

QString emph(const QString &s, bool bad = false)
{
    return QStringLiteral("<b style='color:%1'>%2</b>").arg(bad ? QStringLiteral("#b00020") : QStringLiteral("#0b4f8a"), s);
}

QString formulaHtml(const AccountingViewResult &r)
{
    const AccountingParams &p = r.params.accounting;
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
          QStringLiteral("%1 · %2 + %3 · %4").arg(num(1.0 - p.rho), m, num(p.rho), md), phase },
        { QStringLiteral("run multiplier"), QStringLiteral("(1 − φ) + φ · phase"),
          QStringLiteral("%1 + %2 · %3").arg(num(1.0 - p.phi), num(p.phi), phase), run },
        { QStringLiteral("with parameters"), QStringLiteral("run · (1 + param overhead)"),
          QStringLiteral("%1 · %2").arg(run, text::fixed(1.0 + f.paramOverhead, 4)), total },
        { QStringLiteral("saving"), QStringLiteral("1 − total / data ratio"),
          QStringLiteral("1 − %1 / %2").arg(total, num(p.dataRatio)), text::percent(f.saving, 1) },
    };
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    for (int i = 0; i < lines.size(); ++i) {
        const Line &l = lines[i];
        const bool last = i == lines.size() - 1;
        const QString eq = QStringLiteral("&nbsp;=&nbsp;");
        html += QStringLiteral("<tr><td nowrap>%1</td><td>%2</td><td nowrap>%3</td><td>%4</td><td nowrap>%5</td>"
                               "<td>%4</td><td nowrap align='right'>%6</td></tr>")
                    .arg(l.name, l.name.isEmpty() ? QString() : eq, l.formula, eq, l.values,
                         emph(l.result, last && f.saving < 0));
    }
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p style='margin-top:6px'>C<sub>base</sub> = 6N · (%1 D) = %2 ND &nbsp;&nbsp;vs&nbsp;&nbsp; "
                           "C<sub>fb</sub> = %3 × 6ND = %4 ND%5</p>")
                .arg(num(p.dataRatio), num(6.0 * p.dataRatio), total, text::fixed(6.0 * f.totalMultiplier, 2),
                     f.saving < 0 ? QStringLiteral(" &nbsp;— the latent run costs <b>more</b> than the baseline")
                                  : QString());
    return html;
}

} // namespace

AccountingView::AccountingView(QWidget *parent)
    : LabView(accountingLabSpec(), tr("Compute accounting"), parent)
{
    formulas_ = new FormulaPanel(tr("Part C: what the wider channel costs"));
    formulas_->setObjectName(QStringLiteral("accountingFormulas"));
    QFont f = formulas_->font();
    f.setPointSizeF(14.0);
    formulas_->setFont(f);

    chart_ = new ChartPanel(tr("Pretraining compute saved"));
    chart_->setLogAxis(Qt::Horizontal, tr("layers L (log₂ scale)"), 2.0);  // the default sweep
    chart_->setValueAxis(Qt::Vertical, tr("compute saved vs the baseline (%)"))->setLabelFormat(QStringLiteral("%g"));
    saving_ = chart_->addLine(tr("compute saved"), seriesColor(0), 3.0);
    nominal_ = chart_->addLine(QString(), seriesColor(2), 2.0, Qt::DashLine);
    zero_ = chart_->addLine(tr("break-even"), QColor(60, 60, 60), 1.5, Qt::DotLine);
    point_ = new QScatterSeries;
    point_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    point_->setMarkerSize(14);
    point_->setColor(seriesColor(1));
    point_->setBorderColor(Qt::white);
    chart_->attach(point_);

    chartArea()->addWidget(formulas_, 0);
    addChart(chart_, chart_, 1);
    registerExportable(formulas_);

    setValidator([](const ParamValues &v) {
        AccountingLabParams p;
        return accountingLabFrom(v, p);
    });
    setComputation(computeAccounting);
}

void AccountingView::showResult(const std::any &any)
{
    const auto &r = std::any_cast<const AccountingViewResult &>(any);
    const AccountingParams &p = r.params.accounting;
    const AccountingResult &f = r.figures;

    // The x axis changes kind only when the sweep does: log2 for L, linear for phi.
    if (r.params.sweep != sweep_) {
        if (r.params.sweep == AccountingSweep::Layers)
            chart_->setLogAxis(Qt::Horizontal, tr("layers L (log₂ scale)"), 2.0);
        else
            chart_->setValueAxis(Qt::Horizontal, tr("fraction φ of pretraining with latent feedback on"));
        sweep_ = r.params.sweep;
    }
    chart_->replacePoints(saving_, r.saving);
    chart_->replacePoints(zero_, r.zero);
    chart_->replacePoints(nominal_, r.nominal);
    chart_->replacePoints(point_, r.point);
    ChartPanel::setRange(chart_->axisX(), r.xMin, r.xMax, 0.0);
    ChartPanel::setRange(chart_->axisY(), r.yMin, r.yMax, 0.08);
    if (auto *y = qobject_cast<QValueAxis *>(chart_->axisY())) y->applyNiceNumbers();

    const QString nominalName = tr("no overhead: 1 − 1/%1").arg(num(p.dataRatio));
    if (nominal_->name() != nominalName) nominal_->setName(nominalName);
    const QString pointName = tr("chosen: %1").arg(text::percent(f.saving, 1));
    if (point_->name() != pointName) point_->setName(pointName);

    formulas_->setFormulas(formulaHtml(r));

    const QString dr = num(p.dataRatio);
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
             "nominal saving 1 − 1/%1 = %2.").arg(dr, text::percent(1.0 - 1.0 / p.dataRatio, 1)));
}

} // namespace fb
