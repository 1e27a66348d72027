#include "views/labs/positional_table.h"

#include "views/widgets/fitted_font.h"
#include "views/widgets/painted_text.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/nice_number.h"
#include "views/widgets/palette.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

constexpr double kMargin = 10.0;
constexpr double kTableTickLength = 4.0;
constexpr double kBarGap = 16.0;
constexpr double kRampWidth = 14.0;
constexpr double kMinMapHeight = 60.0;

QFont sized(QFont f, double pt, bool bold = false)
{
    f.setPointSizeF(pt);
    f.setBold(bold);
    return f;
}

// A whole-number step (1, 2, 5, 10, ...) of at least minStep.
int wholeStep(double minStep)
{
    if (!(minStep > 1.0)) return 1;
    return int(std::lround(niceNumber(minStep, true)));
}

// Wavelengths in tokens: "6.3", "63", "628", "6,283", "6.3e+04".
QString wavelengthText(double v)
{
    if (v < 10.0) return QString::number(v, 'f', 1);
    if (v < 1e4) return QString::number(std::lround(v));
    return QString::number(v, 'e', 1);
}

} // namespace

PositionalTable::PositionalTable(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QImage PositionalTable::colourImage(const Eigen::MatrixXd &table)
{
    // [-1, 1] onto the colour map's [0, 2].
    const Eigen::MatrixXd shifted = table.array() + 1.0;
    return HeatmapGrid::colourImage(shifted, 2.0, false);
}

void PositionalTable::setData(PositionalTableData data)
{
    data_ = std::move(data);
    if (hover_.position >= rows() || hover_.dimension >= cols()) hover_ = Entry {};
    update();
}

void PositionalTable::setFontScale(double scale)
{
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    updateGeometry();  // the minimum height follows the fonts
    update();
}

int PositionalTable::rows() const
{
    return data_.values ? int(data_.values->rows()) : 0;
}

int PositionalTable::cols() const
{
    return data_.values ? int(data_.values->cols()) : 0;
}

PositionalTable::Fonts PositionalTable::fonts() const
{
    const QFont base = font();
    const double k = fontScale_;
    return { sized(base, 12.0 * k, true), sized(base, 9.5 * k), sized(base, 10.5 * k) };
}

PositionalTable::Layout PositionalTable::layout(const QSizeF &size) const
{
    Layout lay;
    const Fonts f = fonts();
    const QFontMetricsF fmTitle(f.title), fmTick(f.tick), fmAxis(f.axis);
    const double titleH = fmTitle.height() * 1.15;
    const double topTicks = fmTick.height() + kTableTickLength + 3;
    const double bottom = kTableTickLength + 3 + fmTick.height() + 4 + fmAxis.height();
    lay.leftGutter = std::max(fmAxis.height() + 6 + fmTick.horizontalAdvance(QString::number(std::max(rows() - 1, 0)))
                                  + kTableTickLength + 4,
                              fmTick.horizontalAdvance(tr("λ (tokens)")) + kTableTickLength + 4);
    const double barW = kRampWidth + kTableTickLength + 3 + fmTick.horizontalAdvance(QStringLiteral("−0.5")) + 6 + fmAxis.height();
    lay.title = QRectF(kMargin, kMargin, size.width() - 2 * kMargin, titleH);
    const double x0 = kMargin + lay.leftGutter, y0 = kMargin + titleH + topTicks;
    const double w = std::max(8.0, size.width() - kMargin - x0 - kBarGap - barW);
    const double h = std::max(8.0, size.height() - kMargin - y0 - bottom);
    lay.map = QRectF(x0, y0, w, h);
    lay.bar = QRectF(lay.map.right() + kBarGap, y0, barW, h);
    return lay;
}

QSize PositionalTable::minimumSizeHint() const
{
    const Layout lay = layout(QSizeF(320, 1000));
    const double overhead = 1000 - lay.map.height();
    return { 320, std::max(170, int(std::ceil(overhead + kMinMapHeight))) };
}

QRectF PositionalTable::mapRect() const
{
    return layout(QSizeF(size())).map;
}

PositionalTable::Entry PositionalTable::entryAt(const QPointF &pos) const
{
    const QRectF map = mapRect();
    const int n = rows(), d = cols();
    if (n == 0 || d == 0 || !map.contains(pos)) return {};
    return { std::clamp(int((pos.y() - map.top()) / map.height() * n), 0, n - 1),
             std::clamp(int((pos.x() - map.left()) / map.width() * d), 0, d - 1) };
}

QString PositionalTable::entryText(const Entry &e) const
{
    if (e.position < 0 || e.position >= rows() || e.dimension < 0 || e.dimension >= cols()) return {};
    const int pair = e.dimension / 2;
    const double lambda = std::size_t(pair) < data_.wavelength.size() ? data_.wavelength[std::size_t(pair)] : 0.0;
    return tr("position %1 · dimension %2 (%3, pair %4, wavelength %5 tokens) · PE = %6")
        .arg(e.position)
        .arg(e.dimension)
        .arg(e.dimension % 2 == 0 ? QStringLiteral("sin") : QStringLiteral("cos"))
        .arg(pair)
        .arg(wavelengthText(lambda))
        .arg((*data_.values)(e.position, e.dimension), 0, 'f', 4);
}

void PositionalTable::paintAll(QPainter &painter, const QSizeF &size, const PaintedText &text) const
{
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const Fonts f = fonts();
    const QFontMetricsF fmTick(f.tick), fmAxis(f.axis);
    const int n = rows(), d = cols();
    if (n == 0 || d == 0 || data_.image.isNull()) {
        painter.setPen(QColor(110, 110, 110));
        painter.setFont(f.axis);
        painter.drawText(QRectF(QPointF(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("The sinusoidal table is added with positional = sinusoidal."));
        return;
    }
    const Layout lay = layout(size);
    const QRectF &map = lay.map;
    const double cellW = map.width() / d, cellH = map.height() / n;

    painter.setPen(QColor(20, 20, 20));
    // A title wider than the table is set smaller (down to 60%) before it is shortened.
    QString title = data_.title;
    QFont titleFont = fittedFont(f.title, title, lay.title.width());
    if (QFontMetricsF(titleFont).horizontalAdvance(title) > lay.title.width() && !data_.shortTitle.isEmpty()) {
        title = data_.shortTitle;
        titleFont = fittedFont(f.title, title, lay.title.width());
    }
    painter.setFont(titleFont);
    text.draw(painter, lay.title, Qt::AlignHCenter | Qt::AlignTop,
              QFontMetricsF(titleFont).elidedText(title, Qt::ElideRight, lay.title.width()), title);

    // Sharp cells when enlarged, smoothed when a wide table is squeezed into fewer pixels.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, cellW < 1.0 || cellH < 1.0);
    painter.drawImage(map, data_.image);
    painter.setPen(QPen(QColor(120, 120, 120), 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(map);

    painter.setFont(f.tick);
    painter.setPen(QColor(40, 40, 40));
    // Positions down the left.
    const int rowStep = wholeStep(fmTick.height() * 1.3 / cellH);
    for (int p = 0; p < n; p += rowStep) {
        const double y = map.top() + (p + 0.5) * cellH;
        painter.drawLine(QPointF(map.left() - kTableTickLength, y), QPointF(map.left(), y));
        text.draw(painter, QRectF(map.left() - lay.leftGutter, y - fmTick.height() / 2, lay.leftGutter - kTableTickLength - 3,
                                  fmTick.height()),
                  Qt::AlignRight | Qt::AlignVCenter, QString::number(p));
    }
    // Dimensions along the bottom.
    const int colStep = wholeStep((fmTick.horizontalAdvance(QString::number(d)) + 14) / cellW);
    for (int i = 0; i < d; i += colStep) {
        const double x = map.left() + (i + 0.5) * cellW;
        painter.drawLine(QPointF(x, map.bottom()), QPointF(x, map.bottom() + kTableTickLength));
        const double w = fmTick.horizontalAdvance(QString::number(i)) + 8;
        text.draw(painter, QRectF(x - w / 2, map.bottom() + kTableTickLength + 2, w, fmTick.height()), Qt::AlignCenter,
                  QString::number(i));
    }
    // Wavelengths along the top, at the middle of each labelled pair (2k, 2k + 1).
    const double widest = fmTick.horizontalAdvance(wavelengthText(data_.wavelength.empty() ? 0.0 : data_.wavelength.back()));
    int pairStep = wholeStep((widest + 14) / (2 * cellW));
    const int pairs = int(data_.wavelength.size());
    const QString lambdaTitle = tr("λ (tokens)");
    const double lambdaRight = kMargin + fmTick.horizontalAdvance(lambdaTitle) + 4;
    for (int k = 0; k < pairs; k += pairStep) {
        const double x = map.left() + (2 * k + 1) * cellW;
        painter.drawLine(QPointF(x, map.top() - kTableTickLength), QPointF(x, map.top()));
        const QString t = wavelengthText(data_.wavelength[std::size_t(k)]);
        const double w = fmTick.horizontalAdvance(t) + 8;
        if (x - w / 2 < lambdaRight) continue;  // the tick stays, its label would run into λ's
        text.draw(painter, QRectF(x - w / 2, map.top() - kTableTickLength - 2 - fmTick.height(), w, fmTick.height()),
                  Qt::AlignCenter, t);
    }
    text.draw(painter, QRectF(kMargin, map.top() - kTableTickLength - 2 - fmTick.height(), lay.leftGutter - 6, fmTick.height()),
              Qt::AlignLeft | Qt::AlignVCenter, lambdaTitle);

    // Axis titles.
    painter.setFont(f.axis);
    painter.setPen(QColor(20, 20, 20));
    text.draw(painter, QRectF(map.left(), map.bottom() + kTableTickLength + 3 + fmTick.height() + 2, map.width(), fmAxis.height()),
              Qt::AlignCenter, tr("dimension i (even: sin, odd: cos)"));
    painter.save();
    painter.translate(kMargin, map.center().y());
    painter.rotate(-90);
    const QString positionTitle = tr("position");
    painter.setFont(fittedFont(f.axis, positionTitle, map.height() + 8));  // clear of the "λ (tokens)" row
    text.draw(painter, QRectF(-map.height() / 2 - 4, 0, map.height() + 8, fmAxis.height()), Qt::AlignCenter,
              positionTitle);
    painter.restore();

    // The colour bar: viridis from −1 (bottom) to 1 (top).
    const QRectF ramp(lay.bar.left(), lay.bar.top(), kRampWidth, lay.bar.height());
    QLinearGradient g(ramp.bottomLeft(), ramp.topLeft());
    for (int s = 0; s <= 16; ++s) g.setColorAt(s / 16.0, viridis(s / 16.0));
    painter.fillRect(ramp, g);
    painter.setPen(QPen(QColor(120, 120, 120), 1.0));
    painter.drawRect(ramp);
    painter.setFont(f.tick);
    painter.setPen(QColor(40, 40, 40));
    // Labels one line apart at least: all five, or -1, 0 and 1, or the ends only.
    const double perHalf = ramp.height() / 2;
    const bool halves = perHalf / 2 >= fmTick.height() * 1.1, middle = perHalf >= fmTick.height() * 1.1;
    for (double v : { -1.0, -0.5, 0.0, 0.5, 1.0 }) {
        if ((std::fabs(v) == 0.5 && !halves) || (v == 0.0 && !middle)) continue;
        const double y = ramp.bottom() - (v + 1.0) / 2.0 * ramp.height();
        painter.drawLine(QPointF(ramp.right(), y), QPointF(ramp.right() + kTableTickLength, y));
        text.draw(painter, QRectF(ramp.right() + kTableTickLength + 3, y - fmTick.height() / 2, 60, fmTick.height()),
                  Qt::AlignLeft | Qt::AlignVCenter,
                  v == 0.0 ? QStringLiteral("0") : QString::number(v).replace(QLatin1Char('-'), QChar(0x2212)));
    }
    painter.save();
    painter.setFont(f.axis);
    painter.setPen(QColor(20, 20, 20));
    painter.translate(lay.bar.right() - fmAxis.height(), ramp.center().y());
    painter.rotate(90);
    const QString barTitle = tr("PE(pos, i)");
    painter.setFont(fittedFont(f.axis, barTitle, ramp.height() + 40));
    text.draw(painter, QRectF(-ramp.height() / 2 - 20, -fmAxis.height(), ramp.height() + 40, fmAxis.height()),
              Qt::AlignCenter, barTitle);
    painter.restore();
}

void PositionalTable::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintAll(painter, QSizeF(size()), PaintedText {});
    if (hover_.position < 0 || rows() == 0) return;
    const QRectF map = mapRect();
    const double cw = map.width() / cols(), ch = map.height() / rows();
    const QRectF box(map.left() + hover_.dimension * cw, map.top() + hover_.position * ch, std::max(cw, 3.0),
                     std::max(ch, 3.0));
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 3.0));
    painter.drawRect(box);
    painter.setPen(QPen(Qt::black, 1.2));
    painter.drawRect(box);
}

void PositionalTable::mouseMoveEvent(QMouseEvent *event)
{
    const Entry e = entryAt(event->position());
    if (e.position == hover_.position && e.dimension == hover_.dimension) return;
    hover_ = e;
    update();
    const QString text = entryText(e);
    if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, this);
    else QToolTip::hideText();
    Q_EMIT hoverTextChanged(text);
}

void PositionalTable::leaveEvent(QEvent *)
{
    if (hover_.position < 0) return;
    hover_ = Entry {};
    update();
    Q_EMIT hoverTextChanged(QString());
}

QString PositionalTable::exportTitle() const
{
    return tr("Sinusoidal positional table");
}

void PositionalTable::paintExport(QPainter &painter, QSize logicalSize)
{
    paintAll(painter, QSizeF(logicalSize), PaintedText {});
}

QString PositionalTable::csv() const
{
    if (!data_.values) return {};
    const Eigen::MatrixXd &t = *data_.values;
    QString out = QStringLiteral("position,dimension,value\n");
    for (Eigen::Index p = 0; p < t.rows(); ++p)
        for (Eigen::Index i = 0; i < t.cols(); ++i)
            out += QStringLiteral("%1,%2,%3\n").arg(p).arg(i).arg(t(p, i), 0, 'g', 17);
    return out;
}

QStringList PositionalTable::layoutProblems() const
{
    return paintedTextProblems(*this, QStringLiteral("table '%1'").arg(exportTitle()),
                               [this](QPainter &p, const QSizeF &size, const PaintedText &text) { paintAll(p, size, text); });
}

} // namespace fb
