#pragma once
// Writing exported charts to disk: whole files or nothing.
#include <QImage>
#include <QString>

namespace fb {

class Exportable;

struct ExportOptions {
    QSize size { 1600, 1000 };  // logical pixels
    qreal scale = 1.0;          // 2 for slides: twice the pixels, same layout
};

// Renders one chart at the options' size.
QImage renderChart(Exportable &chart, const ExportOptions &options);

// Encodes a PNG in memory, then writes it all or nothing (core/io/atomic_file.h): on failure the
// previous file, if any, is untouched and no partial file is left. Returns an empty string on
// success, otherwise a message naming the path and the reason ("no space left on device").
QString writePng(const QImage &image, const QString &path);

// Writes the chart as SVG (vector) or its data as CSV, atomically like writePng.
QString writeSvg(Exportable &chart, const QString &path, QSize size);
QString writeCsv(const Exportable &chart, const QString &path);

// PNG, SVG or CSV by the path's extension (.png, .svg, .csv); other extensions are refused.
enum class ExportFormat { Png, Svg, Csv, Unknown };
ExportFormat exportFormat(const QString &path);

// "Long-term decay of the RoPE bound" -> "long-term-decay-of-the-rope-bound".
QString fileSlug(const QString &title);

// "1600x1000" -> size; returns false (and leaves size) for anything else or outside 16..8192.
bool parseSize(const QString &text, QSize &size);

} // namespace fb
