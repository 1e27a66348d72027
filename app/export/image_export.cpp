#include "app/export/image_export.h"

#include "core/io/atomic_file.h"
#include "views/widgets/exportable.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QImageWriter>
#include <QRegularExpression>
#include <QFile>

namespace fb {

QImage renderChart(Exportable &chart, const ExportOptions &options)
{
    return chart.renderImage(options.size, options.scale);
}

namespace {
// Every export is encoded in memory first, then written all or nothing (core/io/atomic_file.h).
QString writeBytes(const QString &path, const QByteArray &bytes)
{
    return QString::fromStdString(
        writeFileAtomically(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size()))));
}
} // namespace

QString writePng(const QImage &image, const QString &path)
{
    if (image.isNull()) return QStringLiteral("nothing to write: the chart image is empty");
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        return QStringLiteral("cannot write '%1': the image could not be encoded as PNG (%2)").arg(path, writer.errorString());
    return writeBytes(path, buffer.data());
}

QString writeSvg(Exportable &chart, const QString &path, QSize size)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(chart.exportTitle());
        svg.setDescription(QStringLiteral("Exported by FullBand"));
        QPainter painter(&svg);
        chart.paintExport(painter, size);
    }
    return writeBytes(path, buffer.data());
}

QString writeCsv(const Exportable &chart, const QString &path)
{
    const QString text = chart.csv();
    if (text.isEmpty()) return QStringLiteral("“%1” has no data to write as CSV").arg(chart.exportTitle());
    return writeBytes(path, text.toUtf8());
}

ExportFormat exportFormat(const QString &path)
{
    if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) return ExportFormat::Png;
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) return ExportFormat::Svg;
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) return ExportFormat::Csv;
    return ExportFormat::Unknown;
}

QString fileSlug(const QString &title)
{
    QString s = title.toLower();
    s.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    s.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    return s.isEmpty() ? QStringLiteral("chart") : s;
}

bool parseSize(const QString &text, QSize &size)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d{1,5})\\s*[xX×]\\s*(\\d{1,5})\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return false;
    const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
    if (w < 16 || h < 16 || w > 8192 || h > 8192) return false;
    size = QSize(w, h);
    return true;
}

} // namespace fb
