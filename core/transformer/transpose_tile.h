#pragma once
// The transpose of an 8 x 8 tile of floats in vector shuffles, for the kernels that turn an operand
// around: gemm_kernel.cpp's packing of a transposed left operand, attention_kernel.cpp's keys.
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

} // namespace fb::nn
