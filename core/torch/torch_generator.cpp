#include "core/torch/torch_generator.h"

#include "core/torch/torch_avx_math.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

namespace fb {

TorchGenerator::TorchGenerator(std::uint64_t seed, TorchCpuKernel kernel)
    : engine_(static_cast<std::uint32_t>(seed)), kernel_(kernel)
{
}

double TorchGenerator::uniform()
{
    // at::uniform_real_distribution<double>: random64() = (first << 32) | second, keep 53 bits.
    const std::uint64_t hi = engine_();
    const std::uint64_t lo = engine_();
    const std::uint64_t bits = (hi << 32) | lo;
    return double(bits & ((std::uint64_t(1) << 53) - 1)) * std::ldexp(1.0, -53);
}

double TorchGenerator::normalScalar()
{
    if (hasNextNormal_) {
        hasNextNormal_ = false;
        return nextNormal_;
    }
    const double u1 = uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
    const double theta = 2.0 * M_PI * u1;
    nextNormal_ = r * std::sin(theta);
    hasNextNormal_ = true;
    return r * std::cos(theta);
}

std::vector<double> TorchGenerator::randn(int n)
{
    std::vector<double> data(std::size_t(std::max(n, 0)));
    if (n < 16) {
        for (double &x : data) x = normalScalar();
        return data;
    }
    // normal_fill: uniforms first, then Box-Muller in place on blocks of 16.
    auto fill16 = [](double *block) {
        for (int j = 0; j < 8; ++j) {
            const double u1 = 1.0 - block[j];
            const double u2 = block[j + 8];
            const double radius = std::sqrt(-2.0 * std::log(u1));
            const double theta = 2.0 * M_PI * u2;
            block[j] = radius * std::cos(theta);
            block[j + 8] = radius * std::sin(theta);
        }
    };
    for (double &x : data) x = uniform();
    for (int i = 0; i + 16 <= n; i += 16) fill16(data.data() + i);
    if (n % 16 != 0) {
        double *tail = data.data() + n - 16;  // the last 16 values are drawn again
        for (int i = 0; i < 16; ++i) tail[i] = uniform();
        fill16(tail);
    }
    return data;
}

float TorchGenerator::uniformFloat()
{
    // at::uniform_real_distribution<float>: random() is one 32-bit draw; keep 24 bits (float's digits).
    return float(engine_() & 0xFFFFFFu) * 0x1.0p-24f;
}

std::vector<float> TorchGenerator::randnFloat(int n)
{
    std::vector<float> data(std::size_t(std::max(n, 0)));
    if (n < 16) {
        // normal_kernel's serial path: at::normal_distribution<double>, then static_cast<float>.
        for (float &x : data) x = float(normalScalar());
        return data;
    }
    // normal_fill_AVX2 / normal_fill: n uniforms first, then Box-Muller in place on blocks of 16.
    auto fillBlocks = [kernel = kernel_](float *block, std::size_t count) {
        if (kernel == TorchCpuKernel::Avx2) {
            torchAvxNormalFillBlocks(block, count);
        } else {
            for (std::size_t i = 0; i + 16 <= count; i += 16) torchDefaultNormalFill16(block + i);
        }
    };
    for (float &x : data) x = uniformFloat();
    // Each block of 16 is transformed on its own (the uniforms are all drawn): the blocks split
    // across threads, 4096 blocks (256 KiB) at least per task, with the same bits as in one loop.
    const std::size_t blocks = data.size() / 16;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 4096), [&](const tbb::blocked_range<std::size_t> &r) {
        fillBlocks(data.data() + 16 * r.begin(), 16 * (r.end() - r.begin()));
    });
    if (n % 16 != 0) {
        float *tail = data.data() + n - 16;  // the last 16 values are drawn again
        for (int i = 0; i < 16; ++i) tail[i] = uniformFloat();
        fillBlocks(tail, 16);
    }
    return data;
}

std::vector<float> TorchGenerator::uniformFloat(int n, double from, double to)
{
    // uniform_kernel: from and to cast to float once, then per element (in storage order)
    // x = (draw & (2^24 - 1)) * 2^-24 and x * (to - from) + from in float. The AVX2 build fuses the
    // last line into one fused multiply-add; the default build rounds the product first.
    const float lo = float(from), hi = float(to);
    const float range = hi - lo;
    std::vector<float> data(std::size_t(std::max(n, 0)));
    for (float &v : data) {
        const float x = uniformFloat();
        v = kernel_ == TorchCpuKernel::Avx2 ? std::fma(x, range, lo) : x * range + lo;
    }
    return data;
}

} // namespace fb

