#include "core/cells/residual_block_cell.h"

#include "core/cnn/residual_block.h"
#include "core/torch/torch_init.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace fb {

namespace {

std::vector<double> toDouble(const std::vector<float> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

double norm(const std::vector<double> &v)
{
    double s = 0.0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
}

// ||v[:, c, :, :]|| for every channel of an (N, C, HW) tensor.
std::vector<double> channelNorms(const std::vector<double> &v, int N, int C, int HW)
{
    std::vector<double> out(std::size_t(C), 0.0);
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c) {
            const double *p = v.data() + (std::size_t(n) * C + c) * HW;
            for (int i = 0; i < HW; ++i) out[std::size_t(c)] += p[i] * p[i];
        }
    for (double &x : out) x = std::sqrt(x);
    return out;
}

// Forward through the stack, then backward from L = y.sum(). Returns dL/dx_0 and fills the gradient
// norm at every block input (the last entry: at the output). split, when given, receives block 0's
// shortcut and branch parts.
std::vector<double> stackGradient(std::vector<ResidualBlock> &stack, const std::vector<double> &x,
                                  std::vector<double> &gradNorms, std::vector<double> *identity = nullptr,
                                  std::vector<double> *branch = nullptr)
{
    const std::size_t L = stack.size();
    std::vector<double> a = x, b(x.size());
    for (std::size_t l = 0; l < L; ++l) {
        stack[l].forward(a.data(), b.data());
        std::swap(a, b);
    }
    // L = y.sum(): dL/dy = 1
    std::vector<double> d(x.size(), 1.0), dprev(x.size());
    gradNorms.assign(L + 1, 0.0);
    gradNorms[L] = norm(d);
    for (std::size_t l = L; l-- > 0;) {
        std::fill(dprev.begin(), dprev.end(), 0.0);
        const bool first = l == 0;
        stack[l].backward(d.data(), dprev.data(), nullptr, first && identity ? identity->data() : nullptr,
                          first && branch ? branch->data() : nullptr);
        std::swap(d, dprev);
        gradNorms[l] = norm(d);
    }
    return d;
}

} // namespace

std::string checkResidualBlockParams(const ResidualBlockParams &p)
{
    if (p.channels < 1 || p.channels > 32) return "channels must be an integer from 1 to 32.";
    if (p.batch < 1 || p.batch > 8) return "batch must be an integer from 1 to 8.";
    if (p.height < 1 || p.height > 16) return "height must be an integer from 1 to 16.";
    if (p.width < 1 || p.width > 16) return "width must be an integer from 1 to 16.";
    if (p.blocks < 1 || p.blocks > 8) return "blocks must be an integer from 1 to 8.";
    if (!(p.branchGain >= 0.0 && p.branchGain <= 2.0)) return "branch_gain must be a number from 0 to 2.";
    return {};
}

ResidualBlockCell residualBlockCell(const ResidualBlockParams &p)
{
    if (std::string err = checkResidualBlockParams(p); !err.empty()) throw std::invalid_argument(err);
    const int N = p.batch, C = p.channels, H = p.height, W = p.width, HW = H * W;

    // torch.manual_seed(seed); block = ResidualBlock(C) (conv1 then conv2 per block);
    // x = torch.randn(N, C, H, W); x_req = torch.randn(N, C, H, W).
    TorchGenerator g(p.seed, p.kernel);
    std::vector<ResidualBlockWeights> weights(std::size_t(p.blocks));
    for (ResidualBlockWeights &w : weights) {
        w.C = C;
        w.conv1 = toDouble(torchConv2dWeight(g, C, C, 3));
        w.conv2 = toDouble(torchConv2dWeight(g, C, C, 3));
        w.bn1Weight.assign(std::size_t(C), 1.0);
        w.bn1Bias.assign(std::size_t(C), 0.0);
        w.bn2Weight.assign(std::size_t(C), p.branchGain);
        w.bn2Bias.assign(std::size_t(C), 0.0);
    }
    const int count = N * C * HW;
    g.randnFloat(count);  // x: the first forward's input (training-mode BatchNorm: no effect on x_req)
    const std::vector<double> x = toDouble(g.randnFloat(count));  // x_req

    std::vector<ResidualBlock> residual, plain;
    for (const ResidualBlockWeights &w : weights) {
        residual.emplace_back(w, true, N, H, W);
        plain.emplace_back(w, false, N, H, W);
    }

    ResidualBlockCell out;
    out.inputShape = { N, C, H, W };
    out.outputShape = { N, C, H, W };
    std::vector<double> identity(static_cast<std::size_t>(count)), branch(static_cast<std::size_t>(count));
    const std::vector<double> dx = stackGradient(residual, x, out.blockGradNorm, &identity, &branch);
    const std::vector<double> dxPlain = stackGradient(plain, x, out.plainBlockGradNorm);

    out.inputGradNorm = norm(dx);
    out.plainInputGradNorm = norm(dxPlain);
    out.identityGradNorm = norm(identity);
    out.branchGradNorm = norm(branch);
    double dot = 0.0;
    for (std::size_t i = 0; i < identity.size(); ++i) dot += identity[i] * branch[i];
    const double denom = out.identityGradNorm * out.branchGradNorm;
    out.identityBranchCosine = denom > 0.0 ? dot / denom : 0.0;
    out.channelGradNorm = channelNorms(dx, N, C, HW);
    out.channelIdentityNorm = channelNorms(identity, N, C, HW);
    out.channelBranchNorm = channelNorms(branch, N, C, HW);
    out.channelPlainGradNorm = channelNorms(dxPlain, N, C, HW);
    return out;
}

} // namespace fb
