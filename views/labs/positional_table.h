#pragma once
// The sinusoidal table PE(pos, i) of section 218.4.3 as a heatmap: positions down, dimensions across
// (even i: sin, odd i: cos), viridis over [-1, 1], and on top the wavelength 2π b^(2⌊i/2⌋/d) of each
// dimension's pair, so the fast pairs on the left and the slow ones on the right read as wavelengths.
// Hover reads out one entry. Paints itself the same way on screen and into exported images.
#include "views/widgets/exportable.h"

#include <Eigen/Dense>

#include <QImage>
#include <QWidget>

#include <memory>
#include <vector>

namespace fb {

struct PaintedText;

struct PositionalTableData {
    QImage image;                                   // n x d: pixel (i, pos) is PE(pos, i), viridis over [-1, 1]
    std::shared_ptr<const Eigen::MatrixXd> values;  // (n, d) the table itself, for hover and CSV
    std::vector<double> wavelength;                 // [d / 2] 2π b^(2k/d) of pair k (tokens)
    double base = 10000.0;
    QString title;
    QString shortTitle;  // optional, where the title does not fit even set smaller
};

class PositionalTable : public QWidget, public Exportable {
    Q_OBJECT
public:
    explicit PositionalTable(QWidget *parent = nullptr);

    void setData(PositionalTableData data);
    const PositionalTableData &data() const { return data_; }
    // The image of a table (on the worker): values in [-1, 1] through viridis.
    static QImage colourImage(const Eigen::MatrixXd &table);

    // Multiplies every font (1 = normal; lecture mode uses more).
    void setFontScale(double scale);

    // Geometry at the widget's current size (tests): the heatmap's rectangle, and the entry at a
    // widget position ({-1, -1} outside).
    QRectF mapRect() const;
    struct Entry { int position = -1, dimension = -1; };
    Entry entryAt(const QPointF &pos) const;
    // "position 3 · dimension 10 (sin, pair 5, wavelength 112 tokens) · PE = 0.1234"
    QString entryText(const Entry &e) const;

    QString exportTitle() const override;
    // Text this table, as shown now, draws cut, shortened or outside itself (the layout tests).
    QStringList layoutProblems() const;
    void paintExport(QPainter &painter, QSize logicalSize) override;
    // position, dimension, value: one row per entry.
    QString csv() const override;

    // High enough for a map of at least 60 px under its title, ticks and axis title at the current
    // font scale (a projector's fonts are larger).
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override { return { 640, 240 }; }

Q_SIGNALS:
    void hoverTextChanged(const QString &text);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    struct Layout {
        QRectF title, map, bar;
        double leftGutter = 0;
    };
    struct Fonts {
        QFont title, tick, axis;
    };
    Fonts fonts() const;
    Layout layout(const QSizeF &size) const;
    // text: draws the texts (and, for layoutProblems, notes the ones that do not fit).
    void paintAll(QPainter &painter, const QSizeF &size, const PaintedText &text) const;
    int rows() const;  // n
    int cols() const;  // d

    PositionalTableData data_;
    Entry hover_;
    double fontScale_ = 1.0;
};

} // namespace fb
