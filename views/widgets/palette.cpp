#include "views/widgets/palette.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fb {

QColor viridis(double t)
{
    // 9 anchor points of matplotlib's viridis, linearly interpolated.
    static constexpr std::array<std::array<double, 3>, 9> anchors { {
        { 0.267004, 0.004874, 0.329415 },
        { 0.278826, 0.175490, 0.483397 },
        { 0.229739, 0.322361, 0.545706 },
        { 0.172719, 0.448791, 0.557885 },
        { 0.127568, 0.566949, 0.550556 },
        { 0.157851, 0.683765, 0.501686 },
        { 0.369214, 0.788888, 0.382914 },
        { 0.678489, 0.863742, 0.189503 },
        { 0.993248, 0.906157, 0.143936 },
    } };
    if (!std::isfinite(t)) t = 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double x = t * double(anchors.size() - 1);
    const std::size_t i = std::min<std::size_t>(std::size_t(x), anchors.size() - 2);
    const double f = x - double(i);
    auto mix = [&](int c) { return anchors[i][c] * (1.0 - f) + anchors[i + 1][c] * f; };
    return QColor::fromRgbF(float(mix(0)), float(mix(1)), float(mix(2)));
}

QColor seriesColor(int index)
{
    static const QList<QColor> colors {
        QColor(0, 114, 178),   // blue
        QColor(213, 94, 0),    // vermillion
        QColor(0, 158, 115),   // bluish green
        QColor(204, 121, 167), // reddish purple
        QColor(230, 159, 0),   // orange
        QColor(86, 180, 233),  // sky blue
        QColor(0, 0, 0),       // black
        QColor(240, 228, 66),  // yellow
    };
    const int n = int(colors.size());
    return colors[((index % n) + n) % n];
}

} // namespace fb
