#pragma once
// Text of the custom-painted charts (the heatmap grid, the positional table), drawn through one
// function that can also note the text that does not fit: the layout tests repaint such a chart
// with a list (layoutProblems()) and fail on anything in it.
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>

namespace fb {

struct PaintedText {
    QStringList *cut = nullptr;  // when set, text that does not fit is noted here
    QSizeF area;                 // the widget's size: text must stay inside it
    QString where;               // names the chart in the notes

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
    }
};

// The problems PaintedText notes when widget, as shown now, paints itself into an image: for the
// custom-painted charts' layoutProblems(). paint(painter, size, text) is the widget's own painting.
template <class Paint>
QStringList paintedTextProblems(const QWidget &widget, const QString &where, Paint paint)
{
    QStringList problems;
    if (!widget.isVisible() || widget.width() <= 0 || widget.height() <= 0) return problems;
    QImage image(widget.size(), QImage::Format_RGB32);
    QPainter painter(&image);
    painter.setFont(widget.font());
    paint(painter, QSizeF(widget.size()), PaintedText { &problems, QSizeF(widget.size()), where });
    return problems;
}

} // namespace fb
