#pragma once
// A rows x columns table of values drawn as coloured cells (viridis over [low, high], grey where a
// value is not finite), with row and column labels, a title, a colour key under the cells, and in
// each cell as many of its text lines as fit it (none when the cell is too small: the hover tip
// and the colour carry the value then). Cells can be marked (a red frame and cross: an ablated
// head) and clicked. The interpretation panels draw the layer x head tables and the logit lens
// (layer x position) with it. Draws what it is given; computes nothing.
#include "views/widgets/exportable.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace fb {

struct PaintedText;

struct ValueGridData {
    QString title;
    QStringList rowLabels, columnLabels;  // one per row / column ("L1", "H2", "3")
    QString rowTitle, columnTitle;        // e.g. "layer", "position"
    std::vector<std::vector<double>> values;        // [row][column] the colour
    std::vector<std::vector<QStringList>> lines;    // [row][column] the cell's text (optional)
    std::vector<std::vector<QString>> tips;         // [row][column] the hover text (optional)
    double low = 0.0, high = 1.0;                   // the colour scale
    QString lowLabel, highLabel, valueTitle;        // the key under the cells
    std::vector<std::vector<bool>> marked;          // [row][column] (optional)
    QString message;                                // shown, wrapped, when there are no values
};

class ValueGrid : public QWidget, public Exportable {
    Q_OBJECT
public:
    explicit ValueGrid(QWidget *parent = nullptr);

    void setData(ValueGridData data);
    const ValueGridData &data() const { return data_; }
    void setFontScale(double scale);

    // The cell under a widget position: {row, column}, or row = -1.
    struct Cell { int row = -1, col = -1; };
    Cell cellAt(const QPointF &pos) const;
    QRectF cellRect(int row, int col) const;  // at the current size

    QString exportTitle() const override { return data_.title; }
    void paintExport(QPainter &painter, QSize logicalSize) override;
    QString csv() const override;
    QStringList layoutProblems() const;  // text cut or outside the widget (the layout tests)

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override { return { 420, 260 }; }

Q_SIGNALS:
    void cellClicked(int row, int col);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    struct Layout {
        QRectF title, cells, key;
        double cellW = 0, cellH = 0;
    };
    Layout layout(const QSizeF &size) const;
    QFont scaled(double points, bool bold = false) const;
    void paintAll(QPainter &painter, const QSizeF &size, const PaintedText &text) const;
    int rows() const { return int(data_.values.size()); }
    int cols() const { return data_.values.empty() ? 0 : int(data_.values.front().size()); }

    ValueGridData data_;
    double fontScale_ = 1.0;
};

} // namespace fb
