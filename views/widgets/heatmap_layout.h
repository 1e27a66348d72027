#pragma once
// Where a heatmap grid (views/widgets/heatmap_grid.h) puts its parts at a given size: the figure's
// title, each panel's square and title, the colour bar and the gutters for the ticks, with the grid's
// shape chosen for the largest squares that size allows. Geometry only: HeatmapGrid paints into it,
// on screen and into exports alike, and finds the cell under the mouse with it.
#include <QFont>
#include <QList>
#include <QRectF>
#include <QSizeF>

namespace fb {

class ColourBar;
struct HeatmapGridData;

// The grid's fonts at its font scale.
struct HeatmapFonts {
    QFont title, panel, tick, axis;
};

struct HeatmapLayout {
    static constexpr double kGridTickLength = 4.0;
    static constexpr double kMaxTokenWidth = 110.0;
    // Panel titles are set no smaller than this times the font scale; a word of a two-line title that
    // is wider than its panel even so (16 heads in a row on a slide) goes down to this size itself.
    static constexpr double kMinPanelPt = 7.5;

    QRectF title;
    QList<QRectF> squares;      // the heatmaps
    QList<QRectF> panelTitles;  // above each square
    QRectF colourBar;
    QRectF gridBlock;           // all squares and their titles
    double leftGutter = 0, bottomGutter = 0;
    int rows = 1, cols = 1;     // the grid's shape at this size
    bool twoLineTitles = false; // panels too narrow for one line of title

    // The layout of data's count panels of n x n cells at size (none when count or n is 0), in fonts
    // at fontScale, with colourBar beside the grid.
    static HeatmapLayout compute(const QSizeF &size, const HeatmapGridData &data, int count, int n,
                                 const HeatmapFonts &fonts, double fontScale, const ColourBar &colourBar);
};

} // namespace fb
