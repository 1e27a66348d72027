#pragma once
// The transpose of a block of floats in 8 x 8 tiles of vector shuffles, for the kernels that turn an
// operand around: gemm_kernel.cpp's packing of a transposed left operand, attention_kernel.cpp's keys
// and values.
#include <algorithm>
#include <cstring>

namespace fb::nn {

typedef float Vec8 __attribute__((vector_size(8 * sizeof(float))));

// the transpose of in (8 rows of 8) into packed[r + k * ld], r, k < 8
inline void transposeTile(const Vec8 in[8], float *packed, long ld)
{
    Vec8 t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = __builtin_shufflevector(in[i], in[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[i + 1] = __builtin_shufflevector(in[i], in[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < 8; i += 4)
        for (int h = 0; h < 2; ++h) {
            u[i + 2 * h] = __builtin_shufflevector(t[i + h], t[i + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            u[i + 2 * h + 1] = __builtin_shufflevector(t[i + h], t[i + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int k = 0; k < 4; ++k) {
        const Vec8 low = __builtin_shufflevector(u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        const Vec8 high = __builtin_shufflevector(u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
        std::memcpy(packed + k * ld, &low, sizeof(Vec8));
        std::memcpy(packed + (k + 4) * ld, &high, sizeof(Vec8));
    }
}

// packed[r + k * ld] = from[k + r * lda] for r < rows, k < kc, and 0 for rows <= r < ld: the transpose
// of a block, in 8 x 8 tiles of vector shuffles (a scalar gather ran at under one float a cycle, 5% of a
// text-size step). The last rows, fewer than 8, are a tile too, with zero rows past `rows`, where the
// padding holds the tile (ld is a multiple of 8 but in a build of 4-lane vectors): one by one they were
// compiled into scatter instructions, with a call to memset for each column's zeros (together 5% of an
// induction step, whose 31 keys leave 7 rows).
inline void packTransposed(const float *from, long lda, long rows, long kc, float *packed, long ld)
{
    long r0 = 0;
    for (; r0 < rows && r0 + 8 <= ld; r0 += 8) {
        const long live = std::min<long>(8, rows - r0);  // rows of the tile that hold data, the rest zeros
        long k0 = 0;
        for (; k0 + 8 <= kc; k0 += 8) {
            Vec8 in[8];
            for (int i = 0; i < 8; ++i) {
                in[i] = Vec8{};
                if (i < live) std::memcpy(&in[i], from + k0 + (r0 + i) * lda, sizeof(Vec8));
            }
            transposeTile(in, packed + r0 + k0 * ld, ld);
        }
        for (; k0 < kc; ++k0)
            for (long i = 0; i < 8; ++i) packed[r0 + i + k0 * ld] = i < live ? from[k0 + (r0 + i) * lda] : 0.0f;
    }
    // rows left when a tile would overrun ld (4-lane builds), then the zeros up to ld
    for (long r = r0; r < rows; ++r)
        for (long k = 0; k < kc; ++k) packed[r + k * ld] = from[k + r * lda];
    const long written = std::max(rows, r0);
    if (written < ld)
        for (long k = 0; k < kc; ++k) std::fill(packed + written + k * ld, packed + (k + 1) * ld, 0.0f);
}

} // namespace fb::nn
