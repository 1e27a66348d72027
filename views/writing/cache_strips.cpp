#include "views/writing/cache_strips.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace fb {

CacheStrips::CacheStrips(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(tr("Each head's attention of the newest character over the characters the KV cache holds "
                  "(position 0 at the left); brighter is more attention, on a log scale"));
}

void CacheStrips::setStrips(const QImage &image, int layers, int heads, int context)
{
    const bool shape = layers != layers_ || heads != heads_;
    image_ = image;
    layers_ = layers;
    heads_ = heads;
    context_ = std::max(context, 1);
    if (shape) updateGeometry();
    update();
}

void CacheStrips::clear()
{
    image_ = QImage();
    update();
}

void CacheStrips::setFontScale(double scale)
{
    fontScale_ = scale;
    updateGeometry();
    update();
}

QFont CacheStrips::labelFont() const
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * fontScale_);
    return f;
}

QSize CacheStrips::minimumSizeHint() const
{
    const QFontMetrics fm(labelFont());
    const int rows = std::max(layers_ * heads_, 1);
    return { fm.horizontalAdvance(QStringLiteral("L8 H16")) + 80, fm.height() + std::max(rows * 4, fm.height()) + 4 };
}

QSize CacheStrips::sizeHint() const
{
    const QFontMetrics fm(labelFont());
    const int rows = std::max(layers_ * heads_, 1);
    return { 360, (rows + 1) * fm.height() + 4 };
}

QString CacheStrips::caption() const
{
    // In lecture mode at 1024 x 768 the full wording was cut to "Each head over the KV…".
    const QFontMetrics fm(labelFont());
    const QString wordings[] = { tr("Each head over the KV cache"), tr("Heads over the KV cache"), tr("KV cache") };
    for (const QString &w : wordings)
        if (fm.horizontalAdvance(w) <= width()) return w;
    return fm.elidedText(wordings[std::size(wordings) - 1], Qt::ElideRight, width());
}

void CacheStrips::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const int rows = layers_ * heads_;
    p.setFont(labelFont());
    const QFontMetrics fm(p.font());
    if (rows <= 0) return;
    const int labelWidth = fm.horizontalAdvance(QStringLiteral("L8 H16")) + 6;
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(0, 0, width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter, caption());
    const double top = fm.height() + 2;
    const double rowHeight = (height() - top - 1) / rows;
    const QRectF area(labelWidth, top, width() - labelWidth - 2, rowHeight * rows);
    const bool labelEvery = rowHeight >= fm.height() * 0.9;
    for (int r = 0; r < rows; ++r) {
        const QRectF strip(area.left(), area.top() + r * rowHeight, area.width(), rowHeight);
        // A gap between layers, a hairline between heads.
        const double gap = (r % heads_ == 0 && r > 0) ? 2.0 : 1.0;
        const QRectF cell = strip.adjusted(0, gap, 0, 0);
        p.fillRect(cell, QColor(0xe4, 0xe4, 0xe4));  // capacity not yet used
        if (!image_.isNull() && r < image_.height()) {
            const double filled = cell.width() * image_.width() / double(context_);
            p.drawImage(QRectF(cell.left(), cell.top(), filled, cell.height()), image_,
                        QRectF(0, r, image_.width(), 1));
        }
        if (labelEvery || r % heads_ == 0) {
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QRectF(0, strip.top(), labelWidth - 4, std::max(rowHeight, double(fm.height()))),
                       Qt::AlignRight | Qt::AlignTop,
                       labelEvery ? QStringLiteral("L%1 H%2").arg(r / heads_ + 1).arg(r % heads_ + 1)
                                  : QStringLiteral("L%1").arg(r / heads_ + 1));
        }
    }
}

} // namespace fb
