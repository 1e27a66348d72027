#include "core/torch/torch_init.h"

#include <cmath>

namespace fb {

double kaimingUniformBound(int fanIn)
{
    // torch.nn.init.calculate_gain('leaky_relu', a) = math.sqrt(2.0 / (1 + a ** 2)), a = math.sqrt(5)
    // (a ** 2 is 5.000000000000001 in double); std = gain / math.sqrt(fan); bound = math.sqrt(3.0) * std.
    const double a = std::sqrt(5.0);
    const double gain = std::sqrt(2.0 / (1.0 + a * a));
    const double stddev = gain / std::sqrt(double(fanIn));
    return std::sqrt(3.0) * stddev;
}

double biasUniformBound(int fanIn)
{
    return fanIn > 0 ? 1.0 / std::sqrt(double(fanIn)) : 0.0;
}

std::vector<float> kaimingUniform(TorchGenerator &g, int count, int fanIn)
{
    const double bound = kaimingUniformBound(fanIn);
    return g.uniformFloat(count, -bound, bound);
}

TorchLinearInit torchLinearInit(TorchGenerator &g, int in, int out, bool bias)
{
    // Linear.reset_parameters: kaiming_uniform_(self.weight, a=math.sqrt(5)), then the bias.
    TorchLinearInit p;
    p.weight = kaimingUniform(g, in * out, in);
    if (bias) {
        const double bound = biasUniformBound(in);
        p.bias = g.uniformFloat(out, -bound, bound);
    }
    return p;
}

std::vector<float> torchConv2dWeight(TorchGenerator &g, int inChannels, int outChannels, int kernel)
{
    // Conv2d.reset_parameters: kaiming_uniform_ with fan_in = in_channels * kernel * kernel.
    const int fanIn = inChannels * kernel * kernel;
    return kaimingUniform(g, outChannels * fanIn, fanIn);
}

} // namespace fb
