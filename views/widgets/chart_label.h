#pragma once
// A text label on a light backing drawn inside a chart at a data point (in the series' axis coordinates), kept in
// place when the chart is resized or exported at another size. For annotations the legend would
// truncate: "token-only channel: log2(V), V from 32k to 256k", "crossover n = 6d".
#include <QList>
#include <QObject>
#include <QPointF>
#include <QRectF>

class QAbstractSeries;
class QChart;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;

namespace fb {

class ChartLabel : public QObject {
    Q_OBJECT
public:
    // The label belongs to chart's scene and is positioned through series' axes.
    ChartLabel(QChart *chart, QAbstractSeries *series, const QColor &color);

    // A place for the label: an anchor point (data coordinates) and where the text sits relative to
    // it: alignment is the side of the text touching the anchor (e.g. Qt::AlignLeft | Qt::AlignBottom
    // puts the text above and to the right), offset in pixels.
    struct Placement {
        QPointF anchor;
        Qt::Alignment alignment;
        QPointF offset;
    };
    // Text and place. alternatives: other places to try after that one, in order: the label takes
    // the first of them all that covers the least of the chart's lines and markers (its own series
    // aside: it annotates that one) and of the labels made before it (a short plot, as on a
    // 1024 x 768 slide, may leave no place free); none: that place alone.
    void set(const QString &text, QPointF anchor, Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignBottom,
             QPointF offset = QPointF(6, -4), QList<Placement> alternatives = {});
    // Its box in the chart's coordinates; empty when hidden.
    QRectF rect() const;
    QString text() const;
    void setVisible(bool visible);
    // Keeps the label inside the plot area: call after axis ranges change. Places the labels of the
    // chart made after it too, which avoid it.
    void reposition();
    // Its letters times scale (lecture mode; ChartPanel::setFontScale sets every label of its chart).
    void setFontScale(double scale);
    double pointSize() const;  // its letters' size now
    static constexpr double kPointSize = 10.5;

private:
    QChart *chart_ = nullptr;
    QAbstractSeries *series_ = nullptr;
    QGraphicsRectItem *box_ = nullptr;          // white backing, so curves under the text stay readable
    QGraphicsSimpleTextItem *item_ = nullptr;  // child of box_
    QPointF anchor_;
    Qt::Alignment alignment_ = Qt::AlignLeft | Qt::AlignBottom;
    QPointF offset_;
    QList<Placement> alternatives_;
    bool visible_ = true;

    // What a place would hide: the chart's lines and markers where they are drawn (in the chart's
    // coordinates), and the boxes of the labels placed before this one
    struct Obstacles {
        QList<QList<QPointF>> lines;
        QList<QPointF> markers;
        QList<QRectF> labels;
    };
    // The box of the label at p inside plot; false when p's anchor is outside the plot.
    bool boxAt(const Placement &p, const QRectF &plot, QRectF &box) const;
    Obstacles obstacles() const;
    // How much of o the box would hide: the length of lines in it (pixels), 10 per marker, and more than
    // any line for overlapping another label.
    static double covered(const QRectF &box, const Obstacles &o);
    // Places this label alone, against the labels made before it (reposition() places it and the
    // labels made after it; a new plot area places each in the order they were made).
    void place();
};

} // namespace fb
