#pragma once
// The shared colour scale of a heatmap figure: a vertical viridis ramp from 0 to a maximum (or,
// logarithmic, from a floor to the maximum) with round-number ticks, the maximum itself marked, a rotated label, and optionally a grey swatch for
// masked cells. Not a widget: whoever draws the figure paints it, on screen and into exports alike.
#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>

class QFontMetricsF;
class QPainter;

namespace fb {

struct PaintedText;

class ColourBar {
public:
    // The ramp runs from 0 (bottom) to maximum (top); maximum <= 0 is treated as 1.
    void setMaximum(double maximum);
    double maximum() const { return maximum_; }
    // Logarithmic scale from floor (bottom) to maximum (top); floor <= 0 switches back to linear.
    void setLogFloor(double floor) { logFloor_ = floor > 0.0 && floor < maximum_ ? floor : 0.0; }
    double logFloor() const { return logFloor_; }
    bool isLog() const { return logFloor_ > 0.0; }
    // Where a value sits on the ramp: 0 at the bottom, 1 at the top (clamped).
    double position(double value) const;
    void setLabel(const QString &label) { label_ = label; }
    QString label() const { return label_; }
    // A grey swatch under the ramp labelled "masked" (causal attention's hidden keys).
    void setShowMasked(bool on) { showMasked_ = on; }
    bool showMasked() const { return showMasked_; }

    // Round tick values in [0, maximum] (0 included), spaced for roughly five labels; on a log
    // scale the powers of ten in [floor, maximum].
    QList<double> ticks() const;
    // Text of a tick value, with as many decimals as the tick step needs.
    QString tickText(double value) const;

    // Width the bar with its labels needs in font.
    double preferredWidth(const QFont &font) const;
    // Paints into rect (its height is the ramp's height; the swatch, if any, goes below it). Its
    // text goes through text, which notes what does not fit (the layout tests).
    void paint(QPainter &painter, const QRectF &rect, const QFont &font, const PaintedText &text) const;

    static constexpr double kRampWidth = 18.0;

private:
    double step() const;
    QString maxText() const;
    QString floorText() const;
    double labelsWidth(const QFontMetricsF &fm) const;

    double maximum_ = 1.0;
    double logFloor_ = 0.0;
    QString label_;
    bool showMasked_ = false;
};

} // namespace fb
