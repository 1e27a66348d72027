#pragma once
// Anything a lab shows that can be written to an image file: charts and heatmaps.
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>

namespace fb {

class Exportable {
public:
    virtual ~Exportable() = default;
    // The chart's title, used for file names and menus.
    virtual QString exportTitle() const = 0;
    // Renders the complete chart (paintExport) into an image of logicalSize * dpr pixels on a
    // light, print-friendly background. Works whether or not the chart is on screen. GUI thread only.
    QImage renderImage(QSize logicalSize, qreal dpr = 1.0);
    // Paints the same picture onto any paint device of logicalSize (SVG export keeps it vector).
    virtual void paintExport(QPainter &painter, QSize logicalSize) = 0;
    // The data behind the chart as CSV (a header line, then rows); empty when there is none.
    virtual QString csv() const { return {}; }
};

} // namespace fb
