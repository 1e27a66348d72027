#include "core/cells/mha_cell.h"

#include "core/attention/attention.h"
#include "core/attention/positional.h"
#include "core/torch/torch_init.h"

#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// nn.Linear(d, d) as drawn: weight (out, in) and bias (out), in double.
struct Linear {
    Eigen::MatrixXd weight;  // (d, d), weight(o, i)
    Eigen::RowVectorXd bias; // (d)
    Linear(TorchGenerator &g, int d)
    {
        const TorchLinearInit init = torchLinearInit(g, d, d);
        weight = Eigen::Map<const RowMajorF>(init.weight.data(), d, d).cast<double>();
        bias = Eigen::Map<const Eigen::RowVectorXf>(init.bias.data(), d).cast<double>();
    }
    // X is (n, in); returns X W^T + b, (n, out).
    Eigen::MatrixXd operator()(const Eigen::MatrixXd &X) const
    {
        Eigen::MatrixXd Y = X * weight.transpose();
        Y.rowwise() += bias;
        return Y;
    }
};

} // namespace

std::string checkMhaCellParams(const MhaCellParams &p)
{
    if (p.dModel < 2 || p.dModel > 256 || p.dModel % 2 != 0)
        return "d_model must be an even integer from 2 to 256.";
    if (p.heads < 1 || p.heads > p.dModel || p.dModel % p.heads != 0)
        return "heads must be an integer from 1 to d_model that divides d_model (" + std::to_string(p.dModel) + ").";
    if (p.seqLen < 1 || p.seqLen > 256) return "seq_len must be an integer from 1 to 256.";
    if (p.batch < 1 || p.batch > 8) return "batch must be an integer from 1 to 8.";
    return {};
}

MhaCell mhaCell(const MhaCellParams &p)
{
    if (std::string err = checkMhaCellParams(p); !err.empty()) throw std::invalid_argument(err);
    const int d = p.dModel, n = p.seqLen, B = p.batch, H = p.heads, dk = d / H;

    // torch.manual_seed(seed); mha = MultiHeadAttention(d, heads): W_Q, W_K, W_V, W_O in this order,
    // each weight then bias; x = torch.randn(B, n, d).
    TorchGenerator g(p.seed, p.kernel);
    const Linear WQ(g, d), WK(g, d), WV(g, d), WO(g, d);
    const std::vector<float> x = g.randnFloat(B * n * d);

    MhaCell out;
    out.outputShape = { B, n, d };
    out.pe = sinusoidalTable(n, d);
    out.peMin = out.pe.minCoeff();
    out.peMax = out.pe.maxCoeff();
    out.weights.assign(std::size_t(H), Eigen::MatrixXd());
    out.headEntropy.assign(std::size_t(H), 0.0);

    const double scale = 1.0 / std::sqrt(double(dk));
    double normSum = 0.0;
    for (int b = 0; b < B; ++b) {
        // x_pos = x + pe: (n, d); x[b] is row-major (n, d) in the draw
        Eigen::MatrixXd X = Eigen::Map<const RowMajorF>(x.data() + std::size_t(b) * n * d, n, d).cast<double>();
        if (p.positional) X += out.pe;
        const Eigen::MatrixXd Q = WQ(X), K = WK(X), V = WV(X);  // (n, d), head h in columns [h dk, (h+1) dk)
        Eigen::MatrixXd concat(n, d);                           // (n, d): the heads side by side
        for (int h = 0; h < H; ++h) {
            Eigen::MatrixXd A = Q.middleCols(h * dk, dk) * K.middleCols(h * dk, dk).transpose() * scale;  // (n, n)
            Eigen::VectorXd entropy;
            softmaxRowsInPlace(A, false, b == 0 ? &entropy : nullptr);
            concat.middleCols(h * dk, dk) = A * V.middleCols(h * dk, dk);
            if (b == 0) {
                out.headEntropy[std::size_t(h)] = entropy.mean();
                out.weights[std::size_t(h)] = std::move(A);
            }
        }
        const Eigen::MatrixXd Y = WO(concat);  // (n, d)
        const Eigen::VectorXd rowNorm = Y.rowwise().norm();
        if (b == 0) out.positionNorm = rowNorm;
        normSum += rowNorm.sum();
    }
    out.outputNorm = normSum / (double(B) * n);
    return out;
}

} // namespace fb
