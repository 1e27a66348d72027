#include "views/widgets/heatmap_grid.h"

#include "views/widgets/fitted_font.h"
#include "views/widgets/painted_text.h"
#include "core/numeric/colour_map.h"
#include "views/widgets/nice_number.h"
#include "views/widgets/palette.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace fb {

namespace {

// The layout's sizes, which the ticks and the panel titles are painted to.
constexpr double kGridTickLength = HeatmapLayout::kGridTickLength;
constexpr double kMaxTokenWidth = HeatmapLayout::kMaxTokenWidth;
constexpr double kMinPanelPt = HeatmapLayout::kMinPanelPt;
const QRgb kMaskedRgb = qRgb(0xe4, 0xe4, 0xe4);

// viridis sampled at 1024 levels, built once (thread-safe static initialisation).
const std::array<QRgb, 1024> &viridisTable()
{
    static const std::array<QRgb, 1024> table = [] {
        std::array<QRgb, 1024> t {};
        for (std::size_t i = 0; i < t.size(); ++i) t[i] = viridis(double(i) / double(t.size() - 1)).rgb();
        return t;
    }();
    return table;
}

// A round step (1, 2 or 5 times a power of ten) of at least minStep.
double niceStep(double minStep)
{
    return minStep > 1.0 ? niceNumber(minStep, true) : 1.0;
}

QFont sized(QFont f, double pt, bool bold = false)
{
    f.setPointSizeF(pt);
    f.setBold(bold);
    return f;
}

} // namespace

HeatmapGrid::HeatmapGrid(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapGrid::setData(HeatmapGridData data)
{
    all_ = std::move(data);
    slice();
}

void HeatmapGrid::setShownPanels(int first, int count)
{
    first_ = count > 0 ? std::max(first, 0) : 0;
    count_ = std::max(count, 0);
    slice();
}

void HeatmapGrid::slice()
{
    data_ = all_;
    if (count_ > 0) {
        const auto [first, count] = shownRange();
        const auto part = [first = first, count = count](auto &list) {
            if (first < list.size()) list = list.mid(first, count);
            else list.clear();
        };
        part(data_.images);
        part(data_.logImages);
        part(data_.panelTitles);
        part(data_.shortTitles);
    }
    colourBar_.setMaximum(data_.maxValue);
    colourBar_.setLogFloor(showsLog() ? data_.logFloor : 0.0);
    colourBar_.setLabel(data_.valueTitle);
    colourBar_.setShowMasked(data_.masked);
    if (hover_.panel - shownOffset() >= shownImages().size() || hover_.panel < shownOffset() || hover_.row >= n()
        || hover_.col >= n())
        hover_ = Cell {};
    update();
}

std::pair<qsizetype, qsizetype> HeatmapGrid::shownRange() const
{
    const qsizetype panels = std::max({ all_.images.size(), all_.logImages.size(),
                                        all_.values ? qsizetype(all_.values->size()) : qsizetype(0) });
    if (count_ <= 0 || first_ >= panels) return { 0, panels };
    return { first_, std::min<qsizetype>(count_, panels - first_) };
}

void HeatmapGrid::setFontScale(double scale)
{
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    update();
}

void HeatmapGrid::setLogScale(bool on)
{
    logScale_ = on;
    colourBar_.setLogFloor(showsLog() ? data_.logFloor : 0.0);
    update();
}

bool HeatmapGrid::showsLog() const
{
    return !data_.logImages.isEmpty() && (logScale_ || data_.images.isEmpty());
}

const QList<QImage> &HeatmapGrid::shownImages() const
{
    return showsLog() ? data_.logImages : data_.images;
}

void HeatmapGrid::setHoverFormatter(std::function<QString(int, int, int, double)> formatter)
{
    hoverFormatter_ = std::move(formatter);
}

QImage HeatmapGrid::colourImage(const Eigen::MatrixXd &values, double maxValue, bool maskUpper, double logFloor)
{
    QImage image;
    colourInto(image, values, maxValue, maskUpper, logFloor);
    return image;
}

void HeatmapGrid::colourInto(QImage &image, const Eigen::MatrixXd &values, double maxValue, bool maskUpper,
                             double logFloor)
{
    const int rows = int(values.rows()), cols = int(values.cols());
    // Only an image nobody else holds is written over; a shared one would be copied first anyway.
    if (image.size() != QSize(cols, rows) || image.format() != QImage::Format_RGB32 || !image.isDetached())
        image = QImage(cols, rows, QImage::Format_RGB32);
    if (rows == 0 || cols == 0) return;
    const auto &lut = viridisTable();
    ColourScale scale;
    scale.maxValue = maxValue;
    scale.logFloor = logFloor;
    scale.maskUpper = maskUpper;
    scale.masked = kMaskedRgb;
    colourMap(values, scale, lut.data(), int(lut.size()), reinterpret_cast<std::uint32_t *>(image.bits()),
              image.bytesPerLine() / qsizetype(sizeof(QRgb)));
}

int HeatmapGrid::gridRows(int count)
{
    return std::max(1, int(std::floor(std::sqrt(double(std::max(count, 1))))));
}

int HeatmapGrid::gridColumns(int count)
{
    const int r = gridRows(count);
    return std::max(1, (std::max(count, 1) + r - 1) / r);
}

int HeatmapGrid::n() const
{
    const QList<QImage> &images = shownImages();
    return images.isEmpty() ? 0 : images.first().width();
}

HeatmapFonts HeatmapGrid::fonts() const
{
    const QFont base = font();
    const double k = fontScale_;
    return { sized(base, 13.0 * k, true), sized(base, 10.5 * k), sized(base, 9.5 * k), sized(base, 11.0 * k) };
}

HeatmapLayout HeatmapGrid::layout(const QSizeF &size) const
{
    return HeatmapLayout::compute(size, data_, int(shownImages().size()), n(), fonts(), fontScale_, colourBar_);
}

QRectF HeatmapGrid::panelRect(int panel) const
{
    const HeatmapLayout lay = layout(QSizeF(size()));
    panel -= shownOffset();
    return panel >= 0 && panel < lay.squares.size() ? lay.squares[panel] : QRectF();
}

QRectF HeatmapGrid::colourBarRect() const
{
    return layout(QSizeF(size())).colourBar;
}

HeatmapGrid::Cell HeatmapGrid::cellAt(const QPointF &pos) const
{
    const HeatmapLayout lay = layout(QSizeF(size()));
    const int N = n();
    for (int i = 0; i < lay.squares.size(); ++i) {
        const QRectF &sq = lay.squares[i];
        if (!sq.contains(pos) || N == 0) continue;
        const int col = std::clamp(int((pos.x() - sq.left()) / sq.width() * N), 0, N - 1);
        const int row = std::clamp(int((pos.y() - sq.top()) / sq.height() * N), 0, N - 1);
        return { i + shownOffset(), row, col };
    }
    return {};
}

void HeatmapGrid::paintTicks(QPainter &painter, const HeatmapLayout &lay, const PaintedText &text) const
{
    const HeatmapFonts f = fonts();
    const QFontMetricsF fmTick(f.tick), fmAxis(f.axis);
    const int N = n(), R = lay.rows, C = lay.cols;
    const double cell = lay.squares.first().width() / N;
    // Every k-th tick: all tokens if they fit, else round positions about 45 pixels apart.
    const int k = data_.tokenTicks ? std::max(1, int(std::ceil(fmTick.height() * 1.05 / cell)))
                                   : int(niceStep(45.0 / cell));
    auto label = [&](int i) {
        if (data_.tokenTicks && i < data_.tokens.size())
            return fmTick.elidedText(data_.tokens[i], Qt::ElideRight, kMaxTokenWidth);
        return QString::number(i);
    };
    auto full = [&](int i) {
        return data_.tokenTicks && i < data_.tokens.size() ? data_.tokens[i] : QString::number(i);
    };
    painter.setFont(f.tick);
    painter.setPen(QColor(40, 40, 40));
    // Query ticks left of the first panel of each row.
    for (int r = 0; r < R; ++r) {
        const QRectF sq = lay.squares[r * C];
        for (int i = 0; i < N; i += k) {
            const double y = sq.top() + (i + 0.5) * cell;
            painter.drawLine(QPointF(sq.left() - kGridTickLength, y), QPointF(sq.left(), y));
            text.draw(painter, QRectF(sq.left() - lay.leftGutter, y - fmTick.height() / 2,
                                      lay.leftGutter - kGridTickLength - 3, fmTick.height()),
                      Qt::AlignRight | Qt::AlignVCenter, label(i), full(i));
        }
    }
    // Key ticks under the lowest map of each column (tokens written upwards): under the grid, or, in a
    // column the short last row leaves empty, under the map above the empty place.
    // A number closer than a digit and a half to the one before it on the same line (a map's last
    // tick, "30", and the next map's "0") is left out, its tick kept: "30 0" read as one number.
    const int maps = int(lay.squares.size());
    const double minGap = 1.5 * fmTick.horizontalAdvance(QLatin1Char('0'));
    double lastRight = -1e9, lastBase = -1e9;
    for (int c = 0; c < C && c < maps; ++c) {
        const int lowest = (maps - 1 - c) / C;
        const QRectF sq = lay.squares[lowest * C + c];
        const double base = lowest == R - 1 ? lay.gridBlock.bottom() : sq.bottom();
        if (base != lastBase) lastRight = -1e9;
        lastBase = base;
        for (int i = 0; i < N; i += k) {
            const double x = sq.left() + (i + 0.5) * cell;
            painter.drawLine(QPointF(x, base), QPointF(x, base + kGridTickLength));
            if (data_.tokenTicks) {
                painter.save();
                painter.translate(x, base + kGridTickLength + 3);
                painter.rotate(-90);
                text.draw(painter, QRectF(-kMaxTokenWidth, -fmTick.height() / 2, kMaxTokenWidth, fmTick.height()),
                          Qt::AlignRight | Qt::AlignVCenter, label(i), full(i));
                painter.restore();
            } else {
                const double advance = fmTick.horizontalAdvance(label(i));
                if (x - advance / 2 < lastRight + minGap) continue;
                lastRight = x + advance / 2;
                const double w = advance + 8;
                text.draw(painter, QRectF(x - w / 2, base + kGridTickLength + 2, w, fmTick.height()), Qt::AlignCenter,
                          label(i), full(i));
            }
        }
    }
    // Axis titles: centred on the grid block.
    painter.setFont(fittedFont(f.axis, data_.xTitle, lay.gridBlock.width()));
    painter.setPen(QColor(20, 20, 20));
    text.draw(painter, QRectF(lay.gridBlock.left(), lay.gridBlock.bottom() + lay.bottomGutter - fmAxis.height(),
                              lay.gridBlock.width(), fmAxis.height()),
              Qt::AlignCenter, data_.xTitle);
    painter.save();
    painter.translate(lay.gridBlock.left() - lay.leftGutter, lay.gridBlock.center().y());
    painter.rotate(-90);
    // A low grid: smaller; lower still, its first word ("query" for "query position").
    QString yTitle = data_.yTitle;
    QFont yFont = fittedFont(f.axis, yTitle, lay.gridBlock.height());
    if (QFontMetricsF(yFont).horizontalAdvance(yTitle) > lay.gridBlock.height() && yTitle.contains(QLatin1Char(' '))) {
        yTitle = yTitle.section(QLatin1Char(' '), 0, 0);
        yFont = fittedFont(f.axis, yTitle, lay.gridBlock.height());
    }
    painter.setFont(yFont);
    text.draw(painter, QRectF(-lay.gridBlock.height() / 2, 0, lay.gridBlock.height(), fmAxis.height()),
              Qt::AlignCenter, yTitle);
    painter.restore();
}

void HeatmapGrid::paintAll(QPainter &painter, const QSizeF &size, const PaintedText &text) const
{
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    const HeatmapFonts f = fonts();
    const HeatmapLayout lay = layout(size);
    if (lay.squares.isEmpty()) {
        painter.setPen(QColor(110, 110, 110));
        painter.setFont(f.axis);
        // no panels: the title says why (a page with nothing to draw), else they are on their way
        const QRectF box = QRectF(QPointF(0, 0), size).adjusted(12, 0, -12, 0);
        painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, data_.title.isEmpty() ? tr("Computing…") : data_.title);
        return;
    }
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setPen(QColor(20, 20, 20));
    // A title wider than the grid is set smaller (down to 60%), so that it is never cut.
    const QFont titleFont = fittedFont(f.title, data_.title, lay.title.width());
    painter.setFont(titleFont);
    text.draw(painter, lay.title, Qt::AlignHCenter | Qt::AlignTop,
              QFontMetricsF(titleFont).elidedText(data_.title, Qt::ElideRight, lay.title.width()), data_.title);

    for (int i = 0; i < lay.squares.size(); ++i) {
        const QRectF &sq = lay.squares[i];
        // One image per panel, scaled by the painter without smoothing: cells stay sharp and a
        // 512 x 512 map costs one blit, not 262,144 rectangles.
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter.drawImage(sq, shownImages()[i]);
        painter.setPen(QPen(QColor(120, 120, 120), 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(sq);

        QString title = i < data_.panelTitles.size() ? data_.panelTitles[i] : QString();
        QFont pf = f.panel;
        auto fits = [&](const QString &text, double pt) {
            QFont trial = pf;
            trial.setPointSizeF(pt);
            return QFontMetricsF(trial).horizontalAdvance(text) <= sq.width();
        };
        // Too wide for the panel even at 90 % size: the short title; then shrink, then elide.
        double pt = pf.pointSizeF();
        if (!fits(title, pt * 0.9) && i < data_.shortTitles.size()) title = data_.shortTitles[i];
        painter.setPen(QColor(20, 20, 20));
        if (lay.twoLineTitles && !fits(title, pt)) {
            // Two lines, broken at the words, set smaller while a word is wider than the panel.
            const int wrap = Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextWordWrap;
            while (pt > kMinPanelPt) {
                pf.setPointSizeF(pt);
                const QRectF need = QFontMetricsF(pf).boundingRect(lay.panelTitles[i], wrap, title);
                if (need.width() <= lay.panelTitles[i].width() && need.height() <= lay.panelTitles[i].height()) break;
                pt -= 0.25;
            }
            pf.setPointSizeF(pt);
            painter.setFont(pf);
            text.draw(painter, lay.panelTitles[i], Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextWordWrap, title);
            continue;
        }
        while (!fits(title, pt) && pt > kMinPanelPt * fontScale_) pt -= 0.25;
        pf.setPointSizeF(pt);
        painter.setFont(pf);
        text.draw(painter, lay.panelTitles[i], Qt::AlignHCenter | Qt::AlignVCenter,
                  QFontMetricsF(pf).elidedText(title, Qt::ElideRight, sq.width()), title);
    }
    paintTicks(painter, lay, text);
    colourBar_.paint(painter, lay.colourBar, f.tick, text);
}

void HeatmapGrid::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintAll(painter, QSizeF(size()), PaintedText {});
    if (hover_.panel < 0 || n() == 0) return;
    // The hovered cell, outlined in every head so the heads can be compared at one (query, key).
    const HeatmapLayout lay = layout(QSizeF(size()));
    for (const QRectF &sq : lay.squares) {
        const double cell = sq.width() / n();
        const double w = std::max(cell, 6.0);
        const QPointF c(sq.left() + (hover_.col + 0.5) * cell, sq.top() + (hover_.row + 0.5) * cell);
        const QRectF box(c.x() - w / 2, c.y() - w / 2, w, w);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::white, 3.0));
        painter.drawRect(box);
        painter.setPen(QPen(Qt::black, 1.2));
        painter.drawRect(box);
    }
}

void HeatmapGrid::mouseMoveEvent(QMouseEvent *event)
{
    const Cell cell = cellAt(event->position());
    if (cell.panel == hover_.panel && cell.row == hover_.row && cell.col == hover_.col) return;
    hover_ = cell;
    update();
    QString text;
    if (cell.panel >= 0) {
        double value = std::nan("");
        if (all_.values && std::size_t(cell.panel) < all_.values->size()) {
            const Eigen::MatrixXd &m = (*all_.values)[std::size_t(cell.panel)];
            if (cell.row < m.rows() && cell.col < m.cols()) value = m(cell.row, cell.col);
        }
        text = hoverFormatter_ ? hoverFormatter_(cell.panel, cell.row, cell.col, value)
                               : tr("panel %1 · row %2 · column %3 · value %4")
                                     .arg(cell.panel + 1).arg(cell.row).arg(cell.col).arg(value, 0, 'g', 6);
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    } else {
        QToolTip::hideText();
    }
    Q_EMIT hoverTextChanged(text);
}

void HeatmapGrid::leaveEvent(QEvent *)
{
    if (hover_.panel < 0) return;
    hover_ = Cell {};
    update();
    Q_EMIT hoverTextChanged(QString());
}

QString HeatmapGrid::exportTitle() const
{
    if (!exportTitle_.isEmpty()) return exportTitle_;
    return data_.title.isEmpty() ? tr("Heatmaps") : data_.title;
}

void HeatmapGrid::paintExport(QPainter &painter, QSize logicalSize)
{
    painter.fillRect(QRectF(QPointF(0, 0), QSizeF(logicalSize)), Qt::white);
    paintAll(painter, QSizeF(logicalSize), PaintedText {});
}

} // namespace fb

namespace fb {

QString HeatmapGrid::csv() const
{
    if (!all_.values || all_.values->empty()) return {};
    QString out = (all_.csvHeader.isEmpty() ? QStringLiteral("head,query,key,weight") : all_.csvHeader) + QLatin1Char('\n');
    // the shown panels, by their own numbers
    const auto [from, count] = shownRange();
    const std::size_t first = std::size_t(from), end = std::min(all_.values->size(), std::size_t(from + count));
    for (std::size_t h = first; h < end; ++h) {
        const Eigen::MatrixXd &w = (*all_.values)[h];
        for (Eigen::Index q = 0; q < w.rows(); ++q)
            for (Eigen::Index k = 0; k < w.cols(); ++k)
                out += QStringLiteral("%1,%2,%3,%4\n").arg(h + 1).arg(q).arg(k).arg(w(q, k), 0, 'g', 17);
    }
    return out;
}

QStringList HeatmapGrid::layoutProblems() const
{
    return paintedTextProblems(*this, QStringLiteral("heatmap '%1'").arg(exportTitle()),
                               [this](QPainter &p, const QSizeF &size, const PaintedText &text) { paintAll(p, size, text); });
}

} // namespace fb
