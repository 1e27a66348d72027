// colourMap against its definition, cell by cell: linear and log scales, the mask, values outside
// the scale, non-finite values, sizes that are no multiple of the column block, and a stride.
#include "core/numeric/colour_map.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace fb;

namespace {

// The definition as the heatmaps used it before colourMap: per cell, std::log and std::lround.
std::uint32_t reference(double v, const ColourScale &s, const std::vector<std::uint32_t> &lut, int r, int c)
{
    if (s.maskUpper && c > r) return s.masked;
    const double top = double(lut.size() - 1);
    const bool log = s.logFloor > 0.0 && s.maxValue > s.logFloor;
    const double k = log ? top / std::log(s.maxValue / s.logFloor) : s.maxValue > 0.0 ? top / s.maxValue : 0.0;
    const double x = log ? std::log(std::max(v, s.logFloor) / s.logFloor) * k : v * k;
    if (!std::isfinite(x)) return lut[0];
    const double clamped = std::clamp(x, -1.0, top + 1.0);  // (lround of a huge value is undefined)
    return lut[std::size_t(std::clamp(long(std::lround(clamped)), 0L, long(top)))];
}

} // namespace

class TestColourMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesDefinition()
    {
        std::vector<std::uint32_t> lut(1024);
        for (std::size_t i = 0; i < lut.size(); ++i) lut[i] = 0xff000000u | std::uint32_t(i * 4099);
        for (int n : { 1, 5, 17, 40, 300 }) {
            Eigen::MatrixXd M(n, n + 3);
            for (int r = 0; r < M.rows(); ++r)
                for (int c = 0; c < M.cols(); ++c) M(r, c) = 0.5 + 0.5 * std::sin(0.37 * r * r + 1.7 * c + 0.1 * r * c);
            M(0, 0) = 1.3;   // above the top
            M(n - 1, 0) = -0.2;  // below the bottom
            for (double floor : { 0.0, 1e-4, 0.3 })
                for (bool mask : { false, true }) {
                    ColourScale s;
                    s.maxValue = 1.0;
                    s.logFloor = floor;
                    s.maskUpper = mask;
                    s.masked = 0xffe4e4e4u;
                    const std::ptrdiff_t stride = M.cols() + 2;
                    std::vector<std::uint32_t> pixels(std::size_t(M.rows() * stride), 0u);
                    colourMap(M, s, lut.data(), int(lut.size()), pixels.data(), stride);
                    for (int r = 0; r < M.rows(); ++r)
                        for (int c = 0; c < M.cols(); ++c)
                            QCOMPARE(pixels[std::size_t(r * stride + c)], reference(M(r, c), s, lut, r, c));
                }
        }
    }

    void nonFiniteTakeTheBottom()
    {
        const std::vector<std::uint32_t> lut { 1u, 2u, 3u };
        Eigen::MatrixXd M(1, 4);
        M << std::nan(""), INFINITY, -INFINITY, 1.0;
        std::vector<std::uint32_t> pixels(4);
        ColourScale s;
        colourMap(M, s, lut.data(), 3, pixels.data(), 4);
        QCOMPARE(pixels, (std::vector<std::uint32_t> { 1u, 1u, 1u, 3u }));
    }
};

QTEST_APPLESS_MAIN(TestColourMap)
#include "tst_colour_map.moc"
