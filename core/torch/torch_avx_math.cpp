#include "core/torch/torch_avx_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define FULLBAND_TORCH_AVX2 1
#endif

namespace fb {

namespace {

// The Cephes constants of avx_mathfun.h, as float.
constexpr float kSqrtHalf = 0.707106781186547524f;
constexpr float kLogP[9] = { 7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                             -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                             2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f };
constexpr float kLogQ1 = -2.12194440e-4f;
constexpr float kLogQ2 = 0.693359375f;
constexpr float kMinusDP1 = -0.78515625f;
constexpr float kMinusDP2 = -2.4187564849853515625e-4f;
constexpr float kMinusDP3 = -3.77489497744594108e-8f;
constexpr float kSinP[3] = { -1.9515295891E-4f, 8.3321608736E-3f, -1.6666654611E-1f };
constexpr float kCosP[3] = { 2.443315711809948E-005f, -1.388731625493765E-003f, 4.166664568298827E-002f };
constexpr float kFourOverPi = 1.27323954473516f;
// _mm256_set1_ps(2.0f * c10::pi<double>): 2 pi in double, rounded to float.
const float kTwoPi = float(2.0 * M_PI);

std::uint32_t bitsOf(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float fromBits(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

} // namespace

float torchAvxLog(float x)
{
    if (!(x > 0.0f)) return std::nanf("");  // the header ORs an all-ones mask into x <= 0
    x = x > fromBits(0x00800000u) ? x : fromBits(0x00800000u);  // cut off denormals
    std::int32_t imm0 = std::int32_t(bitsOf(x) >> 23);
    x = fromBits((bitsOf(x) & ~0x7f800000u) | bitsOf(0.5f));  // mantissa in [0.5, 1)
    imm0 -= 0x7f;
    float e = float(imm0);
    e = e + 1.0f;
    // if (x < SQRTHF) { e -= 1; x = x + x - 1; } else { x = x - 1; }
    const bool below = x < kSqrtHalf;
    const float tmp = below ? x : 0.0f;
    x = x - 1.0f;
    e = e - (below ? 1.0f : 0.0f);
    x = x + tmp;
    const float z = x * x;
    float y = kLogP[0];
    for (int k = 1; k < 9; ++k) y = std::fma(y, x, kLogP[k]);  // y = y * x + p_k, fused
    y = y * x;
    y = std::fma(y, z, e * kLogQ1);   // y = y * z + e * q1: the first product fused
    y = std::fma(-z, 0.5f, y);        // y = y - z * 0.5, fused (z * 0.5 is exact either way)
    return std::fma(e, kLogQ2, x + y); // x = (x + y) + e * q2, fused (e * q2 is exact either way)
}

void torchAvxSinCos(float x, float &s, float &c)
{
    std::uint32_t signSin = bitsOf(x) & 0x80000000u;
    x = std::fabs(x);
    float y = x * kFourOverPi;
    if (!(y < 2147483648.0f)) {  // NaN, inf or beyond int32: outside the kernel's domain
        s = c = std::nanf("");
        return;
    }
    std::int32_t j = std::int32_t(y);  // _mm256_cvttps_epi32
    j = (j + 1) & ~1;                  // j = (j + 1) & ~1 (see the Cephes sources)
    y = float(j);
    const std::uint32_t swapSignSin = std::uint32_t(j & 4) << 29;
    const bool polyMask = (j & 2) == 0;
    // The "extended precision modular arithmetic" x = ((x - y DP1) - y DP2) - y DP3, each step fused.
    x = std::fma(y, kMinusDP1, x);
    x = std::fma(y, kMinusDP2, x);
    x = std::fma(y, kMinusDP3, x);
    const std::uint32_t signCos = std::uint32_t(~(j - 2) & 4) << 29;
    signSin ^= swapSignSin;

    // The first polynomial (cos on 0 <= x <= pi/4).
    const float z = x * x;
    float yc = std::fma(kCosP[0], z, kCosP[1]);
    yc = std::fma(yc, z, kCosP[2]);
    yc = yc * z;
    yc = std::fma(yc, z, -(z * 0.5f));  // y = y * z - z * 0.5: the first product fused
    yc = yc + 1.0f;
    // The second polynomial (sin on 0 <= x <= pi/4).
    float ys = std::fma(kSinP[0], z, kSinP[1]);
    ys = std::fma(ys, z, kSinP[2]);
    ys = ys * z;
    ys = std::fma(ys, x, x);  // y2 = y2 * x + x, fused

    // Select: the and/andnot masks give +0 in the lanes not chosen, and the adds below are kept
    // literally so that signed zeros come out as the kernel's do.
    const float ysin2 = polyMask ? ys : 0.0f;
    const float ysin1 = polyMask ? 0.0f : yc;
    ys = ys - ysin2;
    yc = yc - ysin1;
    s = fromBits(bitsOf(ysin1 + ysin2) ^ signSin);
    c = fromBits(bitsOf(yc + ys) ^ signCos);
}

#ifdef FULLBAND_TORCH_AVX2
namespace {

// torchAvxLog on eight lanes (x > 0).
__m256 logAvx(__m256 x)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
    __m256i imm0 = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
    x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
    x = _mm256_or_ps(x, _mm256_set1_ps(0.5f));
    imm0 = _mm256_sub_epi32(imm0, _mm256_set1_epi32(0x7f));
    __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(imm0), one);
    const __m256 mask = _mm256_cmp_ps(x, _mm256_set1_ps(kSqrtHalf), _CMP_LT_OS);
    const __m256 tmp = _mm256_and_ps(x, mask);
    x = _mm256_sub_ps(x, one);
    e = _mm256_sub_ps(e, _mm256_and_ps(one, mask));
    x = _mm256_add_ps(x, tmp);
    const __m256 z = _mm256_mul_ps(x, x);
    __m256 y = _mm256_set1_ps(kLogP[0]);
    for (int k = 1; k < 9; ++k) y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(kLogP[k]));
    y = _mm256_mul_ps(y, x);
    y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(kLogQ1)));
    y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
    return _mm256_fmadd_ps(e, _mm256_set1_ps(kLogQ2), _mm256_add_ps(x, y));
}

// torchAvxSinCos on eight lanes.
void sinCosAvx(__m256 x, __m256 &s, __m256 &c)
{
    const __m256 signMask = _mm256_castsi256_ps(_mm256_set1_epi32(int(0x80000000u)));
    __m256 signSin = _mm256_and_ps(x, signMask);
    x = _mm256_andnot_ps(signMask, x);
    __m256 y = _mm256_mul_ps(x, _mm256_set1_ps(kFourOverPi));
    __m256i j = _mm256_cvttps_epi32(y);
    j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
    y = _mm256_cvtepi32_ps(j);
    const __m256 swapSignSin = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29));
    const __m256 polyMask = _mm256_castsi256_ps(
        _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(kMinusDP1), x);
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(kMinusDP2), x);
    x = _mm256_fmadd_ps(y, _mm256_set1_ps(kMinusDP3), x);
    const __m256i jc = _mm256_sub_epi32(j, _mm256_set1_epi32(2));
    const __m256 signCos = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_andnot_si256(jc, _mm256_set1_epi32(4)), 29));
    signSin = _mm256_xor_ps(signSin, swapSignSin);

    const __m256 z = _mm256_mul_ps(x, x);
    __m256 yc = _mm256_fmadd_ps(_mm256_set1_ps(kCosP[0]), z, _mm256_set1_ps(kCosP[1]));
    yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(kCosP[2]));
    yc = _mm256_mul_ps(yc, z);
    yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)));
    yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
    __m256 ys = _mm256_fmadd_ps(_mm256_set1_ps(kSinP[0]), z, _mm256_set1_ps(kSinP[1]));
    ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(kSinP[2]));
    ys = _mm256_mul_ps(ys, z);
    ys = _mm256_fmadd_ps(ys, x, x);

    const __m256 ysin2 = _mm256_and_ps(polyMask, ys);
    const __m256 ysin1 = _mm256_andnot_ps(polyMask, yc);
    ys = _mm256_sub_ps(ys, ysin2);
    yc = _mm256_sub_ps(yc, ysin1);
    s = _mm256_xor_ps(_mm256_add_ps(ysin1, ysin2), signSin);
    c = _mm256_xor_ps(_mm256_add_ps(yc, ys), signCos);
}

} // namespace
#endif

void torchAvxNormalFill16(float *block)
{
#ifdef FULLBAND_TORCH_AVX2
    const __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(block));
    const __m256 u2 = _mm256_loadu_ps(block + 8);
    const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), logAvx(u1)));
    __m256 s, c;
    sinCosAvx(_mm256_mul_ps(_mm256_set1_ps(kTwoPi), u2), s, c);
    // The kernel ends with fmadd(n, std, mean), which is n itself for std 1, mean 0.
    _mm256_storeu_ps(block, _mm256_mul_ps(radius, c));
    _mm256_storeu_ps(block + 8, _mm256_mul_ps(radius, s));
#else
    for (int j = 0; j < 8; ++j) {
        const float u1 = 1.0f - block[j];  // [0, 1) -> (0, 1] for the log
        const float u2 = block[j + 8];
        const float radius = std::sqrt(-2.0f * torchAvxLog(u1));
        float s, c;
        torchAvxSinCos(kTwoPi * u2, s, c);
        block[j] = radius * c;
        block[j + 8] = radius * s;
    }
#endif
}

void torchAvxNormalFillBlocks(float *data, std::size_t count)
{
    for (std::size_t i = 0; i + 16 <= count; i += 16) torchAvxNormalFill16(data + i);
}

void torchDefaultNormalFill16(float *block)
{
    for (int j = 0; j < 8; ++j) {
        const float u1 = 1.0f - block[j];
        const float u2 = block[j + 8];
        const float radius = std::sqrt(-2.0f * std::log(u1));
        const float theta = float(2.0 * M_PI * double(u2));  // 2.0f * c10::pi<double> * u2, in double
        block[j] = radius * std::cos(theta);
        block[j + 8] = radius * std::sin(theta);
    }
}

} // namespace fb
