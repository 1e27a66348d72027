#include "views/labs/decay_bound_view.h"

#include "views/widgets/chart_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/series_points.h"

#include <QHBoxLayout>
#include <QJsonArray>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

// What the chart draws of a curve over distances 1..n: every point up to 2,048, then about 2,000
// log-spaced ones (a line of 65,536 points draws no better and far slower).
QList<QPointF> drawnPoints(const std::vector<double> &distance, const std::vector<double> &bound)
{
    const std::size_t n = std::min(distance.size(), bound.size());
    QList<QPointF> pts;
    if (n <= 2048) {
        pts.reserve(qsizetype(n));
        for (std::size_t i = 0; i < n; ++i) pts.append(QPointF(distance[i], bound[i]));
        return pts;
    }
    const int samples = 2000;
    pts.reserve(samples);
    std::size_t last = 0;
    for (int i = 0; i < samples; ++i) {
        const auto t = std::size_t(std::llround(std::exp(std::log(double(n)) * i / (samples - 1))));
        if (t > last) {
            pts.append(QPointF(distance[t - 1], bound[t - 1]));
            last = t;
        }
    }
    return pts;
}

// A base as a lecture reads it: a whole number with thousands grouped from 100 on ("2,154" in a sweep
// from 100 to 10^6), else four significant digits (1.0001, 12.5)
QString baseText(double base)
{
    return base >= 100.0 ? text::grouped(base) : text::short4(base);
}

} // namespace

DecayBoundView::DecayBoundView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    decayChart_ = new ChartPanel(tr("Long-term decay of the RoPE bound"));
    decayChart_->setLogAxis(Qt::Horizontal, tr("relative distance |n − m| (tokens, log scale)"));
    decayChart_->setValueAxis(Qt::Vertical, tr("mean |S_j| (bound)"));
    plain_ = decayChart_->addLine(tr("plain RoPE"), seriesColor(0));
    scaled_ = decayChart_->addLine(tr("with context extension"), seriesColor(1), 2.5, Qt::DashLine);

    wavelengthChart_ = new ChartPanel(tr("Wavelength of each frequency pair"));
    wavelengthChart_->setValueAxis(Qt::Horizontal, tr("pair index i"));
    wavelengthChart_->setLogAxis(Qt::Vertical, tr("λᵢ (tokens)"));
    plainWavelength_ = wavelengthChart_->addLine(tr("plain RoPE"), seriesColor(0));
    scaledWavelength_ = wavelengthChart_->addLine(tr("with context extension"), seriesColor(1), 2.5, Qt::DashLine);
    trainedMark_ = wavelengthChart_->addLine(tr("trained length L"), QColor(90, 90, 90), 1.5, Qt::DotLine);

    addChart(decayChart_, decayChart_, 3);
    addChart(wavelengthChart_, wavelengthChart_, 2);

    auto *pins = new QHBoxLayout;
    auto *pinButton = new QPushButton(tr("Pin curve"));
    pinButton->setToolTip(tr("Keep the current curve as a labelled ghost to compare bases or widths"));
    auto *clearButton = new QPushButton(tr("Clear pins"));
    connect(pinButton, &QPushButton::clicked, this, &DecayBoundView::pinCurrent);
    connect(clearButton, &QPushButton::clicked, this, &DecayBoundView::clearPins);
    pins->addWidget(pinButton);
    pins->addWidget(clearButton);
    sideArea()->addLayout(pins);

    beginComputing();
}

void DecayBoundView::draw(const DecayBoundLabResult &r)
{
    const QList<QPointF> plain = drawnPoints(r.distance, r.bound);
    const QList<QPointF> scaled = drawnPoints(r.distance, r.scaledBound);
    decayChart_->replacePoints(plain_, plain);
    decayChart_->replacePoints(scaled_, scaled);
    scaled_->setVisible(r.extended);
    const QString extensionName = QString::fromStdString(r.extensionName);
    if (r.extended && scaled_->name() != extensionName) {
        scaled_->setName(extensionName);
        scaledWavelength_->setName(extensionName);
    }
    // the live curve names its base: a slide that sweeps b shows the value of every frame (a legend
    // under the plot; the wavelength chart's, right of its plot, keeps one width)
    plain_->setName(tr("plain RoPE, b = %1").arg(baseText(r.params.base)));
    lastPlain_ = plain;
    lastLabel_ = QStringLiteral("d = %1, b = %2").arg(r.params.d).arg(baseText(r.params.base));

    double yMax = 0;
    for (const auto &pt : plain) yMax = std::max(yMax, pt.y());
    for (const auto &pt : scaled) yMax = std::max(yMax, pt.y());
    for (QLineSeries *pin : pins_)
        for (const auto &pt : pin->points()) yMax = std::max(yMax, pt.y());
    yMax_ = yMax;
    ChartPanel::setRange(decayChart_->axisX(), 1.0, std::max(2.0, double(r.params.maxDistance)), 0.0);
    ChartPanel::setRange(decayChart_->axisY(), 0.0, yMax * 1.05, 0.0);

    const QList<QPointF> plainWavelength = indexPoints(r.wavelength);
    const QList<QPointF> scaledWavelength = indexPoints(r.scaledWavelength);
    const double trained = r.params.extension.trainedLength;
    wavelengthChart_->replacePoints(plainWavelength_, plainWavelength);
    wavelengthChart_->replacePoints(scaledWavelength_, scaledWavelength);
    scaledWavelength_->setVisible(r.extended);
    const double n = std::max<double>(1.0, double(plainWavelength.size() - 1));
    wavelengthChart_->replacePoints(trainedMark_, { QPointF(0, trained), QPointF(n, trained) });
    double lo = trained, hi = trained;
    for (const auto *pts : { &plainWavelength, &scaledWavelength })
        for (const auto &pt : *pts) { lo = std::min(lo, pt.y()); hi = std::max(hi, pt.y()); }
    // Pair indices run 0 … d/2 − 1: the axis ends at d/2 with power-of-two ticks (0, 8, 16, 24, 32).
    if (auto *x = qobject_cast<QValueAxis *>(wavelengthChart_->axisX())) {
        const double end = n + 1.0;
        const double step = std::max(1.0, std::exp2(std::floor(std::log2(end / 4.0))));
        ChartPanel::setTickedRange(x, 0.0, end, step);
    }
    ChartPanel::setRange(wavelengthChart_->axisY(), lo, hi, 0.05);

    auto f2 = [](double v) { return QString::number(v, 'f', 2); };
    readouts()->setRow(QStringLiteral("bound"), tr("Relative bound at distance 1 / 64 / 512"),
                       QStringLiteral("%1 / %2 / %3").arg(f2(r.at1), f2(r.at64), f2(r.at512)),
                       tr("The chapter prints 15.95 / 5.70 / 2.99 for d = 64, b = 10000"));
    readouts()->setRow(QStringLiteral("ratio"), tr("Fall from distance 1 to 512"),
                       QStringLiteral("%1×").arg(r.fall512, 0, 'f', 2));
    readouts()->setRow(QStringLiteral("atmax"), tr("Bound at the largest distance"),
                       QStringLiteral("%1 (t = %2)").arg(f2(r.atMax)).arg(r.params.maxDistance));
    readouts()->setRow(QStringLiteral("base"), tr("Effective base b′"),
                       QString::fromStdString(formatNumber(std::round(r.effectiveBase * 100) / 100)));
    readouts()->setRow(QStringLiteral("attn"), tr("YaRN attention factor"), QString::number(r.attentionFactor, 'f', 4));
}

void DecayBoundView::pinCurrent()
{
    if (lastPlain_.isEmpty()) return;
    pin(tr("pinned: %1").arg(lastLabel_), lastPlain_);
}

void DecayBoundView::pin(const QString &label, const QList<QPointF> &points)
{
    // Okabe-Ito colours after the two live ones, lighter so the live curves stay in front.
    QColor c = seriesColor(2 + int(pins_.size()));
    c.setAlphaF(0.75f);
    QLineSeries *ghost = decayChart_->addLine(label, c, 2.0, Qt::DashDotLine);
    decayChart_->replacePoints(ghost, points);
    pins_.append(ghost);
}

QJsonObject DecayBoundView::extraState() const
{
    QJsonArray pins;
    for (const QLineSeries *s : pins_) {
        QJsonArray xs, ys;
        for (const QPointF &p : s->points()) {
            xs.append(p.x());
            ys.append(p.y());
        }
        pins.append(QJsonObject { { QStringLiteral("label"), s->name() }, { QStringLiteral("distance"), xs },
                                  { QStringLiteral("bound"), ys } });
    }
    return pins.isEmpty() ? QJsonObject() : QJsonObject { { QStringLiteral("pins"), pins } };
}

QString DecayBoundView::setExtraState(const QJsonObject &state)
{
    // Check everything first, then replace the pins: a bad scene changes nothing.
    const QJsonValue pinsValue = state.value(QStringLiteral("pins"));
    if (!pinsValue.isUndefined() && !pinsValue.isArray()) return tr("extra.pins must be an array");
    QList<QPair<QString, QList<QPointF>>> pins;
    const QJsonArray arr = pinsValue.toArray();
    // A pinned curve is one this lab drew: distances within max_distance's range, bounds within
    // [0, d / 2] (mean |S_j| of at most d / 2 unit terms) at the widest d.
    const LabSpec &spec = DecayBoundLab::spec();
    const double maxDistance = spec.find("max_distance")->max, maxBound = spec.find("d")->max / 2;
    if (arr.size() > 16) return tr("extra.pins holds %1 curves; at most 16").arg(arr.size());
    for (qsizetype i = 0; i < arr.size(); ++i) {
        const QJsonObject o = arr[i].toObject();
        const QJsonArray xs = o.value(QStringLiteral("distance")).toArray();
        const QJsonArray ys = o.value(QStringLiteral("bound")).toArray();
        if (!o.value(QStringLiteral("label")).isString() || xs.size() != ys.size() || xs.size() > 70000)
            return tr("extra.pins[%1] needs a label and equally long distance and bound arrays").arg(i);
        QList<QPointF> pts;
        for (qsizetype k = 0; k < xs.size(); ++k) {
            const double x = xs[k].toDouble(-1), y = ys[k].toDouble(-1);
            if (!xs[k].isDouble() || !ys[k].isDouble() || !(x >= 1 && x <= maxDistance) || !(y >= 0 && y <= maxBound))
                return tr("extra.pins[%1] point %2 must have a distance in [1, %3] and a bound in [0, %4], got (%5, %6)")
                    .arg(i).arg(k).arg(QString::fromStdString(formatNumber(maxDistance)), QString::fromStdString(formatNumber(maxBound)),
                         QString::fromStdString(formatNumber(x)), QString::fromStdString(formatNumber(y)));
            pts.append(QPointF(x, y));
        }
        pins.append({ o.value(QStringLiteral("label")).toString().left(120), pts });
    }
    clearPins();
    for (const auto &[label, pts] : pins) pin(label, pts);
    return {};
}

void DecayBoundView::clearPins()
{
    for (QLineSeries *s : pins_) decayChart_->removeSeries(s);
    pins_.clear();
}

QString DecayBoundView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Figure 218.1 (right): RoPE's long-term decay. With t = n − m and "
        "h<sub>i</sub> the pairs' contents, the relative logit is Σ<sub>i</sub> h<sub>i</sub>e<sup>itθ<sub>i</sub></sup>, "
        "and Abel summation bounds it by max<sub>i</sub>|h<sub>i+1</sub> − h<sub>i</sub>| · Σ<sub>j</sub>|S<sub>j</sub>(t)|, "
        "S<sub>j</sub>(t) = Σ<sub>i&lt;j</sub> e<sup>itθ<sub>i</sub></sup>. The content factor does not depend on t, "
        "so the curve, the mean |S<sub>j</sub>| over j, is the part of the ceiling the geometry alone fixes: it "
        "falls as the phases tθ<sub>i</sub> spread out and cancel. A ceiling, not a measurement of realised "
        "attention.</p>"
        "<p><b>The second chart</b>: the wavelength λ<sub>i</sub> = 2π/θ<sub>i</sub> of every pair, "
        "θ<sub>i</sub> = b<sup>−2i/d</sup>, against the trained context L.</p>"
        "<p><b>Try.</b> The chapter's d = 64, b = 10000 give 15.95 / 5.70 / 2.99 at distance 1 / 64 / 512, a "
        "fall of about five. Pin the curve, then raise the base b: the slowest pairs' wavelengths grow and the "
        "bound falls later. Choose a frequency scaling (PI, NTK-aware, YaRN) and a factor s: the dashed curves "
        "show how context extension rescales θ<sub>i</sub> to keep the bound from collapsing past the trained "
        "length.</p>");
}

} // namespace fb
