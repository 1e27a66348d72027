#include "exportable.h"

namespace fb {

QImage Exportable::renderImage(QSize logicalSize, qreal dpr)
{
    QImage image(logicalSize * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintExport(painter, logicalSize);
    return image;
}

} // namespace fb
