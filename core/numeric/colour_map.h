#pragma once
// Colour-maps a matrix into 32-bit pixels through a lookup table: the heatmaps' images. Entry (r, c)
// becomes pixel c of row r. The table's index of a value v is
//   linear:              round(v / max * (size - 1))
//   log (logFloor > 0):  round(ln(max(v, floor) / floor) / ln(max / floor) * (size - 1))
// rounded half away from zero (as std::lround), clamped to the table; a non-finite index takes
// the bottom entry. With maskUpper, entries right of the diagonal (c > r) get the masked colour.
// Vectorised and parallel over blocks of columns: a 512 x 512 map takes well under a millisecond.
#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>

namespace fb {

struct ColourScale {
    double maxValue = 1.0;        // top of the scale (max <= 0 maps everything to the bottom)
    double logFloor = 0.0;        // > 0 (and < maxValue): logarithmic from logFloor to maxValue
    bool maskUpper = false;
    std::uint32_t masked = 0;     // the pixel of a masked entry
};

// pixels: values.rows() rows of values.cols() pixels, row r starting at pixels + r * stride
// (stride in pixels, at least values.cols()). lut: lutSize >= 1 entries.
void colourMap(const Eigen::MatrixXd &values, const ColourScale &scale, const std::uint32_t *lut, int lutSize,
               std::uint32_t *pixels, std::ptrdiff_t stride);

} // namespace fb
