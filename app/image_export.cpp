#include "app/image_export.h"

#include "views/exportable.h"

#include <QFileInfo>
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
