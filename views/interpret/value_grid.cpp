#include "views/interpret/value_grid.h"

#include "views/widgets/fitted_font.h"
#include "views/widgets/painted_text.h"
#include "views/widgets/palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

constexpr double kLabelGutter = 34.0;  // row labels, at font scale 1 (wider when they need it)
constexpr double kKeyHeight = 14.0;    // the colour key's strip

double colourOf(const ValueGridData &d, double v)
{
    return d.high > d.low ? (v - d.low) / (d.high - d.low) : 0.0;
}

} // namespace

ValueGrid::ValueGrid(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ValueGrid::setData(ValueGridData data)
{
    data_ = std::move(data);
    update();
}

void ValueGrid::setFontScale(double scale)
{
    fontScale_ = std::max(0.5, scale);
    updateGeometry();
    update();
}

QSize ValueGrid::minimumSizeHint() const
{
    return { int(220 * fontScale_), int(120 * fontScale_) };
}

QFont ValueGrid::scaled(double points, bool bold) const
{
    QFont f = font();
    f.setPointSizeF(points * fontScale_);
    f.setBold(bold);
    return f;
}

ValueGrid::Layout ValueGrid::layout(const QSizeF &size) const
{
    Layout lay;
    const double line = QFontMetricsF(scaled(10, true)).height();
    const double small = QFontMetricsF(scaled(9)).height();
    lay.title = QRectF(4, 2, size.width() - 8, line);
    const double top = lay.title.bottom() + small + 4;  // the column labels under the title
    const double keyH = kKeyHeight * fontScale_ + small + 6;
    double gutter = kLabelGutter * fontScale_;
    const QFontMetricsF lm(scaled(9));
    for (const QString &s : data_.rowLabels) gutter = std::max(gutter, lm.horizontalAdvance(s) + 10);
    lay.key = QRectF(gutter, size.height() - keyH, size.width() - gutter - 8, keyH);
    lay.cells = QRectF(gutter, top, size.width() - gutter - 8,
                       std::max(10.0, lay.key.top() - top - 4));
    if (rows() > 0 && cols() > 0) {
        lay.cellW = lay.cells.width() / cols();
        lay.cellH = lay.cells.height() / rows();
    }
    return lay;
}

QRectF ValueGrid::cellRect(int row, int col) const
{
    const Layout lay = layout(QSizeF(size()));
    return QRectF(lay.cells.left() + col * lay.cellW, lay.cells.top() + row * lay.cellH, lay.cellW, lay.cellH);
}

ValueGrid::Cell ValueGrid::cellAt(const QPointF &pos) const
{
    const Layout lay = layout(QSizeF(size()));
    if (!lay.cells.contains(pos) || lay.cellW <= 0 || lay.cellH <= 0) return {};
    const int col = std::clamp(int((pos.x() - lay.cells.left()) / lay.cellW), 0, cols() - 1);
    const int row = std::clamp(int((pos.y() - lay.cells.top()) / lay.cellH), 0, rows() - 1);
    return { row, col };
}

void ValueGrid::paintAll(QPainter &p, const QSizeF &size, const PaintedText &text) const
{
    p.fillRect(QRectF(QPointF(0, 0), size), palette().color(QPalette::Base));
    const Layout lay = layout(size);
    p.setPen(palette().color(QPalette::Text));
    p.setFont(fittedFont(scaled(10, true), data_.title, lay.title.width()));
    text.draw(p, lay.title, Qt::AlignLeft | Qt::AlignVCenter, data_.title);
    if (rows() == 0 || cols() == 0) {
        p.setFont(scaled(10));
        p.setPen(palette().color(QPalette::PlaceholderText));
        const QRectF area(8, lay.title.bottom() + 8, size.width() - 16, size.height() - lay.title.bottom() - 16);
        if (!data_.message.isEmpty() && area.height() > 0) text.draw(p, area, Qt::AlignCenter | Qt::TextWordWrap, data_.message);
        return;
    }

    // Column labels: every k-th where they would crowd (positions).
    const QFont labelFont = scaled(9);
    p.setFont(labelFont);
    const QFontMetricsF lm(labelFont);
    double widest = 0;
    for (const QString &s : data_.columnLabels) widest = std::max(widest, lm.horizontalAdvance(s));
    const int every = std::max(1, int(std::ceil((widest + 6) / std::max(1.0, lay.cellW))));
    for (int c = 0; c < cols() && c < data_.columnLabels.size(); c += every) {
        const QRectF r(lay.cells.left() + c * lay.cellW + lay.cellW / 2 - widest / 2 - 3, lay.title.bottom() + 2,
                       widest + 6, lm.height());
        text.draw(p, r, Qt::AlignCenter, data_.columnLabels[c]);
    }
    for (int r = 0; r < rows() && r < data_.rowLabels.size(); ++r) {
        const QRectF rect(0, lay.cells.top() + r * lay.cellH, lay.cells.left() - 4, lay.cellH);
        text.draw(p, rect, Qt::AlignRight | Qt::AlignVCenter, data_.rowLabels[r]);
    }

    // Cells, their text where it fits, the marks.
    const QFont cellFont = scaled(9);
    const QFontMetricsF cm(cellFont);
    p.setFont(cellFont);
    for (int r = 0; r < rows(); ++r)
        for (int c = 0; c < cols(); ++c) {
            const QRectF cell(lay.cells.left() + c * lay.cellW, lay.cells.top() + r * lay.cellH, lay.cellW, lay.cellH);
            const double v = data_.values[std::size_t(r)][std::size_t(c)];
            const QColor colour = std::isfinite(v) ? viridis(colourOf(data_, v)) : QColor(200, 200, 200);
            p.fillRect(cell, colour);
            p.setPen(QPen(palette().color(QPalette::Base), 1));
            p.drawRect(cell);
            if (std::size_t(r) < data_.lines.size() && std::size_t(c) < data_.lines[std::size_t(r)].size()) {
                QStringList lines = data_.lines[std::size_t(r)][std::size_t(c)];
                const double lineH = cm.lineSpacing() + 0.5;  // what the painter's bounding box takes per line
                while (!lines.isEmpty() && lineH * double(lines.size()) + 2 > cell.height() - 2) lines.removeLast();
                double wide = 0;
                for (const QString &s : lines) wide = std::max(wide, cm.horizontalAdvance(s));
                if (wide > cell.width() - 4) lines.clear();
                if (!lines.isEmpty()) {
                    p.setPen(colour.lightnessF() > 0.55 ? Qt::black : Qt::white);
                    const double h = lineH * double(lines.size()) + 2;
                    const QRectF box(cell.center().x() - wide / 2 - 1, cell.center().y() - h / 2, wide + 2, h);
                    text.draw(p, box, Qt::AlignCenter, lines.join(QLatin1Char('\n')));
                }
            }
            if (std::size_t(r) < data_.marked.size() && std::size_t(c) < data_.marked[std::size_t(r)].size()
                && data_.marked[std::size_t(r)][std::size_t(c)]) {
                p.setPen(QPen(QColor(0xd0, 0x10, 0x30), 3.0 * fontScale_));
                const QRectF in = cell.adjusted(2, 2, -2, -2);
                p.drawRect(in);
                p.drawLine(in.topLeft(), in.topLeft() + QPointF(std::min(in.width(), in.height()) / 4, std::min(in.width(), in.height()) / 4));
                p.drawLine(in.topRight(), in.topRight() + QPointF(-std::min(in.width(), in.height()) / 4, std::min(in.width(), in.height()) / 4));
            }
        }

    // The key: a gradient strip, its ends labelled, the quantity in the middle.
    const QRectF strip(lay.key.left(), lay.key.top() + 2, lay.key.width(), kKeyHeight * fontScale_ - 4);
    QLinearGradient g(strip.topLeft(), strip.topRight());
    for (int i = 0; i <= 8; ++i) g.setColorAt(i / 8.0, viridis(i / 8.0));
    p.fillRect(strip, g);
    p.setPen(palette().color(QPalette::Text));
    p.setFont(labelFont);
    const QRectF under(lay.key.left(), strip.bottom() + 2, lay.key.width(), lm.height());
    const double lowW = lm.horizontalAdvance(data_.lowLabel) + 2, highW = lm.horizontalAdvance(data_.highLabel) + 2;
    text.draw(p, QRectF(under.left(), under.top(), lowW, under.height()), Qt::AlignLeft, data_.lowLabel);
    text.draw(p, QRectF(under.right() - highW, under.top(), highW, under.height()), Qt::AlignRight, data_.highLabel);
    const double middle = under.width() - 2 * std::max(lowW, highW) - 8;
    if (middle > 0 && !data_.valueTitle.isEmpty()) {
        p.setFont(fittedFont(labelFont, data_.valueTitle, middle, 0.75));
        if (QFontMetricsF(p.font()).horizontalAdvance(data_.valueTitle) <= middle)
            text.draw(p, QRectF(under.center().x() - middle / 2, under.top(), middle, under.height()), Qt::AlignCenter,
                      data_.valueTitle);
    }
}

void ValueGrid::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintAll(p, QSizeF(size()), PaintedText { nullptr, QSizeF(size()), {} });
}

void ValueGrid::paintExport(QPainter &painter, QSize logicalSize)
{
    paintAll(painter, QSizeF(logicalSize), PaintedText { nullptr, QSizeF(logicalSize), {} });
}

QStringList ValueGrid::layoutProblems() const
{
    // numbers in coloured cells side by side, parted by the cells' edges: not a row of ticks
    return paintedTextProblems(
        *this, data_.title, [this](QPainter &p, const QSizeF &s, const PaintedText &t) { paintAll(p, s, t); }, false);
}

QString ValueGrid::csv() const
{
    QString out = QStringLiteral("row,column,value\n");
    for (int r = 0; r < rows(); ++r)
        for (int c = 0; c < cols(); ++c)
            out += QStringLiteral("%1,%2,%3\n")
                       .arg(r < data_.rowLabels.size() ? data_.rowLabels[r] : QString::number(r))
                       .arg(c < data_.columnLabels.size() ? data_.columnLabels[c] : QString::number(c))
                       .arg(data_.values[std::size_t(r)][std::size_t(c)], 0, 'g', 8);
    return out;
}

void ValueGrid::mousePressEvent(QMouseEvent *event)
{
    const Cell cell = cellAt(event->position());
    if (cell.row >= 0 && event->button() == Qt::LeftButton) Q_EMIT cellClicked(cell.row, cell.col);
}

void ValueGrid::mouseMoveEvent(QMouseEvent *event)
{
    const Cell cell = cellAt(event->position());
    if (cell.row >= 0 && std::size_t(cell.row) < data_.tips.size()
        && std::size_t(cell.col) < data_.tips[std::size_t(cell.row)].size())
        QToolTip::showText(event->globalPosition().toPoint(), data_.tips[std::size_t(cell.row)][std::size_t(cell.col)], this);
    else
        QToolTip::hideText();
}

} // namespace fb
