#pragma once
// The code cell of section 218.4.5: nn.Linear projections W_Q, W_K, W_V, W_O (with biases, PyTorch's
// default init, created in that order) under torch.manual_seed(7), x = torch.randn(3, 12, 64), the
// sinusoidal table added, and 4-head self-attention. The chapter prints
//   Positional encoding range: [-1.000, 1.000]
//   Output norm: 1.7207          (out.norm(dim=-1).mean(): mean over batch and positions of ||out[b, i, :]||)
//
// FullBand draws the cell's float32 numbers exactly (core/torch/torch_init.h) and computes the rest in
// double; PyTorch computes in float32 (1.72068846 there, 1.72068853 here). The sinusoidal table is the
// chapter's PE(pos, 2i) = sin(pos 10000^(-2i/d)), PE(pos, 2i+1) = cos(...), in double
// (core/attention/positional.h); PyTorch's float32 table differs by at most a few 1e-7.
//
// For the attention lab it also returns each head's attention weights for batch item 0 and the table.
#include "core/torch/torch_generator.h"

#include <Eigen/Dense>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct MhaCellParams {
    int dModel = 64;          // d_model (even, 2..256)
    int heads = 4;            // heads, dividing d_model
    int seqLen = 12;          // n (1..256)
    int batch = 3;            // B (1..8)
    std::uint64_t seed = 7;   // torch.manual_seed(seed) (7: the chapter's)
    bool positional = true;   // add the sinusoidal table to x (the chapter: yes)
    TorchCpuKernel kernel = TorchCpuKernel::Avx2;  // whose float32 draws (Debian's PyTorch: Avx2)
};

struct MhaCell {
    double peMin = 0.0, peMax = 0.0;  // range of the table PE (n, d) (the chapter: [-1.000, 1.000])
    double outputNorm = 0.0;          // mean over b, i of ||out[b, i, :]|| (the chapter: 1.7207)
    std::array<int, 3> outputShape{}; // (B, n, d_model)
    std::vector<Eigen::MatrixXd> weights;  // [heads], each (n, n): softmax(Q_h K_h^T / sqrt(d_k)) of
                                           // batch item 0, rows = queries, each row sums to 1
    std::vector<double> headEntropy;       // [heads] mean row entropy of weights[h], in nats
    Eigen::MatrixXd pe;                    // (n, d_model) the sinusoidal table
    Eigen::VectorXd positionNorm;          // (n) ||out[0, i, :]|| of batch item 0
};

// Empty when p is valid, otherwise one sentence naming the key and its valid range.
std::string checkMhaCellParams(const MhaCellParams &p);

// Throws std::invalid_argument with checkMhaCellParams' sentence for invalid p.
MhaCell mhaCell(const MhaCellParams &p);

} // namespace fb
