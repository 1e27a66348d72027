#include "app/lab_image.h"

#include "app/lab_registry.h"
#include "views/exportable.h"
#include "views/lab_view.h"

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
    lab.waitForResult();
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

QString embeddedSceneText(const QString &pngPath)
{
    QImageReader reader(pngPath);
    return reader.text(kSceneTextKey);
}

} // namespace fb
