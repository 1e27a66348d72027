#pragma once
// A random generator that draws the same numbers as PyTorch's CPU generator, so FullBand can
// reproduce the chapter's printed figures that depend on torch.manual_seed (e.g. the RoPE logit
// 1.634715 of Figure 218.1's cell). It follows PyTorch's CPU code paths:
//   - torch.manual_seed(s): a 32-bit Mersenne Twister (mt19937) seeded with s;
//   - a double in [0, 1): 53 bits of ((first draw << 32) | second draw), times 2^-53;
//   - torch.randn(n, dtype=float64), n >= 16: n uniforms, then Box-Muller on blocks of 16
//     (u1 = 1 - data[j], u2 = data[j + 8]), the last block redrawn when n is not a multiple of 16;
//   - n < 16: one Box-Muller pair per two draws, the sine half kept for the next call.
#include <cstdint>
#include <random>
#include <vector>

namespace fb {

class TorchGenerator {
public:
    explicit TorchGenerator(std::uint64_t seed = 0);

    // torch.rand(1, dtype=float64) one value at a time.
    double uniform();

    // torch.randn(n, dtype=torch.float64) with this generator.
    std::vector<double> randn(int n);

private:
    double normalScalar();  // at::normal_distribution<double>, the n < 16 path

    std::mt19937 engine_;
    double nextNormal_ = 0.0;
    bool hasNextNormal_ = false;
};

} // namespace fb
