#pragma once
// The code cell of section 218.1: a residual block (conv 3x3 -> BatchNorm2d -> ReLU -> conv 3x3 ->
// BatchNorm2d, + identity, ReLU; 16 channels) on a 2 x 16 x 8 x 8 input under torch.manual_seed(0),
// and the gradient of y.sum() with respect to the input. The chapter prints
//   Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])
//   Input gradient norm: 37.9606
//
// FullBand draws exactly the cell's float32 numbers (core/torch/torch_init.h): conv1's weight, conv2's
// weight (kaiming_uniform_, bound 1/sqrt(9 C)), then x = torch.randn(N, C, H, W), the input of the
// cell's first forward and backward, and x_req = torch.randn(N, C, H, W), the input whose gradient is
// printed. BatchNorm is in training mode, so the first pass changes only the running statistics,
// which a training-mode pass never reads: x is drawn (to keep the generator in step) and not used.
// Everything after the draws runs in double (PyTorch runs it in float32; at the chapter's sizes the two
// norms differ by 1.4e-6).
//
// For the depth lab it also shows what the shortcut does to the gradient, the chapter's
// dL/dx = dL/dH (1 + dF/dx): the same weights and input with and without the identity, per channel,
// and the input gradient split into the part that crossed the shortcut (dL/dS, S = F(x) + x before the
// last ReLU) and the part that went through the branch ((dF/dx)^T dL/dS). branchGain scales every
// block's last BatchNorm weight: at 0 (the "zero-init residual" of Goyal et al. 2017) the branch is
// silent, F = 0 and dF/dx = 0, so the residual block passes exactly dL/dS while the plain block's
// gradient is exactly zero. blocks > 1 stacks blocks (nn.Sequential of ResidualBlock, drawn in order)
// to show the gradient norm at every depth.
#include "core/torch/torch_generator.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct ResidualBlockParams {
    int channels = 16;        // C (1..32)
    int batch = 2;            // N (1..8)
    int height = 8;           // H (1..16)
    int width = 8;            // W (1..16)
    std::uint64_t seed = 0;   // torch.manual_seed(seed) (0: the chapter's)
    int blocks = 1;           // residual blocks in a row (1..8; 1: the chapter's cell)
    double branchGain = 1.0;  // the weight (gamma) of every block's second BatchNorm (0..2; 1: PyTorch's init)
    TorchCpuKernel kernel = TorchCpuKernel::Avx2;  // whose float32 draws (Debian's PyTorch: Avx2)
};

struct ResidualBlockCell {
    double inputGradNorm = 0.0;            // ||dL/dx_req||, L = y.sum() (the chapter: 37.9606)
    std::array<int, 4> inputShape{};       // (N, C, H, W)
    std::array<int, 4> outputShape{};      // (N, C, H, W): the block keeps the shape
    double plainInputGradNorm = 0.0;       // the same weights and input without the identity shortcuts

    // The first block's input gradient in two parts, dL/dx = dL/dS + (dF/dx)^T dL/dS:
    double identityGradNorm = 0.0;         // ||dL/dS||, through the shortcut (the "1")
    double branchGradNorm = 0.0;           // ||(dF/dx)^T dL/dS||, through the branch (the "dF/dx")
    double identityBranchCosine = 0.0;     // cosine between the two parts (0 if either is zero)

    std::vector<double> channelGradNorm;       // [C] ||dL/dx[:, c]|| with the shortcut
    std::vector<double> channelIdentityNorm;   // [C] of the shortcut's part
    std::vector<double> channelBranchNorm;     // [C] of the branch's part
    std::vector<double> channelPlainGradNorm;  // [C] without the shortcut

    std::vector<double> blockGradNorm;       // [blocks + 1] ||dL/dx_k|| at block k's input; the last is ||dL/dy||
    std::vector<double> plainBlockGradNorm;  // [blocks + 1] the same without the shortcuts
};

// Empty when p is valid, otherwise one sentence naming the key and its valid range.
std::string checkResidualBlockParams(const ResidualBlockParams &p);

// Throws std::invalid_argument with checkResidualBlockParams' sentence for invalid p.
ResidualBlockCell residualBlockCell(const ResidualBlockParams &p);

} // namespace fb
