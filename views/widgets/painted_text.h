#pragma once
// Text of the custom-painted charts (the heatmap grid, the positional table), drawn through one
// function that can also note the text that does not fit, and texts of one line run together ("30 0",
// a map's last tick beside the next map's first): the layout tests repaint such a chart with a list
// (layoutProblems()) and fail on anything in it.
#include <QFontMetricsF>
#include <QImage>
#include <QList>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cmath>

namespace fb {

// A text as placed (upright), with its font's line height, for PaintedText::runTogether
struct PlacedText {
    QRectF box;
    double line = 0.0;
    QString text;
};

struct PaintedText {
    QStringList *cut = nullptr;  // when set, text that does not fit is noted here
    QSizeF area;                 // the widget's size: text must stay inside it
    QString where;               // names the chart in the notes
    QList<PlacedText> *placed = nullptr;  // when set, the upright texts drawn

    // As QPainter::drawText(rect, flags, shown). Noted: text wider or higher than rect (Qt clips
    // it), text outside the widget, and shown differing from full (shortened) when full is given.
    void draw(QPainter &painter, const QRectF &rect, int flags, const QString &shown,
              const QString &full = QString()) const
    {
        painter.drawText(rect, flags, shown);
        if (!cut || shown.isEmpty()) return;
        const QRectF need = QFontMetricsF(painter.font()).boundingRect(rect, flags, shown);
        if (need.width() > rect.width() + 0.5 || need.height() > rect.height() + 0.5)
            *cut << QStringLiteral("%1: '%2' needs %3 x %4 px, has %5 x %6").arg(where, shown)
                        .arg(need.width(), 0, 'f', 0).arg(need.height(), 0, 'f', 0)
                        .arg(rect.width(), 0, 'f', 0).arg(rect.height(), 0, 'f', 0);
        else if (!QRectF(QPointF(0, 0), area).adjusted(-1, -1, 1, 1).contains(painter.transform().mapRect(need)))
            *cut << QStringLiteral("%1: '%2' lies outside the chart").arg(where, shown);
        if (!full.isEmpty() && shown != full) *cut << QStringLiteral("%1: '%2' shortened to '%3'").arg(where, full, shown);
        if (placed && !painter.transform().isRotating())
            placed->append({ painter.transform().mapRect(need),
                             QFontMetricsF(painter.font()).height() * painter.transform().m22(), shown });
    }

    // Two single-line texts side by side (the same line height and middle) closer than half that
    // height, about a space and a half: read as one
    static QStringList runTogether(const QList<PlacedText> &texts, const QString &where)
    {
        QStringList notes;
        for (const PlacedText &a : texts)
            for (const PlacedText &b : texts) {
                const double gap = b.box.left() - a.box.right();
                // each pair once: b right of a (the later drawn when they start together)
                if (&a == &b || a.box.height() > 1.5 * a.line || std::abs(a.line - b.line) > 0.5
                    || std::abs(a.box.center().y() - b.box.center().y()) > 1.0 || b.box.left() < a.box.left()
                    || (b.box.left() == a.box.left() && &b < &a) || gap >= 0.5 * a.line)
                    continue;
                notes << QStringLiteral("%1: '%2' and '%3' run together (%4 px apart)")
                             .arg(where, a.text, b.text).arg(gap, 0, 'f', 0);
            }
        return notes;
    }
};

// The problems PaintedText notes when widget, as shown now, paints itself into an image: for the
// custom-painted charts' layoutProblems(). paint(painter, size, text) is the widget's own painting.
// spacing: also texts that run together (charts with rows of ticks; not a grid of numbers in
// coloured cells, whose edges part them).
template <class Paint>
QStringList paintedTextProblems(const QWidget &widget, const QString &where, Paint paint, bool spacing = true)
{
    QStringList problems;
    if (!widget.isVisible() || widget.width() <= 0 || widget.height() <= 0) return problems;
    QImage image(widget.size(), QImage::Format_RGB32);
    QPainter painter(&image);
    painter.setFont(widget.font());
    QList<PlacedText> placed;
    paint(painter, QSizeF(widget.size()), PaintedText { &problems, QSizeF(widget.size()), where, &placed });
    return spacing ? problems + PaintedText::runTogether(placed, where) : problems;
}

} // namespace fb
