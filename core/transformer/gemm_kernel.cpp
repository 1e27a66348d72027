// FullBand's single-precision matrix product (gemm_kernel.h): register-blocked panels of (kRows x kCols)
// outputs, each summed over the whole inner block in registers and then written once.
#include "core/transformer/gemm_kernel.h"
#include "core/transformer/gemm_epilogue.h"
#include "core/transformer/transpose_tile.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <utility>

namespace fb::nn {

namespace {

// The vector width of the build, and the panel: kVecs vectors of rows by kCols columns of sums in
// registers (24 of AVX-512's 32, 12 of AVX's or SSE's 16), plus the left operand's vectors and one
// broadcast of the right one.
#if defined(__AVX512F__)
constexpr int kLanes = 16;
constexpr int kCols = 12;
#elif defined(__AVX__)
constexpr int kLanes = 8;
constexpr int kCols = 6;
#else
constexpr int kLanes = 4;
constexpr int kCols = 6;
#endif
constexpr int kVecs = 2;
constexpr int kRows = kVecs * kLanes;
// The inner dimension in blocks of at most kInner: the pads and packs below live on the stack.
constexpr long kInner = 256;
// The packed transposed left operand: at most this many floats (32 KiB, inside the first-level cache
// while every column block reads it), rows in whole panels times the inner block; more rows are done
// in chunks of this size. (128 KiB chunks ran the transposed products at 160-175 GFLOP/s, 32 KiB at
// 195-220.)
constexpr long kPacked = 8192;
static_assert(kPacked / kInner >= kRows, "a chunk holds at least one panel of rows");

typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));

inline Vec load(const float *p)
{
    Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store(float *p, Vec v) { std::memcpy(p, &v, sizeof v); }

using Post = GemmEpilogue<float>;
typedef int IVec __attribute__((vector_size(kLanes * sizeof(int))));

// the epilogue (gemm_epilogue.h) of the vector of complete sums x at rows i .. i + kLanes of column j
inline Vec finish(Vec x, const Post &e, long i, long j)
{
    if (e.add) x += load(e.add + i + j * e.ldAdd);
    if (e.bias) x += load(e.bias + i);
    if (e.relu) x = (Vec)((IVec)x & ~(x < Vec{}));  // NaN compares false: kept
    return x;
}

// where the epilogue reads the block whose first element is (i, j): its own copy, or null without one
struct PostAt {
    Post at;
    const Post *p = nullptr;
    PostAt(const Post *post, long i, long j)
    {
        if (!post) return;
        at = post->at(i, j);
        p = &at;
    }
    PostAt(const PostAt &) = delete;  // p points into this one
    PostAt &operator=(const PostAt &) = delete;
};

// v's first `left` lanes (left < kLanes) written to p, or added to what p holds, in one masked store;
// p's lanes from left on are neither read nor written. (A loop over the lanes became a call to memcpy
// for every column: 1.3% of an induction step.)
inline void storeFirst(float *p, long left, Vec v, bool accumulate)
{
#if defined(__AVX512F__)
    const __mmask16 mask = __mmask16((1u << left) - 1u);
    __m512 x = (__m512)v;
    if (accumulate) x = _mm512_add_ps(_mm512_maskz_loadu_ps(mask, p), x);
    _mm512_mask_storeu_ps(p, mask, x);
#elif defined(__AVX2__)
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(int(left)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256 x = (__m256)v;
    if (accumulate) x = _mm256_add_ps(_mm256_maskload_ps(p, mask), x);
    _mm256_maskstore_ps(p, mask, x);
#else
    for (long r = 0; r < left; ++r) p[r] = accumulate ? p[r] + v[r] : v[r];
#endif
}

// c (+)= a * b for one panel of (vecs * kLanes) rows and cols columns: a(i, k) = a[i + k * lda],
// b(k, j) = b[j + k * ldb], or b[k + j * ldb] when colB; c(i, j) = c[i + j * ldc]. post, when set, is the
// epilogue of c's elements (the last inner block)
template <int vecs, int cols, bool colB>
void panel(long kc, const float *a, long lda, const float *b, long ldb, float *c, long ldc, bool accumulate,
           const Post *post)
{
    Vec sum[vecs][cols];
    for (int v = 0; v < vecs; ++v)
        for (int j = 0; j < cols; ++j) sum[v][j] = Vec{};
    const long kStep = colB ? 1 : ldb, jStep = colB ? ldb : 1;
    // the panel's output on its way to the cache while the sums run: a product that overwrites its
    // output (W_qkv ln1, W' dY) otherwise waits for each line at the panel's end (about 2.5% of a
    // text-size step)
    for (int j = 0; j < cols; ++j)
        for (int v = 0; v < vecs; ++v) __builtin_prefetch(c + j * ldc + v * kLanes, 1);
    if (post && post->add)
        for (int j = 0; j < cols; ++j)
            for (int v = 0; v < vecs; ++v) __builtin_prefetch(post->add + j * post->ldAdd + v * kLanes);
    for (long k = 0; k < kc; ++k) {
        const float *ak = a + k * lda, *bk = b + k * kStep;
        Vec av[vecs];
        for (int v = 0; v < vecs; ++v) av[v] = load(ak + v * kLanes);
        // the left operand 8 steps ahead: in a step its columns come from the second-level cache
        // (text size: 27.5 -> 26.9 ms a step). An address, not a pointer: it may lie past the end.
        const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(ak) + std::uintptr_t(8 * lda) * sizeof(float);
        __builtin_prefetch(reinterpret_cast<const void *>(ahead));
        if (vecs > 1) __builtin_prefetch(reinterpret_cast<const void *>(ahead + kLanes * sizeof(float)));
        for (int j = 0; j < cols; ++j)
            for (int v = 0; v < vecs; ++v) sum[v][j] += av[v] * bk[j * jStep];  // b(k, j) broadcast
    }
    // unrolled in full, as the loops above are: a loop left here keeps the sums in an array on the
    // stack, zeroed by a call to memset and stored after the inner loop (1.5% of an induction step)
    static_assert(cols <= 16 && vecs <= 2, "the unroll counts below cover the panel");
#pragma GCC unroll 16
    for (int j = 0; j < cols; ++j)
#pragma GCC unroll 2
        for (int v = 0; v < vecs; ++v) {
            float *o = c + j * ldc + v * kLanes;
            const Vec x = accumulate ? load(o) + sum[v][j] : sum[v][j];
            store(o, post ? finish(x, *post, v * kLanes, j) : x);
        }
}

using PanelFn = void (*)(long, const float *, long, const float *, long, float *, long, bool, const Post *);

template <int vecs, bool colB, int... cols>
constexpr auto panelTable(std::integer_sequence<int, cols...>)
{
    return std::array<PanelFn, sizeof...(cols)>{ &panel<vecs, cols + 1, colB>... };
}

// panel<vecs, cols, colB> for cols = 1 .. kCols (the last columns of a product are fewer than kCols)
template <int vecs>
void runPanel(int cols, bool colB, long kc, const float *a, long lda, const float *b, long ldb, float *c, long ldc,
              bool accumulate, const Post *post)
{
    static constexpr auto rowB = panelTable<vecs, false>(std::make_integer_sequence<int, kCols>{});
    static constexpr auto columnB = panelTable<vecs, true>(std::make_integer_sequence<int, kCols>{});
    (colB ? columnB : rowB)[cols - 1](kc, a, lda, b, ldb, c, ldc, accumulate, post);
}

// Rows [0, rows) of one block of columns, the left operand as vectors at a (a(i, k) = a[i + k * lda]):
// whole panels, then one vector of rows. rows is a multiple of kLanes.
void rowsOfBlock(long rows, int cols, long kc, const float *a, long lda, const float *b, long ldb, bool colB,
                 float *out, long ldo, bool accumulate, const Post *post)
{
    long i = 0;
    for (; i + kRows <= rows; i += kRows)
        runPanel<kVecs>(cols, colB, kc, a + i, lda, b, ldb, out + i, ldo, accumulate, PostAt(post, i, 0).p);
    for (; i < rows; i += kLanes)
        runPanel<1>(cols, colB, kc, a + i, lda, b, ldb, out + i, ldo, accumulate, PostAt(post, i, 0).p);
}

// The last `left` rows of a product, fewer than vecs vectors (and more than vecs - 1), from zero-padded
// rows at a (a(i, k) = a[i + k * lda] for i < vecs * kLanes, 0 for i >= left): their sums through one
// panel of vecs vectors, kCols columns at a time, into a buffer, then added to (or written into) out,
// the last vector's rows with a masked store. lastRowsIn<1> is one vector; lastRowsIn<2> (more than a
// vector left past the whole panels) keeps two panels of a vector each from reading every element of B
// twice.
template <int vecs>
void lastRowsIn(long left, long n, long kc, const float *a, long lda, const float *b, long ldb, bool tb, float *out,
                long ldo, bool accumulate, const Post *post)
{
    constexpr long rows = vecs * kLanes, whole = (vecs - 1) * kLanes;
    for (long j0 = 0; j0 < n; j0 += kCols) {
        const int cols = int(std::min<long>(kCols, n - j0));
        alignas(64) float sums[rows * kCols];
        runPanel<vecs>(cols, !tb, kc, a, lda, tb ? b + j0 : b + j0 * ldb, ldb, sums, rows, false, nullptr);
        for (int j = 0; j < cols; ++j) {
            float *o = out + (j0 + j) * ldo;
            const float *s = sums + j * rows;
            for (int v = 0; v + 1 < vecs; ++v) {
                const Vec x = accumulate ? load(o + v * kLanes) + load(s + v * kLanes) : load(s + v * kLanes);
                store(o + v * kLanes, post ? finish(x, *post, v * kLanes, j0 + j) : x);
            }
            if (!post) {
                storeFirst(o + whole, left - whole, load(s + whole), accumulate);
                continue;
            }
            // the epilogue of the last rows, fewer than a vector, one by one (no vector of add may be
            // read past them)
            for (long r = whole; r < left; ++r) o[r] = post->apply(accumulate ? o[r] + s[r] : s[r], r, j0 + j);
        }
    }
}

// The last rows of a product, fewer than a vector: copied once, zero-padded to a vector, then as lastRowsIn<1>
void lastRows(long left, long n, long kc, const float *a, long lda, const float *b, long ldb, bool tb, float *out,
              long ldo, bool accumulate, const Post *post)
{
    alignas(64) float pad[kInner * kLanes];
    for (long k = 0; k < kc; ++k) {
        for (long r = 0; r < left; ++r) pad[k * kLanes + r] = a[r + k * lda];
        for (long r = left; r < kLanes; ++r) pad[k * kLanes + r] = 0.0f;
    }
    lastRowsIn<1>(left, n, kc, pad, kLanes, b, ldb, tb, out, ldo, accumulate, post);
}

// out (+)= A * B with A's rows as vectors at a (a(i, k) = a[i + k * lda]) and B read in place, kCols
// columns at a time: B(k, j) = b[j + k * ldb] when tb, else b[k + j * ldb]. The last rows, fewer than a
// vector, go through a zero-padded copy made once, or, when padded, are read in place. Padded means a's
// rows continue with zeros to a whole vector (transposedLeft's packing); when more than a vector is
// left past the whole panels, that rounding reaches a whole panel too, and the rows run as one panel
// (lastRowsIn<2>: the 31 keys of attention's scores at the induction defaults).
void columnBlocks(long m, long n, long kc, const float *a, long lda, const float *b, long ldb, bool tb, float *out,
                  long ldo, bool accumulate, const Post *post, bool padded = false)
{
    static_assert(kVecs == 2, "a panel is two vectors: more than a vector left fits lastRowsIn<2>");
    const bool panelLeft = padded && m % kRows > kLanes;
    const long body = panelLeft ? m / kRows * kRows : m / kLanes * kLanes;
    for (long j0 = 0; j0 < n && body > 0; j0 += kCols) {
        const int cols = int(std::min<long>(kCols, n - j0));
        rowsOfBlock(body, cols, kc, a, lda, tb ? b + j0 : b + j0 * ldb, ldb, !tb, out + j0 * ldo, ldo, accumulate,
                    PostAt(post, 0, j0).p);
    }
    if (body == m) return;
    const PostAt last(post, body, 0);
    if (panelLeft) lastRowsIn<2>(m - body, n, kc, a + body, lda, b, ldb, tb, out + body, ldo, accumulate, last.p);
    else if (padded) lastRowsIn<1>(m - body, n, kc, a + body, lda, b, ldb, tb, out + body, ldo, accumulate, last.p);
    else lastRows(m - body, n, kc, a + body, lda, b, ldb, tb, out + body, ldo, accumulate, last.p);
}

// out (+)= A * B where A is the transpose of a (A(i, k) = a[k + i * lda]): A copied column-major, in
// chunks of whole panels of rows (the last zero-padded to a whole vector), then as columnBlocks takes it
void transposedLeft(long m, long n, long kc, const float *a, long lda, const float *b, long ldb, bool tb, float *out,
                    long ldo, bool accumulate, const Post *post)
{
    alignas(64) float packed[kPacked];
    const long chunk = std::max<long>(kRows, kPacked / kc / kRows * kRows);
    for (long i0 = 0; i0 < m; i0 += chunk) {
        const long rows = std::min(chunk, m - i0);
        const long ld = (rows + kLanes - 1) / kLanes * kLanes;
        packTransposed(a + i0 * lda, lda, rows, kc, packed, ld);
        columnBlocks(rows, n, kc, packed, ld, b, ldb, tb, out + i0, ldo, accumulate, PostAt(post, i0, 0).p, true);
    }
}

} // namespace

int gemm_kernel_rows() { return kRows; }

void gemm_kernel(long m, long n, long k, const float *a, long lda, bool ta, const float *b, long ldb, bool tb,
                 float *out, long ldo, bool accumulate, const GemmEpilogue<float> *post)
{
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        if (!accumulate)
            for (long j = 0; j < n; ++j) std::fill(out + j * ldo, out + j * ldo + m, 0.0f);
        if (post) apply_epilogue(out, ldo, m, n, *post);
        return;
    }
    // a transposed right operand's rows are kCols floats of a line each: blocks of half the depth
    // keep them and the left panel in the first-level cache (dW at K 768: 177 -> 191 GFLOP/s)
    const long inner = tb ? kInner / 2 : kInner;
    for (long k0 = 0; k0 < k; k0 += inner) {
        const long kc = std::min(inner, k - k0);
        const bool add = accumulate || k0 > 0;
        const Post *last = k0 + kc >= k ? post : nullptr;  // the epilogue, once the sums are complete
        // B's rows k0 .. k0 + kc
        const float *bk = tb ? b + k0 * ldb : b + k0;
        if (!ta) {
            columnBlocks(m, n, kc, a + k0 * lda, lda, bk, ldb, tb, out, ldo, add, last);
            continue;
        }
        transposedLeft(m, n, kc, a + k0, lda, bk, ldb, tb, out, ldo, add, last);
    }
}

} // namespace fb::nn
