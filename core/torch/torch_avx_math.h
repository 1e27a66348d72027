#pragma once
// The float logarithm and sine/cosine that PyTorch 1.13's AVX2 kernel of torch.randn uses, bit for bit.
//
// torch.randn on float32 tensors of 16 or more elements runs normal_fill_16_AVX2 (ATen's
// DistributionTemplates.h) whenever the CPU kernels run at AVX2 capability, which is what Debian's
// python3-torch 1.13 picks on any CPU with AVX2 (torch.__config__.show(): "CPU capability usage:
// AVX2"; AVX-512 CPUs too). That kernel takes log256_ps and sincos256_ps from ATen's avx_mathfun.h
// (Giovanni Garberoglio's AVX port of Julien Pommier's sse_mathfun, zlib licence: the Cephes
// polynomials for logf and sinf/cosf), not libm. The functions below follow those steps one IEEE
// float operation at a time, with one difference from the header's text that matters: Debian builds
// the AVX2 kernels with GCC 12 at -O2 -mavx2 -mfma in GNU mode, where -ffp-contract=fast fuses every
// multiply whose only use is an add or subtract into one fused multiply-add (the Horner steps, the
// three-part reduction x - y DP1 - y DP2 - y DP3, the last step of each polynomial). The fused steps
// are written out here with std::fma (exact in hardware or in glibc's software fma alike), the rest
// are plain float operations, and this file is compiled with -ffp-contract=off (core/CMakeLists.txt)
// so that our own compiler fuses nothing else.
//
// Checked: equal to avx_mathfun.h compiled with Debian's GCC 12.2 -O2 -mavx2 -mfma on all 2^24
// arguments the kernel can see (u1 = 1 - k 2^-24 for the log, theta = float(2 pi) k 2^-24 for
// sincos); without the fused steps about 1% of the values would be one ulp off.
#include <cstddef>

namespace fb {

// log256_ps of one lane: natural logarithm for x > 0 (the kernel only sees x in [2^-24, 1]).
float torchAvxLog(float x);

// sincos256_ps of one lane: s = sin(x), c = cos(x), accurate for |x| < 8192 (NaN for |x| >= 2^31
// and NaN x, where the kernel's float-to-int conversion would overflow).
void torchAvxSinCos(float x, float &s, float &c);

// normal_fill_16_AVX2 on block[0..15] holding uniforms in [0, 1) (mean 0, std 1): for j < 8,
// u1 = 1 - block[j], u2 = block[j + 8], radius = sqrt(-2 log u1), theta = float(2 pi) u2,
// block[j] = radius cos theta, block[j + 8] = radius sin theta. Runs eight lanes at once with AVX2
// intrinsics when FullBand is built for AVX2 and FMA, one lane at a time otherwise; both give the
// same bits.
void torchAvxNormalFill16(float *block);

// The same for count / 16 consecutive blocks (count a multiple of 16).
void torchAvxNormalFillBlocks(float *data, std::size_t count);

// normal_fill_16 of the kernels without AVX2 (ATEN_CPU_CAPABILITY=default, "NO AVX"): the same
// Box-Muller in float with libm's logf, cosf and sinf and theta rounded from double.
void torchDefaultNormalFill16(float *block);

} // namespace fb
