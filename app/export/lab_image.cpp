#include "app/export/lab_image.h"

#include "app/registry/lab_registry.h"
#include "core/io/bounded_read.h"
#include "core/io/png_chunks.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"

#include <QBuffer>
#include <QFile>
#include <QImageReader>
#include <QJsonDocument>
#include <QPainter>

#include <algorithm>

namespace fb {

Scene sceneOf(const LabView &lab)
{
    return Scene { lab.name(), lab.title(), lab.values(), lab.extraState() };
}

QImage chartImage(LabView &lab, int chartIndex, QSize size, qreal scale, bool captionStrip)
{
    if (chartIndex < 0 || chartIndex >= lab.exportables().size()) return {};
    Exportable *chart = lab.exportables()[chartIndex];
    QImage image;
    if (captionStrip) {
        // The chart above, one line of key parameters below, in the requested size overall.
        const int strip = std::max(28, size.height() / 24);
        const QImage top = chart->renderImage(QSize(size.width(), size.height() - strip), scale);
        image = QImage(size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter p(&image);
        p.drawImage(QPointF(0, 0), top);
        QFont font = p.font();
        font.setPointSizeF(std::max(8.0, strip * 0.38));
        p.setFont(font);
        p.setPen(QColor(60, 60, 60));
        p.drawText(QRect(12, size.height() - strip, size.width() - 24, strip), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(lab.caption(), Qt::ElideRight, size.width() - 24));
    } else {
        image = chart->renderImage(size, scale);
    }
    const Scene s = sceneOf(lab);
    if (const LabSpec *spec = labSpec(s.lab))
        image.setText(kSceneTextKey, QString::fromUtf8(QJsonDocument(sceneToJson(s, *spec)).toJson(QJsonDocument::Compact)));
    return image;
}

QString embeddedSceneText(const QString &pngPath, QString *error)
{
    // Only a regular file, read without blocking, whose chunks all fit in it (core/io/png_chunks.h):
    // the decoder then allocates no more than the file holds.
    std::string bytes;
    QString err = QString::fromStdString(readRegularFile(QFile::encodeName(pngPath).toStdString(), kMaxPngBytes, bytes));
    if (err.isEmpty())
        if (const std::string bad = checkPngChunks(bytes); !bad.empty())
            err = QStringLiteral("'%1': %2").arg(pngPath, QString::fromStdString(bad));
    if (!err.isEmpty()) {
        if (error) *error = err;
        return {};
    }
    QByteArray data = QByteArray::fromStdString(bytes);
    QBuffer buffer(&data);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, "png");
    return reader.text(kSceneTextKey);
}

} // namespace fb
