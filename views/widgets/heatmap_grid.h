#pragma once
// A grid of square heatmaps that share one colour scale (one per attention head): each panel a
// colour-mapped QImage drawn scaled without smoothing, titled, with shared axes (token or
// position tick labels), one colour bar, and hover read-out of the cell under the mouse.
// Paints itself the same way on screen and into exported images of any size, into the places
// HeatmapLayout (views/widgets/heatmap_layout.h) computes for that size.
#include "views/widgets/colour_bar.h"
#include "views/widgets/exportable.h"
#include "views/widgets/heatmap_layout.h"

#include <Eigen/Dense>

#include <QImage>
#include <QList>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace fb {

struct PaintedText;

struct HeatmapGridData {
    QString title;                      // figure title, painted at the top
    QStringList panelTitles;            // one per panel, e.g. "head 1 · entropy 1.23 nats"
    QStringList shortTitles;            // optional, for narrow panels, e.g. "head 1 · 1.23 nats"
    QList<QImage> images;               // one per panel, n x n, row = y (top to bottom), column = x
    QList<QImage> logImages;            // the same on a log scale from logFloor to maxValue (optional)
    double logFloor = 0.0;
    // The values behind the images, [panel] n x n, for the hover read-out.
    std::shared_ptr<const std::vector<Eigen::MatrixXd>> values;
    QStringList tokens;                 // n labels for the ticks when tokenTicks
    bool tokenTicks = false;            // label ticks with tokens (else with positions 0..n-1)
    double maxValue = 1.0;              // top of the colour scale (bottom is 0)
    bool masked = false;                // cells above the diagonal are masked (drawn grey)
    QString xTitle, yTitle, valueTitle; // axis titles and the colour bar's label
    QString csvHeader;                  // the CSV export's columns (default "head,query,key,weight")
};

class HeatmapGrid : public QWidget, public Exportable {
    Q_OBJECT
public:
    explicit HeatmapGrid(QWidget *parent = nullptr);

    void setData(HeatmapGridData data);
    // All panels as given, also those a shown range leaves out.
    const HeatmapGridData &data() const { return all_; }

    // Draws only the panels [first, first + count) (one layer's heads of many), laid out as if they
    // were all there are; count <= 0 draws every panel. Panel numbers stay the data's own: cellAt,
    // panelRect and the hover read-out speak of panel first + i, the CSV names its heads so.
    void setShownPanels(int first, int count);
    const ColourBar &colourBar() const { return colourBar_; }

    // Multiplies every font (1 = normal; lecture mode uses more). Exports use the same scale.
    void setFontScale(double scale);

    // Shows the log-scale images and colour bar (when the data has them).
    void setLogScale(bool on);
    bool logScale() const { return logScale_; }
    // The images on screen and in exports: logImages when the log scale is on (or when the data
    // has no others), else images. A producer may colour only the scale it was asked for.
    const QList<QImage> &shownImages() const;
    bool showsLog() const;

    // Text for the cell under the mouse (panel, row, column, value); the default names them plainly.
    void setHoverFormatter(std::function<QString(int panel, int row, int col, double value)> formatter);

    // Colour-maps values / maxValue through viridis into an image of the same shape (with logFloor
    // > 0: log(value / logFloor) / log(maxValue / logFloor), values below the floor at the bottom);
    // with maskUpper the cells right of the diagonal (column > row) are grey. Pure: call it on a worker.
    static QImage colourImage(const Eigen::MatrixXd &values, double maxValue, bool maskUpper,
                              double logFloor = 0.0);
    // The same into image, reusing its pixels when it has the size and nobody else holds it (a live
    // lab recolours maps of the same size every frame; fresh memory costs a page fault per 4 KB).
    static void colourInto(QImage &image, const Eigen::MatrixXd &values, double maxValue, bool maskUpper,
                           double logFloor = 0.0);
    // The grid's usual shape for a panel count: rows = floor(sqrt(count)), columns = ceil(count /
    // rows) (2 x 2 for 4, 2 x 4 for 8, 4 x 4 for 16). A size where another shape gives larger
    // squares (one row in a wide, low area) gets that one.
    static int gridRows(int count);
    static int gridColumns(int count);

    // Geometry at the widget's current size (tests): a shown panel's square (empty for one not shown)
    // and the colour bar.
    QRectF panelRect(int panel) const;
    QRectF colourBarRect() const;
    // The cell at a widget position: {panel, row, column}, or panel = -1.
    struct Cell { int panel = -1, row = -1, col = -1; };
    Cell cellAt(const QPointF &pos) const;

    // The name used for export files and menus (default: the figure title).
    void setExportTitle(const QString &title) { exportTitle_ = title; }
    QString exportTitle() const override;
    // Text this grid, as shown now, draws cut, shortened or outside itself (the layout tests).
    QStringList layoutProblems() const;
    void paintExport(QPainter &painter, QSize logicalSize) override;
    // head, query, key, weight: one row per cell.
    QString csv() const override;

    QSize minimumSizeHint() const override { return { 360, 280 }; }

Q_SIGNALS:
    // The hover read-out (empty when the mouse leaves the heatmaps).
    void hoverTextChanged(const QString &text);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    HeatmapFonts fonts() const;
    HeatmapLayout layout(const QSizeF &size) const;  // views/widgets/heatmap_layout.h
    // text: draws the texts (and, for layoutProblems, notes the ones that do not fit).
    void paintAll(QPainter &painter, const QSizeF &size, const PaintedText &text) const;
    void paintTicks(QPainter &painter, const HeatmapLayout &lay, const PaintedText &text) const;
    int n() const;
    // The panels drawn, as (first, count) of all_'s: the range asked for, or every panel when none
    // was asked or it lies past the panels given (a model of fewer layers)
    std::pair<qsizetype, qsizetype> shownRange() const;
    int shownOffset() const { return int(shownRange().first); }  // the data's number of the first panel drawn

    // The panels of all_ in [first_, first_ + count_) (all when count_ <= 0), which is what is drawn
    void slice();

    HeatmapGridData all_;   // as given
    HeatmapGridData data_;  // the shown panels
    int first_ = 0, count_ = 0;
    ColourBar colourBar_;
    Cell hover_;
    bool logScale_ = false;
    double fontScale_ = 1.0;
    QString exportTitle_;
    std::function<QString(int, int, int, double)> hoverFormatter_;
};

} // namespace fb
