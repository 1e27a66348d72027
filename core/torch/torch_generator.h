#pragma once
// A random generator that draws the same numbers as PyTorch's CPU generator, so FullBand can
// reproduce the chapter's printed figures that depend on torch.manual_seed (e.g. the RoPE logit
// 1.634715 of Figure 218.1's cell). It follows PyTorch's CPU code paths:
//   - torch.manual_seed(s): a 32-bit Mersenne Twister (mt19937) seeded with s;
//   - a double in [0, 1): 53 bits of ((first draw << 32) | second draw), times 2^-53;
//   - torch.randn(n, dtype=float64), n >= 16: n uniforms, then Box-Muller on blocks of 16
//     (u1 = 1 - data[j], u2 = data[j + 8]), the last block redrawn when n is not a multiple of 16;
//   - n < 16: one Box-Muller pair per two draws, the sine half kept for the next call.
// and for float32 tensors (what torch.randn, torch.randn_like and nn.init draw by default):
//   - a float in [0, 1): the low 24 bits of ONE draw, times 2^-24 (at::uniform_real_distribution<float>);
//   - torch.randn(n), n >= 16: n such floats, then Box-Muller on blocks of 16 as for double, the last
//     block redrawn, with the AVX2 kernel's own log and sin/cos (core/torch/torch_avx_math.h);
//   - torch.randn(n), n < 16: float(the double normal above), cached sine half included;
//   - tensor.uniform_(a, b): per element one draw, x = 24 bits times 2^-24, then x (b - a) + a in
//     float with from = float(a), to = float(b), in element order.
#include <cstdint>
#include <random>
#include <vector>

namespace fb {

// Which of PyTorch's CPU kernels to follow for float32 draws. Debian's PyTorch 1.13 runs Avx2 on every
// CPU with AVX2 (including AVX-512 ones; ATEN_CPU_CAPABILITY=avx512 draws the same numbers); Default is
// the kernel of CPUs without AVX2 (ATEN_CPU_CAPABILITY=default, "NO AVX"). They differ by an ulp in
// about one value in a hundred (randn: the vectorised log/sin/cos; uniform_: the AVX2 kernel fuses
// x (b - a) + a into one fused multiply-add).
enum class TorchCpuKernel { Avx2, Default };

class TorchGenerator {
public:
    // torch.manual_seed(seed); kernel: whose float32 draws to follow (double draws are the same for both).
    explicit TorchGenerator(std::uint64_t seed = 0, TorchCpuKernel kernel = TorchCpuKernel::Avx2);

    // torch.rand(1, dtype=float64) one value at a time.
    double uniform();

    // torch.randn(n, dtype=torch.float64) with this generator.
    std::vector<double> randn(int n);

    // torch.rand(1) (float32) one value at a time: one 32-bit draw.
    float uniformFloat();

    // torch.randn(n) (float32) with this generator, as its kernel draws it.
    std::vector<float> randnFloat(int n);

    // torch.empty(n).uniform_(from, to) (float32), as its kernel draws it. nn.init.uniform_ and
    // nn.init.kaiming_uniform_ (core/torch/torch_init.h) come down to this.
    std::vector<float> uniformFloat(int n, double from, double to);

    TorchCpuKernel kernel() const { return kernel_; }

private:
    double normalScalar();  // at::normal_distribution<double>, the n < 16 path

    std::mt19937 engine_;
    TorchCpuKernel kernel_;
    double nextNormal_ = 0.0;
    bool hasNextNormal_ = false;
};

} // namespace fb
