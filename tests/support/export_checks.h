#pragma once
// Checks shared by the view tests: an exported image is the requested size and shows a chart,
// and every point on a logarithmic axis is strictly positive.
#include <QAbstractAxis>
#include <QImage>
#include <QSet>
#include <QXYSeries>

#include <cmath>

namespace fb::testing {

// Fraction of pixels that are not (nearly) white, and the number of distinct colours.
inline bool looksDrawn(const QImage &image, double minInk = 0.01, int minColours = 16)
{
    if (image.isNull()) return false;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    qint64 ink = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 2) {
        const QRgb *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); x += 2) {
            const QRgb c = line[x];
            if (qRed(c) < 235 || qGreen(c) < 235 || qBlue(c) < 235) ++ink;
            if (colours.size() < 1000) colours.insert(c);
        }
    }
    const double samples = double((img.height() + 1) / 2) * double((img.width() + 1) / 2);
    return double(ink) / samples >= minInk && colours.size() >= minColours;
}

// True when no point of series is non-finite, or non-positive on a log axis it is attached to.
inline bool fitsLogAxes(QXYSeries *series)
{
    bool logX = false, logY = false;
    for (const QAbstractAxis *axis : series->attachedAxes()) {
        if (axis->type() != QAbstractAxis::AxisTypeLogValue) continue;
        if (axis->orientation() == Qt::Horizontal) logX = true;
        else logY = true;
    }
    for (const QPointF &p : series->points()) {
        if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return false;
        if ((logX && p.x() <= 0.0) || (logY && p.y() <= 0.0)) return false;
    }
    return true;
}

} // namespace fb::testing
