#include "views/widgets/chart_label.h"

#include "views/widgets/line_cover.h"

#include <QAbstractSeries>
#include <QBrush>
#include <QChart>
#include <QAreaSeries>
#include <QLineSeries>
#include <QXYSeries>
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
    // every label of the chart is told, in the order they were made: each places itself alone
    connect(chart, &QChart::plotAreaChanged, this, &ChartLabel::place);
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

void ChartLabel::set(const QString &text, QPointF anchor, Qt::Alignment alignment, QPointF offset,
                     QList<Placement> alternatives)
{
    if (item_->text() != text) item_->setText(text);
    anchor_ = anchor;
    alignment_ = alignment;
    offset_ = offset;
    alternatives_ = std::move(alternatives);
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

QRectF ChartLabel::rect() const
{
    return box_->isVisible() ? box_->rect().translated(box_->pos()) : QRectF();
}

bool ChartLabel::boxAt(const Placement &p, const QRectF &plot, QRectF &box) const
{
    const QPointF at = chart_->mapToPosition(p.anchor, series_);
    if (!std::isfinite(at.x()) || !std::isfinite(at.y()) || !plot.adjusted(-1, -1, 1, 1).contains(at)) return false;
    const QRectF text = item_->boundingRect();
    box = QRectF(0, 0, text.width() + 6, text.height() + 2);
    QPointF topLeft = at + p.offset;
    if (p.alignment & Qt::AlignRight) topLeft.rx() -= box.width();
    else if (p.alignment & Qt::AlignHCenter) topLeft.rx() -= box.width() / 2;
    if (p.alignment & Qt::AlignBottom) topLeft.ry() -= box.height();
    else if (p.alignment & Qt::AlignVCenter) topLeft.ry() -= box.height() / 2;
    // Inside the plot area, whatever the anchor.
    topLeft.setX(std::clamp(topLeft.x(), plot.left() + 2, std::max(plot.left() + 2, plot.right() - box.width() - 2)));
    topLeft.setY(std::clamp(topLeft.y(), plot.top() + 2, std::max(plot.top() + 2, plot.bottom() - box.height() - 2)));
    box.moveTopLeft(topLeft);
    return true;
}

ChartLabel::Obstacles ChartLabel::obstacles() const
{
    // what the chart draws, placed once for every place tried: its lines (a band's two edges) and
    // markers, but not the label's own series (a context line's label stands on its line), and the
    // labels placed before this one (in the order they were made: each pass places them in turn)
    Obstacles o;
    const auto placed = [&](const QList<QPointF> &points, QAbstractSeries *series) {
        QList<QPointF> out;
        out.reserve(points.size());
        for (const QPointF &p : points) out.append(chart_->mapToPosition(p, series));
        return out;
    };
    for (QAbstractSeries *s : chart_->series()) {
        if (!s->isVisible() || s == series_) continue;
        if (const auto *area = qobject_cast<const QAreaSeries *>(s)) {
            for (const QLineSeries *edge : { area->upperSeries(), area->lowerSeries() })
                if (edge) o.lines.append(placed(edge->points(), s));
        } else if (const auto *xy = qobject_cast<const QXYSeries *>(s)) {
            if (s->type() == QAbstractSeries::SeriesTypeScatter) o.markers += placed(xy->points(), s);
            else o.lines.append(placed(xy->points(), s));
        }
    }
    for (const ChartLabel *other : chart_->findChildren<ChartLabel *>(Qt::FindDirectChildrenOnly)) {
        if (other == this) break;
        if (!other->rect().isEmpty()) o.labels.append(other->rect());
    }
    return o;
}

double ChartLabel::covered(const QRectF &box, const Obstacles &o)
{
    double cost = 0.0;
    for (const QList<QPointF> &line : o.lines) cost += insideLength(line, box);
    for (const QPointF &m : o.markers) cost += box.contains(m) ? 10.0 : 0.0;
    for (const QRectF &label : o.labels) {
        const QRectF overlap = label.intersected(box);
        if (!overlap.isEmpty()) cost += 1e4 + overlap.width() * overlap.height();
    }
    return cost;
}

void ChartLabel::reposition()
{
    // this label, then the ones made after it, which take its place into account
    bool after = false;
    for (ChartLabel *label : chart_->findChildren<ChartLabel *>(Qt::FindDirectChildrenOnly)) {
        after = after || label == this;
        if (after) label->place();
    }
}

void ChartLabel::place()
{
    const QRectF plot = chart_->plotArea();
    // Nothing to place yet (and no anchor to map: a log axis would warn about 0).
    if (!visible_ || item_->text().isEmpty() || plot.width() <= 0) {
        box_->setVisible(false);
        return;
    }
    QRectF best;
    bool found = false;
    double least = 0.0;
    Obstacles o;
    if (!alternatives_.isEmpty()) o = obstacles();
    const Placement first { anchor_, alignment_, offset_ };
    for (qsizetype i = -1; i < alternatives_.size(); ++i) {
        QRectF box;
        if (!boxAt(i < 0 ? first : alternatives_[i], plot, box)) continue;
        if (alternatives_.isEmpty()) {
            best = box;
            found = true;
            break;
        }
        // a later place only when it hides clearly less (a pixel of line)
        const double cost = covered(box, o);
        if (!found || cost < least - 1.0) {
            best = box;
            least = cost;
            found = true;
        }
    }
    box_->setVisible(found);
    if (!found) return;
    box_->setRect(QRectF(QPointF(0, 0), best.size()));
    box_->setPos(best.topLeft());
}

} // namespace fb
