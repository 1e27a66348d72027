#pragma once
// PyTorch's default parameter initialisation (torch.nn, version 1.13), drawn with TorchGenerator so
// that FullBand starts from exactly the float32 weights the chapter's cells start from:
//   nn.Linear(in, out):   weight (out, in) = kaiming_uniform_(a = sqrt 5), bias (out) = U(-1/sqrt in, 1/sqrt in);
//   nn.Conv2d(C, OC, k):  weight (OC, C, k, k) the same with fan_in = C k k, bias likewise (if any);
//   nn.BatchNorm2d:       weight 1, bias 0, no draws.
// kaiming_uniform_(a) is uniform_(-bound, bound) with bound = sqrt(3) * gain / sqrt(fan_in) and
// gain = sqrt(2 / (1 + a^2)); for a = sqrt 5 this is 1 / sqrt(fan_in) up to the last bits of
// Python's double arithmetic, which kaimingUniformBound repeats step by step. Tensors are returned
// flat in PyTorch's row-major (contiguous) order, the order in which their entries are drawn.
#include "core/torch/torch_generator.h"

#include <vector>

namespace fb {

// nn.init.kaiming_uniform_(w, a = sqrt(5))'s bound, in Python's double arithmetic:
// math.sqrt(3.0) * (math.sqrt(2.0 / (1 + math.sqrt(5) ** 2)) / math.sqrt(fan_in)).
double kaimingUniformBound(int fanIn);

// The bias bound of nn.Linear and nn.Conv2d: 1 / math.sqrt(fan_in).
double biasUniformBound(int fanIn);

// count entries of nn.init.kaiming_uniform_(w, a = sqrt(5)) for a weight with this fan_in.
std::vector<float> kaimingUniform(TorchGenerator &g, int count, int fanIn);

// nn.Linear(in, out): weight (out, in) row-major, then bias (out) when bias is true (empty otherwise).
struct TorchLinearInit {
    std::vector<float> weight;  // (out, in), row-major: weight[o * in + i]
    std::vector<float> bias;    // (out)
};
TorchLinearInit torchLinearInit(TorchGenerator &g, int in, int out, bool bias = true);

// nn.Conv2d(C, OC, k, bias=False)'s weight (OC, C, k, k), row-major.
std::vector<float> torchConv2dWeight(TorchGenerator &g, int inChannels, int outChannels, int kernel);

} // namespace fb
