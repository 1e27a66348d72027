#pragma once
// FullBand's own single-precision matrix product, for the shapes a training step runs (gemm_kernel.cpp).
// Eigen's GEMM packs both operands into panels and zeroes the output before a product that
// overwrites it; at the transformer's shapes (inner dimensions of 16 to 768) that packing and zeroing
// were a fifth of a text-size step. This kernel reads the left operand's columns as vectors in place
// and broadcasts the right operand's entries from where they are, in either layout; it packs only a
// transposed left operand (into chunks that fit the first-level cache), and it writes its first sums
// instead of adding them to zeros.
//
// Each output element is summed in its own vector lane over blocks of the inner dimension, each block
// in order and added to the output in order; the blocks are fixed by the inner dimension and the
// layout alone, never by which rows or columns a call is given, so one thread and several, whatever
// tiles they cut, compute the same numbers.

#include "core/transformer/gemm_epilogue.h"

namespace fb::nn {

// Rows of one kernel panel: two vectors of floats (32 with AVX-512, 16 with AVX, 8 with SSE). Tiles
// of rows in multiples of it run whole panels only.
int gemm_kernel_rows();

// out (+)= A * B, where out is (m x n) with column stride ldo, and
//   A(i, k) = a[i + k * lda], or a[k + i * lda] when ta (a is then the transpose of A),
//   B(k, j) = b[k + j * ldb], or b[j + k * ldb] when tb.
// accumulate adds to out; without it out is overwritten (and never read). post, when set, is applied
// to every element of out once its sum is complete (gemm_epilogue.h); its pointers address out's (0, 0).
void gemm_kernel(long m, long n, long k, const float *a, long lda, bool ta, const float *b, long ldb, bool tb,
                 float *out, long ldo, bool accumulate, const GemmEpilogue<float> *post = nullptr);

} // namespace fb::nn
