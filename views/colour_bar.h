#pragma once
// The shared colour scale of a heatmap figure: a vertical viridis ramp from 0 to a maximum with
// round-number ticks, the maximum itself marked, a rotated label, and optionally a grey swatch for
// masked cells. Not a widget: whoever draws the figure paints it, on screen and into exports alike.
#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>

class QPainter;

namespace fb {

class ColourBar {
public:
    // The ramp runs from 0 (bottom) to maximum (top); maximum <= 0 is treated as 1.
    void setMaximum(double maximum);
    double maximum() const { return maximum_; }
    void setLabel(const QString &label) { label_ = label; }
    QString label() const { return label_; }
    // A grey swatch under the ramp labelled "masked" (causal attention's hidden keys).
    void setShowMasked(bool on) { showMasked_ = on; }
    bool showMasked() const { return showMasked_; }

    // Round tick values in [0, maximum] (0 included), spaced for roughly five labels.
    QList<double> ticks() const;
    // Text of a tick value, with as many decimals as the tick step needs.
    QString tickText(double value) const;

    // Width the bar with its labels needs in font.
    double preferredWidth(const QFont &font) const;
    // Paints into rect (its height is the ramp's height; the swatch, if any, goes below it).
    void paint(QPainter &painter, const QRectF &rect, const QFont &font) const;

    static constexpr double kRampWidth = 18.0;

private:
    double step() const;

    double maximum_ = 1.0;
    QString label_;
    bool showMasked_ = false;
};

} // namespace fb
