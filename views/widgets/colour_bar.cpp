#include "views/widgets/colour_bar.h"

#include "views/widgets/fitted_font.h"
#include "views/widgets/painted_text.h"
#include "views/widgets/palette.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {
constexpr double kTickLength = 5.0;
constexpr double kGap = 4.0;
} // namespace

void ColourBar::setMaximum(double maximum)
{
    maximum_ = (std::isfinite(maximum) && maximum > 0.0) ? maximum : 1.0;
}

double ColourBar::step() const
{
    // 1, 2 or 5 times a power of ten, giving 3 to 7 ticks.
    const double raw = maximum_ / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

double ColourBar::position(double value) const
{
    const double t = isLog() ? std::log(std::max(value, logFloor_) / logFloor_) / std::log(maximum_ / logFloor_)
                             : value / maximum_;
    return std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
}

QList<double> ColourBar::ticks() const
{
    QList<double> out;
    if (isLog()) {
        for (int e = int(std::ceil(std::log10(logFloor_) - 1e-9)); std::pow(10.0, e) <= maximum_ * (1 + 1e-9); ++e)
            out.append(std::pow(10.0, e));
        return out;
    }
    const double s = step();
    for (int i = 0; i * s <= maximum_ * (1.0 + 1e-9); ++i) out.append(i * s);
    return out;
}

QString ColourBar::tickText(double value) const
{
    if (isLog()) return QString::number(value, 'g', 3);
    const int decimals = std::clamp(int(std::ceil(-std::log10(step()) - 1e-9)), 0, 8);
    return QString::number(value, 'f', decimals);
}

double ColourBar::preferredWidth(const QFont &font) const
{
    const QFontMetricsF fm(font);
    return kRampWidth + kTickLength + kGap + labelsWidth(fm) + (label_.isEmpty() ? 0.0 : kGap + fm.height());
}

QString ColourBar::floorText() const
{
    return QStringLiteral("≤ ") + QString::number(logFloor_, 'g', 2);
}

QString ColourBar::maxText() const
{
    return QStringLiteral("max ") + QString::number(maximum_, 'g', 3);
}

double ColourBar::labelsWidth(const QFontMetricsF &fm) const
{
    double w = fm.horizontalAdvance(maxText());
    for (double t : ticks()) w = std::max(w, fm.horizontalAdvance(tickText(t)));
    if (showMasked_) w = std::max(w, fm.horizontalAdvance(QStringLiteral("masked")));
    if (isLog()) w = std::max(w, fm.horizontalAdvance(floorText()));
    return w;
}

void ColourBar::paint(QPainter &painter, const QRectF &rect, const QFont &font, const PaintedText &text) const
{
    painter.save();
    painter.setFont(font);
    const QFontMetricsF fm(font);
    const QRectF ramp(rect.left(), rect.top(), kRampWidth, rect.height());

    QLinearGradient gradient(ramp.bottomLeft(), ramp.topLeft());
    for (int i = 0; i <= 32; ++i) gradient.setColorAt(i / 32.0, viridis(i / 32.0));
    painter.setPen(Qt::NoPen);
    painter.fillRect(ramp, gradient);
    painter.setPen(QPen(QColor(90, 90, 90), 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(ramp);

    const double labelX = ramp.right() + kTickLength + kGap;
    auto yOf = [&](double v) { return ramp.bottom() - ramp.height() * position(v); };
    painter.setPen(QColor(40, 40, 40));
    double lastTickY = ramp.bottom() + fm.height();
    double lastLabelY = ramp.bottom() + 2 * fm.height();
    for (double t : ticks()) {
        const double y = yOf(t);
        painter.drawLine(QPointF(ramp.right(), y), QPointF(ramp.right() + kTickLength, y));
        lastTickY = y;
        // Every tick keeps its mark; a label only a line clear of the one below (a low bar).
        if (lastLabelY - y < fm.height() * 1.05) continue;
        text.draw(painter, QRectF(labelX, y - fm.height() / 2, rect.right() - labelX, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tickText(t));
        lastLabelY = y;
    }
    // On a log scale the bottom stands for everything at or below the floor.
    if (isLog() && (ticks().isEmpty() || ramp.bottom() - yOf(ticks().front()) > fm.height() * 0.9)) {
        painter.drawLine(QPointF(ramp.right(), ramp.bottom()), QPointF(ramp.right() + kTickLength, ramp.bottom()));
        text.draw(painter, QRectF(labelX, ramp.bottom() - fm.height() / 2, rect.right() - labelX, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, floorText());
    }
    // The maximum itself, unless a round tick already sits there.
    if (lastTickY - ramp.top() > fm.height() * 0.9) {
        painter.drawLine(QPointF(ramp.right(), ramp.top()), QPointF(ramp.right() + kTickLength, ramp.top()));
        text.draw(painter, QRectF(labelX, ramp.top() - fm.height() / 2, rect.right() - labelX, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         maxText());
    }

    if (showMasked_) {
        const QRectF swatch(ramp.left(), ramp.bottom() + fm.height() * 0.8, kRampWidth, kRampWidth);
        painter.fillRect(swatch, QColor(0xe4, 0xe4, 0xe4));
        painter.setPen(QPen(QColor(90, 90, 90), 1.0));
        painter.drawRect(swatch);
        painter.setPen(QColor(40, 40, 40));
        // Centred on the swatch, a line high (lecture mode's font is taller than the swatch).
        const double lineH = std::max(swatch.height(), fm.height());
        text.draw(painter, QRectF(labelX, swatch.center().y() - lineH / 2, rect.right() - labelX, lineH),
                         Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("masked"));
    }

    if (!label_.isEmpty()) {
        // Rotated to read bottom to top, centred on the ramp, right of the tick labels.
        painter.translate(labelX + labelsWidth(fm) + kGap + fm.ascent(), ramp.center().y());
        painter.rotate(-90);
        painter.setPen(QColor(20, 20, 20));
        // A label longer than a low ramp reaches past its ends, by at most a line of the tick labels'
        // height at each (the heatmap grid has its panel titles' row above the ramp and its axis
        // gutter below), and only then is set smaller (down to 60%): one row of 16 maps on a slide
        // has a ramp shorter than "weight".
        const double room =
            std::max(ramp.height(), std::min(fm.horizontalAdvance(label_) + 2, ramp.height() + 2 * fm.height()));
        painter.setFont(fittedFont(painter.font(), label_, room));
        text.draw(painter, QRectF(-room / 2, -fm.ascent(), room, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                  label_);
    }
    painter.restore();
}

} // namespace fb
