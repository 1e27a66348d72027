#pragma once
// A title's font set smaller, a quarter point at a time, until the text fits width or the font is
// down to minFraction of its size (the heatmap grid and the positional table draw their titles so).
#include <QFont>
#include <QFontMetricsF>
#include <QString>

namespace fb {

inline QFont fittedFont(QFont font, const QString &text, double width, double minFraction = 0.6)
{
    const double floor = minFraction * font.pointSizeF();
    while (QFontMetricsF(font).horizontalAdvance(text) > width && font.pointSizeF() > floor)
        font.setPointSizeF(font.pointSizeF() - 0.25);
    return font;
}

} // namespace fb
