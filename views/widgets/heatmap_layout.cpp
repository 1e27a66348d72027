#include "views/widgets/heatmap_layout.h"

#include "views/widgets/colour_bar.h"
#include "views/widgets/heatmap_grid.h"

#include <QFontMetricsF>
#include <QString>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

constexpr double kMargin = 12.0;
constexpr double kGapX = 16.0;        // between panels
constexpr double kGapY = 12.0;        // between a panel and the next row's title
constexpr double kColourBarGap = 22.0;

} // namespace

HeatmapLayout HeatmapLayout::compute(const QSizeF &size, const HeatmapGridData &data, int count, int n,
                                     const HeatmapFonts &fonts, double fontScale, const ColourBar &colourBar)
{
    HeatmapLayout lay;
    const HeatmapFonts &f = fonts;
    const QFontMetricsF fmTitle(f.title), fmPanel(f.panel), fmTick(f.tick), fmAxis(f.axis);
    const int N = n;
    if (count == 0 || N == 0) return lay;

    // Widest tick label on the left, tallest (tokens are written upwards) at the bottom.
    double tickExtent = fmTick.horizontalAdvance(QString::number(std::max(N - 1, 0)));
    double xTickHeight = fmTick.height();
    if (data.tokenTicks) {
        double widest = 0;
        for (const QString &t : data.tokens) widest = std::max(widest, fmTick.horizontalAdvance(t));
        tickExtent = std::min(std::max(tickExtent, widest), kMaxTokenWidth);
        xTickHeight = tickExtent;
    }
    lay.leftGutter = fmAxis.height() + 6 + tickExtent + kGridTickLength + 4;
    lay.bottomGutter = kGridTickLength + 4 + xTickHeight + 6 + fmAxis.height();
    const double titleH = data.title.isEmpty() ? 0.0 : fmTitle.height() * 1.2 + 6;
    double panelTitleH = fmPanel.height() + 4;
    const double barW = colourBar.preferredWidth(f.tick);
    const double masked = data.masked ? fmTick.height() * 0.8 + ColourBar::kRampWidth : 0.0;

    const double availW = size.width() - 2 * kMargin - lay.leftGutter - kColourBarGap - barW;
    const double availH = size.height() - 2 * kMargin - titleH - std::max(lay.bottomGutter, masked);
    // The shape with the largest squares at this size: gridRows' by default, one row of four heads
    // in a wide, low area (a projector slide), one column in a tall, narrow one.
    auto side = [&](int r, int c) {
        return std::min((availW - (c - 1) * kGapX) / c, (availH - r * panelTitleH - (r - 1) * kGapY) / r);
    };
    int R = HeatmapGrid::gridRows(count), C = HeatmapGrid::gridColumns(count);
    double s = side(R, C);
    for (int r = 1; r <= count; ++r) {
        const int c = (count + r - 1) / r;
        if ((r - 1) * c >= count) continue;  // a row would be empty
        if (const double t = side(r, c); t > s + 0.5) {
            s = t;
            R = r;
            C = c;
        }
    }
    // Whole device-independent pixels per cell when that costs little: crisp, equal cells.
    auto rounded = [&](double t) {
        t = std::max(t, 8.0);
        const double whole = std::floor(t / N) * N;
        return whole >= 0.85 * t ? whole : t;
    };
    s = rounded(s);
    // Panels too narrow for their short titles even at the smallest size: the titles take two
    // lines ("head 1 ·" over "3.41 nats") instead of being cut.
    QFont smallest = f.panel;
    smallest.setPointSizeF(kMinPanelPt * fontScale);
    const QFontMetricsF fmSmallest(smallest);
    for (int i = 0; i < count; ++i) {
        const QString &t = i < data.shortTitles.size() ? data.shortTitles[i]
                         : i < data.panelTitles.size() ? data.panelTitles[i] : QString();
        if (fmSmallest.horizontalAdvance(t) > s) {
            lay.twoLineTitles = true;
            break;
        }
    }
    if (lay.twoLineTitles) {
        // Two lines of title per row, three where the words still do not fit in two ("L1H1" /
        // "ind" / "0.91" in the narrowest panels): the shape is chosen again with them.
        auto linesAt = [&](double width) {
            int lines = 2;
            for (int i = 0; i < count; ++i) {
                const QString &t = i < data.shortTitles.size() ? data.shortTitles[i]
                                 : i < data.panelTitles.size() ? data.panelTitles[i] : QString();
                const QRectF need = fmSmallest.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, t);
                lines = std::max(lines, int(std::ceil(need.height() / fmSmallest.lineSpacing() - 0.01)));
            }
            return std::min(lines, 3);
        };
        // The widest single word of a title ("L1H1"): a panel narrower than it cuts the word, so a
        // shape whose panels hold it wins over a larger count per row (16 heads: two rows of 8).
        double widestWord = 0;
        for (int i = 0; i < count; ++i) {
            const QString &t = i < data.shortTitles.size() ? data.shortTitles[i]
                             : i < data.panelTitles.size() ? data.panelTitles[i] : QString();
            for (const QString &word : t.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                widestWord = std::max(widestWord, fmSmallest.horizontalAdvance(word));
        }
        const auto better = [&](double t, double best) {
            const bool holds = t >= widestWord, held = best >= widestWord;
            return holds != held ? holds : t > best + 0.5;
        };
        int lines = linesAt(s);
        for (int pass = 0; pass < 2; ++pass) {
            panelTitleH = lines * fmPanel.height() + 4;
            s = side(R, C);
            for (int r = 1; r <= count; ++r) {
                const int c = (count + r - 1) / r;
                if ((r - 1) * c >= count) continue;
                if (const double t = side(r, c); better(t, s)) {
                    s = t;
                    R = r;
                    C = c;
                }
            }
            s = rounded(s);
            const int again = linesAt(s);
            if (again <= lines) break;
            lines = again;
        }
    }
    lay.rows = R;
    lay.cols = C;

    const double blockW = C * s + (C - 1) * kGapX;
    const double blockH = R * (panelTitleH + s) + (R - 1) * kGapY;
    const double totalW = lay.leftGutter + blockW + kColourBarGap + barW;
    const double x0 = std::round(std::max(kMargin, (size.width() - totalW) / 2) + lay.leftGutter);
    const double y0 = std::round(kMargin + titleH + std::max(0.0, (availH - blockH) / 2));
    lay.title = QRectF(kMargin, y0 - titleH, size.width() - 2 * kMargin, titleH);  // just above the grid
    lay.gridBlock = QRectF(x0, y0, blockW, blockH);
    for (int i = 0; i < count; ++i) {
        const int r = i / C, c = i % C;
        const double x = x0 + c * (s + kGapX);
        const double y = y0 + r * (panelTitleH + s + kGapY);
        lay.panelTitles.append(QRectF(x, y, s, panelTitleH));
        lay.squares.append(QRectF(x, y + panelTitleH, s, s));
    }
    lay.colourBar = QRectF(x0 + blockW + kColourBarGap, y0 + panelTitleH, barW, blockH - panelTitleH);
    return lay;
}

} // namespace fb
