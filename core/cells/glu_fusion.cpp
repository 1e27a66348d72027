#include "core/cells/glu_fusion.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fb {

namespace {

using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMajorD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double sigmoid(double z)
{
    return 1.0 / (1.0 + std::exp(-z));
}

// torch.randn(rows, cols) / s with s a Python float: float32 division by float32(s), as torch's
// div kernel does it. Row-major (rows, cols), kept in float32 (the products widen it block by block).
std::vector<float> scaledRandn(TorchGenerator &g, int rows, int cols, double s)
{
    std::vector<float> v = g.randnFloat(rows * cols);
    const float fs = float(s);
    for (float &x : v) x = x / fs;
    return v;
}

RowMajorD randnMatrix(TorchGenerator &g, int rows, int cols)
{
    const std::vector<float> v = g.randnFloat(rows * cols);
    return Eigen::Map<const RowMajorF>(v.data(), rows, cols).cast<double>();
}

// sigmoid on arrays, vectorised (Eigen's packet exp): the sensitivity curve's inner loop.
template <typename Z>
auto sigmoidArray(const Z &z)
{
    return 1.0 / (1.0 + (-z).exp());
}

} // namespace

std::string checkGluFusionParams(const GluFusionParams &p)
{
    if (p.dModel < 1 || p.dModel > 2048) return "d_model must be an integer from 1 to 2048.";
    if (p.dEmb < 1 || p.dEmb > 2048) return "d_emb must be an integer from 1 to 2048.";
    if (p.batch < 1 || p.batch > 64) return "batch must be an integer from 1 to 64.";
    if (!(p.alpha >= 0.0 && p.alpha <= 1.0)) return "alpha must be a number from 0 to 1.";
    if (p.layers < 1 || p.layers > 1024) return "layers must be an integer from 1 to 1024.";
    if (p.bins < 1 || p.bins > 1000) return "bins must be an integer from 1 to 1000.";
    if (p.curvePoints < 2 || p.curvePoints > 1001) return "curve_points must be an integer from 2 to 1001.";
    return {};
}

GluFusionOverhead gluFusionOverhead(const GluFusionParams &p)
{
    GluFusionOverhead o;
    const double d = p.dModel, de = p.dEmb, L = p.layers;
    o.fusionParams = 2.0 * d * (de + d);
    o.fusionFlops = 2.0 * o.fusionParams;
    o.stackParams = 12.0 * d * d * L;
    o.stackFlops = 24.0 * d * d * L;
    o.paramRatio = o.fusionParams / o.stackParams;
    o.flopRatio = o.fusionFlops / o.stackFlops;
    return o;
}

GluFusion::GluFusion(const GluFusionParams &p) : draws_(p)
{
    if (std::string err = checkGluFusionParams(p); !err.empty()) throw std::invalid_argument(err);
    const int d = p.dModel, de = p.dEmb, B = p.batch;
    // torch.manual_seed(seed); W_a, W_b = torch.randn(d, d_e + d) / (d_e + d) ** 0.5;
    // e_prev = torch.randn(B, d_e); h_prev = torch.randn(B, d); (x_next, gate); h' = torch.randn_like(h_prev).
    TorchGenerator g(p.seed, p.kernel);
    const double s = std::sqrt(double(de + d));
    const std::vector<float> Wa = scaledRandn(g, d, de + d, s);  // (d, d_e + d), row-major
    const std::vector<float> Wb = scaledRandn(g, d, de + d, s);
    const RowMajorD E = randnMatrix(g, B, de);                    // (B, d_e)
    RowMajorD Hs(2 * B, d);                                       // (2B, d): h on top, h' below
    Hs.topRows(B) = randnMatrix(g, B, d);
    Hs.bottomRows(B) = randnMatrix(g, B, d);

    // u W^T = e W_e^T + h W_h^T, W_e = W[:, :d_e], W_h = W[:, d_e:]. Each task widens a block of W's
    // rows to double and forms that block's output columns: no double copy of W (2048 x 4096 would
    // be 64 MiB each), and both matrices' blocks shared by all threads.
    Ae_.resize(B, d);
    Be_.resize(B, d);
    Eigen::MatrixXd Ahs(2 * B, d), Bhs(2 * B, d);
    const int rowsPerTask = 64;
    const int tasksPerMatrix = (d + rowsPerTask - 1) / rowsPerTask;
    tbb::parallel_for(0, 2 * tasksPerMatrix, [&](int task) {
        const bool a = task < tasksPerMatrix;
        const std::vector<float> &W = a ? Wa : Wb;
        const int r0 = (task % tasksPerMatrix) * rowsPerTask;
        const int n = std::min(rowsPerTask, d - r0);
        const RowMajorD block = Eigen::Map<const RowMajorF>(W.data() + std::size_t(r0) * std::size_t(de + d), n, de + d)
                                    .cast<double>();  // rows r0 .. r0 + n of W, (n, d_e + d)
        (a ? Ae_ : Be_).middleCols(r0, n).noalias() = E * block.leftCols(de).transpose();  // (B, n)
        (a ? Ahs : Bhs).middleCols(r0, n).noalias() = Hs * block.rightCols(d).transpose();  // (2B, n)
    });
    Ah_ = Ahs.topRows(B);
    Ah2_ = Ahs.bottomRows(B);
    Bh_ = Bhs.topRows(B);
    Bh2_ = Bhs.bottomRows(B);
    curve_ = sensitivityCurve(p.curvePoints);
}

std::vector<double> GluFusion::curveAlphas(int points)
{
    std::vector<double> a(std::size_t(std::max(points, 2)));
    for (std::size_t k = 0; k < a.size(); ++k) a[k] = double(k) / double(a.size() - 1);
    return a;
}

std::vector<double> GluFusion::sensitivityCurve(int points) const
{
    const std::vector<double> alphas = curveAlphas(points);
    std::vector<double> curve(alphas.size());
    // One alpha per task once an alpha's elementwise work (2 B d sigmoids) is worth one.
    const int grain = std::max(1, 16384 / std::max(1, int(Ae_.size())));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, alphas.size(), std::size_t(grain)),
                      [&](const tbb::blocked_range<std::size_t> &range) {
                          for (std::size_t k = range.begin(); k < range.end(); ++k) curve[k] = sensitivity(alphas[k]);
                      });
    return curve;
}

bool GluFusion::sameDraws(const GluFusionParams &p) const
{
    return p.dModel == draws_.dModel && p.dEmb == draws_.dEmb && p.batch == draws_.batch && p.seed == draws_.seed
        && p.kernel == draws_.kernel;
}

Eigen::MatrixXd GluFusion::gates(double alpha) const
{
    // gate = sigmoid(u W_b^T) with the h columns scaled: sigmoid(e W_be^T + alpha (h W_bh^T))
    return (Be_ + alpha * Bh_).unaryExpr([](double z) { return sigmoid(z); });
}

double GluFusion::sensitivity(double alpha) const
{
    // x(h) = (e W_ae^T + alpha h W_ah^T) * sigmoid(e W_be^T + alpha h W_bh^T); the same at h'.
    // At alpha = 0 both sides are the same operations on the same numbers: exactly 0.
    const auto x1 = (Ae_.array() + alpha * Ah_.array()) * sigmoidArray(Be_.array() + alpha * Bh_.array());
    const auto x2 = (Ae_.array() + alpha * Ah2_.array()) * sigmoidArray(Be_.array() + alpha * Bh2_.array());
    return (x1 - x2).abs().maxCoeff();
}

GluFusionResult GluFusion::at(const GluFusionParams &p) const
{
    if (std::string err = checkGluFusionParams(p); !err.empty()) throw std::invalid_argument(err);
    GluFusionResult r;
    r.alpha = p.alpha;
    const Eigen::MatrixXd G = gates(p.alpha);
    r.meanGate = G.mean();
    r.gateHistogram.assign(std::size_t(p.bins), 0);
    for (Eigen::Index k = 0; k < G.size(); ++k) {
        const double v = G.data()[k];
        r.gatesOpen += v > 0.5;
        const int bin = std::clamp(int(v * p.bins), 0, p.bins - 1);
        ++r.gateHistogram[std::size_t(bin)];
    }
    r.fractionOpen = double(r.gatesOpen) / double(G.size());
    r.sensitivity = sensitivity(p.alpha);

    r.curveAlpha = curveAlphas(p.curvePoints);
    r.curveSensitivity = p.curvePoints == draws_.curvePoints ? curve_ : sensitivityCurve(p.curvePoints);
    r.overhead = gluFusionOverhead(p);
    return r;
}

GluFusionResult gluFusion(const GluFusionParams &p)
{
    return GluFusion(p).at(p);
}

} // namespace fb
