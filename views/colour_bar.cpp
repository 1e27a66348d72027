#include "views/colour_bar.h"

#include "views/palette.h"

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

QList<double> ColourBar::ticks() const
{
    const double s = step();
    QList<double> out;
    for (int i = 0; i * s <= maximum_ * (1.0 + 1e-9); ++i) out.append(i * s);
    return out;
}

QString ColourBar::tickText(double value) const
{
    const int decimals = std::clamp(int(std::ceil(-std::log10(step()) - 1e-9)), 0, 8);
    return QString::number(value, 'f', decimals);
}

double ColourBar::preferredWidth(const QFont &font) const
{
    const QFontMetricsF fm(font);
    double labels = fm.horizontalAdvance(QStringLiteral("max ") + tickText(maximum_) + QStringLiteral("0"));
    for (double t : ticks()) labels = std::max(labels, fm.horizontalAdvance(tickText(t)));
    if (showMasked_) labels = std::max(labels, fm.horizontalAdvance(QStringLiteral("masked")));
    return kRampWidth + kTickLength + kGap + labels + (label_.isEmpty() ? 0.0 : kGap + fm.height());
}

void ColourBar::paint(QPainter &painter, const QRectF &rect, const QFont &font) const
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
    auto yOf = [&](double v) { return ramp.bottom() - ramp.height() * v / maximum_; };
    painter.setPen(QColor(40, 40, 40));
    double lastTickY = ramp.bottom() + fm.height();
    for (double t : ticks()) {
        const double y = yOf(t);
        painter.drawLine(QPointF(ramp.right(), y), QPointF(ramp.right() + kTickLength, y));
        painter.drawText(QRectF(labelX, y - fm.height() / 2, rect.right() - labelX, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, tickText(t));
        lastTickY = y;
    }
    // The maximum itself, unless a round tick already sits there.
    if (lastTickY - ramp.top() > fm.height() * 0.9) {
        painter.drawLine(QPointF(ramp.right(), ramp.top()), QPointF(ramp.right() + kTickLength, ramp.top()));
        painter.drawText(QRectF(labelX, ramp.top() - fm.height() / 2, rect.right() - labelX, fm.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         QStringLiteral("max ") + QString::number(maximum_, 'g', 3));
    }

    if (showMasked_) {
        const QRectF swatch(ramp.left(), ramp.bottom() + fm.height() * 0.8, kRampWidth, kRampWidth);
        painter.fillRect(swatch, QColor(0xe4, 0xe4, 0xe4));
        painter.setPen(QPen(QColor(90, 90, 90), 1.0));
        painter.drawRect(swatch);
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QRectF(labelX, swatch.top(), rect.right() - labelX, swatch.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("masked"));
    }

    if (!label_.isEmpty()) {
        // Rotated to read bottom to top, centred on the ramp, at the right edge.
        painter.translate(rect.right() - fm.descent(), ramp.center().y());
        painter.rotate(-90);
        painter.setPen(QColor(20, 20, 20));
        painter.drawText(QRectF(-ramp.height() / 2, -fm.ascent(), ramp.height(), fm.height()),
                         Qt::AlignHCenter | Qt::AlignTop, label_);
    }
    painter.restore();
}

} // namespace fb
