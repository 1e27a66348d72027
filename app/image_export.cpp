#include "app/image_export.h"

#include "views/exportable.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QImageWriter>
#include <QRegularExpression>
#include <QSaveFile>

namespace fb {

QImage renderChart(Exportable &chart, const ExportOptions &options)
{
    return chart.renderImage(options.size, options.scale);
}

QString writePng(const QImage &image, const QString &path)
{
    if (image.isNull()) return QStringLiteral("nothing to write: the chart image is empty");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        file.cancelWriting();
        return QStringLiteral("cannot write '%1': %2").arg(path, writer.errorString());
    }
    if (!file.commit()) return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    return {};
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
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.size()) {
        file.cancelWriting();
        return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    }
    if (!file.commit()) return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    return {};
}

QString writeCsv(const Exportable &chart, const QString &path)
{
    const QString text = chart.csv();
    if (text.isEmpty()) return QStringLiteral("“%1” has no data to write as CSV").arg(chart.exportTitle());
    const QByteArray bytes = text.toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    }
    if (!file.commit()) return QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
    return {};
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
