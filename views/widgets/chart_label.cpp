#include "views/widgets/chart_label.h"

#include <QAbstractSeries>
#include <QBrush>
#include <QChart>
#include <QFont>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace fb {

ChartLabel::ChartLabel(QChart *chart, QAbstractSeries *series, const QColor &color)
    : QObject(chart)
    , chart_(chart)
    , series_(series)
    , box_(new QGraphicsRectItem(chart))
    , item_(new QGraphicsSimpleTextItem(box_))
{
    QColor backing(Qt::white);
    backing.setAlphaF(0.85f);
    box_->setBrush(backing);
    box_->setPen(Qt::NoPen);
    box_->setZValue(20);
    box_->setVisible(false);
    item_->setPos(3, 1);
    setFontScale(1.0);
    item_->setBrush(color);
    connect(chart, &QChart::plotAreaChanged, this, &ChartLabel::reposition);
}

void ChartLabel::setFontScale(double scale)
{
    QFont f = item_->font();
    f.setPointSizeF(kPointSize * scale);
    if (f == item_->font()) return;
    item_->setFont(f);
    reposition();
}

double ChartLabel::pointSize() const
{
    return item_->font().pointSizeF();
}

void ChartLabel::set(const QString &text, QPointF anchor, Qt::Alignment alignment, QPointF offset)
{
    if (item_->text() != text) item_->setText(text);
    anchor_ = anchor;
    alignment_ = alignment;
    offset_ = offset;
    reposition();
}

QString ChartLabel::text() const
{
    return item_->text();
}

void ChartLabel::setVisible(bool visible)
{
    visible_ = visible;
    reposition();
}

void ChartLabel::reposition()
{
    const QRectF plot = chart_->plotArea();
    // Nothing to place yet (and no anchor to map: a log axis would warn about 0).
    if (!visible_ || item_->text().isEmpty() || plot.width() <= 0) {
        box_->setVisible(false);
        return;
    }
    const QPointF at = chart_->mapToPosition(anchor_, series_);
    const bool ok = std::isfinite(at.x()) && std::isfinite(at.y()) && plot.adjusted(-1, -1, 1, 1).contains(at);
    box_->setVisible(ok);
    if (!ok) return;
    const QRectF text = item_->boundingRect();
    const QRectF box(0, 0, text.width() + 6, text.height() + 2);
    box_->setRect(box);
    QPointF topLeft = at + offset_;
    if (alignment_ & Qt::AlignRight) topLeft.rx() -= box.width();
    else if (alignment_ & Qt::AlignHCenter) topLeft.rx() -= box.width() / 2;
    if (alignment_ & Qt::AlignBottom) topLeft.ry() -= box.height();
    else if (alignment_ & Qt::AlignVCenter) topLeft.ry() -= box.height() / 2;
    // Inside the plot area, whatever the anchor.
    topLeft.setX(std::clamp(topLeft.x(), plot.left() + 2, std::max(plot.left() + 2, plot.right() - box.width() - 2)));
    topLeft.setY(std::clamp(topLeft.y(), plot.top() + 2, std::max(plot.top() + 2, plot.bottom() - box.height() - 2)));
    box_->setPos(topLeft);
}

} // namespace fb
