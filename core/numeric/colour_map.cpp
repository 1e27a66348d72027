#include "core/numeric/colour_map.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

constexpr int kBlock = 16;         // columns per block: one block's indices stay in the L1 cache
constexpr int kParallelCells = 1 << 16;  // below this many entries one thread does it all

} // namespace

void colourMap(const Eigen::MatrixXd &values, const ColourScale &scale, const std::uint32_t *lut, int lutSize,
               std::uint32_t *pixels, std::ptrdiff_t stride)
{
    const int rows = int(values.rows()), cols = int(values.cols());
    if (rows == 0 || cols == 0 || lutSize < 1) return;
    const double top = double(lutSize - 1);
    const double maxValue = scale.maxValue, floor = scale.logFloor;
    const bool log = floor > 0.0 && maxValue > floor;
    const double k = log ? top / std::log(maxValue / floor) : maxValue > 0.0 ? top / maxValue : 0.0;
    // Non-finite indices need a check per entry; finite ones are clamped and converted in packets.
    const bool finite = std::isfinite(k) && values.allFinite();

    // values is column-major, the pixels row-major: each block of columns gets its indices computed
    // down its contiguous columns (Eigen's vectorised log and round), then written out row by row.
    auto blocks = [&](const tbb::blocked_range<int> &range) {
        Eigen::ArrayXXd level(rows, kBlock);
        Eigen::Array<int, Eigen::Dynamic, kBlock> index(rows, kBlock);
        for (int b = range.begin(); b < range.end(); ++b) {
            const int c0 = b * kBlock, width = std::min(kBlock, cols - c0);
            const auto block = values.middleCols(c0, width).array();
            auto lv = level.leftCols(width);
            if (log) lv = ((block.max(floor) / floor).log() * k).round();
            else lv = (block * k).round();
            auto ix = index.leftCols(width);
            if (finite) {
                ix = lv.max(0.0).min(top).cast<int>();
            } else {
                for (int c = 0; c < width; ++c)
                    for (int r = 0; r < rows; ++r) {
                        const double v = lv(r, c);
                        ix(r, c) = v >= 0.0 && v <= top ? int(v) : (v > top && std::isfinite(v) ? lutSize - 1 : 0);
                    }
            }
            for (int r = 0; r < rows; ++r) {
                std::uint32_t *line = pixels + std::ptrdiff_t(r) * stride + c0;
                // Under the mask only the columns up to the diagonal (c <= r) show a value.
                const int shown = scale.maskUpper ? std::clamp(r - c0 + 1, 0, width) : width;
                for (int c = 0; c < shown; ++c) line[c] = lut[ix(r, c)];
                for (int c = shown; c < width; ++c) line[c] = scale.masked;
            }
        }
    };
    const int blockCount = (cols + kBlock - 1) / kBlock;
    if (std::ptrdiff_t(rows) * cols < kParallelCells) {
        blocks(tbb::blocked_range<int>(0, blockCount));
        return;
    }
    // About 64K entries a task: worth a thread, and the blocks of a 512 x 512 map spread over 4 tasks.
    const int grain = std::max(1, kParallelCells / (rows * kBlock));
    tbb::parallel_for(tbb::blocked_range<int>(0, blockCount, grain), blocks);
}

} // namespace fb
