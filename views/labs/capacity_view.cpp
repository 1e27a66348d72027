#include "views/labs/capacity_view.h"

#include "views/widgets/chart_label.h"
#include "views/widgets/chart_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/selectable_text.h"
#include "views/widgets/series_points.h"

#include <QAreaSeries>
#include <QChart>
#include <QFontDatabase>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

constexpr double kTablePt = 10.0;

QScatterSeries *markers(const QColor &color, QScatterSeries::MarkerShape shape, qreal size)
{
    auto *s = new QScatterSeries;
    s->setMarkerShape(shape);
    s->setMarkerSize(size);
    s->setColor(color);
    s->setBorderColor(Qt::white);
    return s;
}

QString snrText(double snr)
{
    return QString::fromStdString(formatNumber(std::round(snr * 1000) / 1000));
}

// The two tables exactly as the chapter's cell prints them (Part A of 218.6.5); the rows for the
// chosen d and V in bold.
QString tablesHtml(const CapacityLabResult &r)
{
    const CapacityParams &p = r.point;
    auto row = [](const QString &line, bool bold) {
        const QString esc = line.toHtmlEscaped();
        return (bold ? QStringLiteral("<b>%1</b>").arg(esc) : esc) + QLatin1Char('\n');
    };
    QString html = QStringLiteral("<pre style='margin:0'>");
    html += row(QStringLiteral("token-only channel: one sampled token per step"), false);
    for (const TokenRow &t : r.tokenRows)
        html += row(QStringLiteral("  V = %1   log2(V) = %2 bits")
                        .arg(text::grouped(t.vocab), 7).arg(text::fixed(t.bits, 2), 6),
                    t.vocab == p.vocab);
    html += QLatin1Char('\n');
    html += row(QStringLiteral("latent-feedback channel: Gaussian capacity of h_t, SNR = %1").arg(snrText(p.snr)), false);
    const QString ref = QString::fromStdString(formatNumber(p.vocab));
    for (const LatentRow &l : r.latentRows)
        html += row(QStringLiteral("  d = %1   capacity = %2 bits   ratio to log2(%3) = %4x")
                        .arg(QString::number(qlonglong(l.d)), 5)
                        .arg(text::fixed(l.bits, 1), 9)
                        .arg(ref)
                        .arg(text::fixed(l.ratio, 1), 7),
                    l.d == p.d);
    html += QStringLiteral("</pre>");
    return html;
}

} // namespace

CapacityView::CapacityView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    chart_ = new ChartPanel(tr("Inter-step channel capacity"));
    chart_->setLogAxis(Qt::Horizontal, tr("model width d (log scale)"), 2.0)->setLabelFormat(QStringLiteral("%.0f"));
    chart_->setLogBases({ 2.0, 4.0, 16.0 });  // a tick every octave where the labels fit
    QAbstractAxis *bits = chart_->setLogAxis(Qt::Vertical, tr("bits per step boundary"), 10.0);
    chart_->setShortAxisTitle(bits, tr("bits"));  // a low chart on a 1024 x 768 slide
    QChart *c = chart_->chart();

    // Drawn back to front: band, curves, the chapter's widths, the chosen point.
    band_ = new QAreaSeries;
    bandLow_ = new QLineSeries(band_);  // owned by the band
    bandHigh_ = new QLineSeries(band_);
    band_->setUpperSeries(bandHigh_);
    band_->setLowerSeries(bandLow_);
    QColor grey(128, 128, 128);
    grey.setAlphaF(0.35f);
    band_->setBrush(grey);
    band_->setPen(QPen(QColor(110, 110, 110), 1.2, Qt::DashLine));
    chart_->attach(band_);

    latent_ = chart_->addLine(QString(), seriesColor(0), 2.5);
    snrOne_ = chart_->addLine(tr("latent, SNR 1"), seriesColor(1), 2.5, Qt::DashLine);
    latentMarks_ = chart_->attach(markers(seriesColor(0), QScatterSeries::MarkerShapeCircle, 10));
    snrOneMarks_ = chart_->attach(markers(seriesColor(1), QScatterSeries::MarkerShapeRectangle, 9));
    gap_ = chart_->addLine(QString(), QColor(0, 0, 0), 1.5, Qt::DotLine);
    point_ = chart_->attach(markers(QColor(0, 0, 0), QScatterSeries::MarkerShapeCircle, 14));
    for (QAbstractSeries *s : { static_cast<QAbstractSeries *>(latentMarks_), static_cast<QAbstractSeries *>(snrOneMarks_),
                                static_cast<QAbstractSeries *>(gap_) })
        hideFromLegend(c, s);
    band_->setName(tr("token-only log2(V)"));
    point_->setName(tr("chosen d, SNR"));
    bandLabel_ = new ChartLabel(c, band_, QColor(70, 70, 70));
    gapLabel_ = new ChartLabel(c, gap_, QColor(0, 0, 0));

    // Text that changes on every step of a drag: SelectableText lays it out once per change, where
    // a QLabel laid it out again for every size query and paint.
    tables_ = new SelectableText;
    tables_->setObjectName(QStringLiteral("capacityTables"));
    tables_->setTextFormat(Qt::RichText);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(kTablePt);  // the widest table fits beside the parameters at 1024 px
    tables_->setFont(mono);
    tables_->setMargin(8);
    tables_->setAutoFillBackground(true);
    tables_->setStyleSheet(QStringLiteral("fb--SelectableText { background: white; color: #141414; border: 1px solid #d8d8d8; }"));
    tables_->setToolTip(tr("Part A of the chapter's cell (218.6.5), recomputed for the chosen SNR and V"));

    addChart(chart_, chart_, 1);
    chartArea()->addWidget(tables_, 0);

    beginComputing();
}

void CapacityView::setPresentationScale(double scale)
{
    LabView::setPresentationScale(scale);
    QFont mono = tables_->font();
    // A slide without the parameter column (lecture mode's 1.6): 1.25x. Beside the column (1.3)
    // or at the desk (1) the table keeps its size, which fits beside the parameters at 1024 px.
    mono.setPointSizeF(kTablePt * (scale > 1.4 ? 1.25 : 1.0));
    tables_->setFont(mono);
}

QString CapacityView::tablesText() const
{
    QTextDocument doc;
    doc.setHtml(tables_->text());
    return doc.toPlainText();
}

QString CapacityView::bandLabel() const
{
    return bandLabel_->text();
}

QString CapacityView::gapLabel() const
{
    return gapLabel_->text();
}

void CapacityView::draw(const CapacityLabResult &r)
{
    const CapacityParams &p = r.point;
    const double xMin = r.dMin, xMax = r.dMax;
    const QList<QPointF> latent = xyPoints(r.widths, r.latentBits), snrOne = xyPoints(r.widths, r.snrOneBits);
    const QList<QPointF> bandLow { QPointF(xMin, r.bandLowBits), QPointF(xMax, r.bandLowBits) };
    const QList<QPointF> bandHigh { QPointF(xMin, r.bandHighBits), QPointF(xMax, r.bandHighBits) };
    const QList<QPointF> point { QPointF(p.d, r.chosen.tokenBits), QPointF(p.d, r.chosen.latentBits) };
    chart_->replacePoints(bandLow_, bandLow);
    chart_->replacePoints(bandHigh_, bandHigh);
    chart_->replacePoints(latent_, latent);
    chart_->replacePoints(snrOne_, snrOne);
    chart_->replacePoints(latentMarks_, xyPoints(chapterDims(), r.markLatentBits));
    chart_->replacePoints(snrOneMarks_, xyPoints(chapterDims(), r.markSnrOneBits));
    chart_->replacePoints(point_, point);
    chart_->replacePoints(gap_, point);
    // The y range spans every positive value drawn (log axis), with some room above and below.
    double lo = HUGE_VAL, hi = 0, yMin = 1, yMax = 1e5;
    for (const auto *pts : { &latent, &snrOne, &bandLow, &bandHigh, &point })
        for (const QPointF &pt : *pts)
            if (pt.y() > 0 && std::isfinite(pt.y())) {
                lo = std::min(lo, pt.y());
                hi = std::max(hi, pt.y());
            }
    if (hi > 0) {
        yMin = std::pow(10.0, std::floor(std::log10(lo / 1.5)));
        yMax = std::pow(10.0, std::ceil(std::log10(hi * 1.5)));
    }
    ChartPanel::setRange(chart_->axisX(), xMin, xMax, 0.015);  // room for markers at the ends
    ChartPanel::setRange(chart_->axisY(), yMin, yMax, 0.0);

    auto rename = [](QAbstractSeries *s, const QString &name) {
        if (s->name() != name) s->setName(name);
    };
    rename(latent_, tr("latent, SNR %1").arg(snrText(p.snr)));
    // The band's label above it at the left; else under it, or at the right, where it hides the least
    // of the curves (a short plot on a 1024 x 768 slide).
    const Qt::Alignment left = Qt::AlignLeft, right = Qt::AlignRight;
    bandLabel_->set(tr("token-only channel: log2(V), V from %1 to %2")
                        .arg(text::shortCount(r.vocabMin), text::shortCount(r.vocabMax)),
                    QPointF(xMin, r.bandHighBits), left | Qt::AlignBottom, QPointF(8, -4),
                    { { QPointF(xMin, r.bandLowBits), left | Qt::AlignTop, QPointF(8, 4) },
                      { QPointF(xMax, r.bandHighBits), right | Qt::AlignBottom, QPointF(-8, -4) },
                      { QPointF(xMax, r.bandLowBits), right | Qt::AlignTop, QPointF(-8, 4) } });
    // The ratio beside the dotted gap, on the side of the chart with more room, halfway up the gap;
    // else just over the band or under it, or on the other side.
    const bool rightHalf = std::log(p.d / xMin) > 0.6 * std::log(xMax / xMin);
    const double middle = std::sqrt(std::max(r.chosen.tokenBits, 1e-300) * std::max(r.chosen.latentBits, 1e-300));
    const Qt::Alignment side = rightHalf ? right : left, other = rightHalf ? left : right;
    const double dx = rightHalf ? -10 : 10;
    gapLabel_->set(r.chosen.latentBits > 0
                       ? tr("%1 bits = %2 × %3 bits").arg(text::groupedFixed(r.chosen.latentBits, 1),
                                                          text::groupedFixed(r.chosen.ratio, 1), text::fixed(r.chosen.tokenBits, 2))
                       : QString(),
                   QPointF(p.d, middle), side | Qt::AlignVCenter, QPointF(dx, 0),
                   { { QPointF(p.d, r.bandHighBits), side | Qt::AlignBottom, QPointF(dx, -4) },
                     { QPointF(p.d, r.bandLowBits), side | Qt::AlignTop, QPointF(dx, 4) },
                     { QPointF(p.d, middle), other | Qt::AlignVCenter, QPointF(-dx, 0) } });

    const QString html = tablesHtml(r);
    tables_->setText(html);

    readouts()->setRow(QStringLiteral("token"), tr("Token channel log2(V)"),
                       tr("%1 bits").arg(text::fixed(r.chosen.tokenBits, 2)),
                       tr("The chapter: 16.97 bits at V = 128,000, 17.97 at 256,000"));
    readouts()->setRow(QStringLiteral("latent"), tr("Latent (d/2)·log2(1+SNR)"),
                       tr("%1 bits").arg(text::groupedFixed(r.chosen.latentBits, 1)),
                       tr("The chapter: 7,084.9 bits at d = 4,096 and SNR 10"));
    readouts()->setRow(QStringLiteral("ratio"), tr("Latent / token"), tr("%1×").arg(text::fixed(r.chosen.ratio, 1)),
                       tr("The chapter: about 417.6 times"));
    readouts()->setRow(QStringLiteral("coord"), tr("Bits per coordinate"),
                       tr("%1 bits").arg(text::fixed(r.bitsPerCoordinate, 3)));
    readouts()->setRow(QStringLiteral("bf16"), tr("h_t in bfloat16 (16·d)"),
                       tr("%1 bits").arg(text::grouped(r.bfloat16Bits)));
}

QString CapacityView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Figure 218.2 (left), 218.6.1: what crosses one decoding-step boundary. A "
        "sampled token carries at most I<sub>token</sub> = log<sub>2</sub>V bits (the shaded band, V from "
        "32,000 to 256,000). The top-layer state h<sub>t</sub>, as d coordinates seen through Gaussian noise of "
        "signal-to-noise ratio SNR each, carries I<sub>latent</sub> = (d/2)·log<sub>2</sub>(1 + SNR) bits.</p>"
        "<p><b>Try.</b> d = 4096, SNR = 10: 7,084.9 bits, about 417.6 times log<sub>2</sub>128,000 = 16.97 "
        "bits. Doubling the vocabulary buys exactly one more bit; doubling d doubles the latent capacity. At "
        "SNR = 1 each coordinate carries half a bit and the latent channel is still two orders of magnitude "
        "wider. The bound assumes independent coordinates and stays far below the 16·d bits the vector occupies "
        "in bfloat16.</p>");
}

} // namespace fb
