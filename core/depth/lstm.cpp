#include "core/depth/lstm.h"

#include "core/depth/ziggurat.h"

#include <cmath>

namespace fb {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {
MatrixXd sigmoid(const MatrixXd &z)
{
    return (1.0 / (1.0 + (-z.array()).exp())).matrix();
}
} // namespace

LstmWeights makeStudyLstm(int hidden, int input, double scale, double forgetBias, std::uint64_t seed)
{
    LstmWeights w;
    Rng rng(seed);
    const double sd = scale / std::sqrt(double(hidden + input));
    w.W.resize(4 * hidden, hidden + input);
    for (Eigen::Index i = 0; i < w.W.size(); ++i) w.W.data()[i] = sd * Ziggurat::normal(rng);
    w.b = VectorXd::Zero(4 * hidden);
    w.b.head(hidden).setConstant(forgetBias);
    return w;
}

void lstmForward(const LstmWeights &w, const std::vector<MatrixXd> &x, const MatrixXd &h0, const MatrixXd &c0,
                 LstmCache &cache)
{
    const std::size_t T = x.size();
    const int H = w.hidden(), D = w.input();
    cache.h.assign(T + 1, MatrixXd());
    cache.c.assign(T + 1, MatrixXd());
    cache.gates.assign(T, MatrixXd());
    cache.tanhC.assign(T, MatrixXd());
    cache.h[0] = h0;
    cache.c[0] = c0;
    for (std::size_t t = 1; t <= T; ++t) {
        // pre = W [h_{t-1}; x_t] + b, (4H, B)
        MatrixXd pre;
        pre.noalias() = w.W.leftCols(H) * cache.h[t - 1];
        pre.noalias() += w.W.rightCols(D) * x[t - 1];
        pre.colwise() += w.b;
        MatrixXd &gate = cache.gates[t - 1];
        gate.resize(pre.rows(), pre.cols());
        gate.topRows(2 * H) = sigmoid(pre.topRows(2 * H));           // f, i
        gate.middleRows(2 * H, H) = pre.middleRows(2 * H, H).array().tanh().matrix();  // g
        gate.bottomRows(H) = sigmoid(pre.bottomRows(H));             // o
        const auto f = gate.topRows(H).array();
        const auto i = gate.middleRows(H, H).array();
        const auto g = gate.middleRows(2 * H, H).array();
        const auto o = gate.bottomRows(H).array();
        cache.c[t] = (f * cache.c[t - 1].array() + i * g).matrix();
        cache.tanhC[t - 1] = cache.c[t].array().tanh().matrix();
        cache.h[t] = (o * cache.tanhC[t - 1].array()).matrix();
    }
}

void lstmZeroGrads(const LstmWeights &w, LstmGrads &g)
{
    g.dW = MatrixXd::Zero(w.W.rows(), w.W.cols());
    g.db = VectorXd::Zero(w.b.size());
}

void lstmBackward(const LstmWeights &w, const LstmCache &cache, const std::vector<MatrixXd> &x, const MatrixXd &dhT,
                  LstmGrads &g, bool wantDx, LstmStepNorms *norms)
{
    const std::size_t T = x.size();
    const int H = w.hidden(), D = w.input();
    if (g.dW.size() == 0) lstmZeroGrads(w, g);
    if (wantDx) g.dx.assign(T, MatrixXd());
    if (norms) {
        norms->cell.assign(T + 1, 0.0);
        norms->hidden.assign(T + 1, 0.0);
    }
    MatrixXd dh = dhT;                                          // dL/dh_t
    MatrixXd dcCarry = MatrixXd::Zero(dhT.rows(), dhT.cols());  // dL/dc_t through c_{t+1}
    MatrixXd dpre(4 * H, dhT.cols());
    for (std::size_t t = T; t >= 1; --t) {
        const MatrixXd &gate = cache.gates[t - 1];
        const auto f = gate.topRows(H).array();
        const auto i = gate.middleRows(H, H).array();
        const auto gg = gate.middleRows(2 * H, H).array();
        const auto o = gate.bottomRows(H).array();
        const auto tc = cache.tanhC[t - 1].array();
        // in the forward pass this was: h_t = o_t . tanh(c_t)
        const MatrixXd dc = (dcCarry.array() + dh.array() * o * (1.0 - tc.square())).matrix();
        if (norms) {
            norms->cell[t] = dc.norm();
            norms->hidden[t] = dh.norm();
        }
        const auto dO = dh.array() * tc;
        // in the forward pass this was: c_t = f_t . c_{t-1} + i_t . g_t
        const auto dF = dc.array() * cache.c[t - 1].array();
        const auto dI = dc.array() * gg;
        const auto dG = dc.array() * i;
        // through the nonlinearities: sigma' = s (1 - s), tanh' = 1 - g^2
        dpre.topRows(H) = (dF * f * (1.0 - f)).matrix();
        dpre.middleRows(H, H) = (dI * i * (1.0 - i)).matrix();
        dpre.middleRows(2 * H, H) = (dG * (1.0 - gg.square())).matrix();
        dpre.bottomRows(H) = (dO * o * (1.0 - o)).matrix();
        // in the forward pass this was: pre = W [h_{t-1}; x_t] + b
        g.dW.leftCols(H).noalias() += dpre * cache.h[t - 1].transpose();
        g.dW.rightCols(D).noalias() += dpre * x[t - 1].transpose();
        g.db += dpre.rowwise().sum();
        if (wantDx) g.dx[t - 1].noalias() = w.W.rightCols(D).transpose() * dpre;
        dh.noalias() = w.W.leftCols(H).transpose() * dpre;
        dcCarry = (dc.array() * f).matrix();
    }
    // h_0 and c_0 are separate inputs: dL/dc_0 is only what crosses the forget gate of step 1.
    g.dh0 = dh;
    g.dc0 = dcCarry;
    if (norms) {
        norms->cell[0] = dcCarry.norm();
        norms->hidden[0] = dh.norm();
    }
}

LstmStudy lstmGradientNorms(const LstmWeights &w, const std::vector<MatrixXd> &x)
{
    const Eigen::Index B = x.empty() ? 1 : x.front().cols();
    const int H = w.hidden();
    LstmCache cache;
    lstmForward(w, x, MatrixXd::Zero(H, B), MatrixXd::Zero(H, B), cache);
    LstmGrads g;
    LstmStepNorms norms;
    lstmBackward(w, cache, x, MatrixXd::Ones(H, B), g, false, &norms);
    LstmStudy s;
    s.cellGradNorm = std::move(norms.cell);
    s.hiddenGradNorm = std::move(norms.hidden);
    const std::size_t T = x.size();
    s.carouselGradNorm.assign(T + 1, 0.0);
    if (T > 0) {
        // dL/dc_T = dL/dh_T . o_T . (1 - tanh^2 c_T), then only the direct path c_{t-1} -> c_t.
        const auto oT = cache.gates[T - 1].bottomRows(H).array();
        MatrixXd v = (oT * (1.0 - cache.tanhC[T - 1].array().square())).matrix();
        s.carouselGradNorm[T] = v.norm();
        for (std::size_t t = T; t >= 1; --t) {
            v = v.cwiseProduct(cache.gates[t - 1].topRows(H));
            s.carouselGradNorm[t - 1] = v.norm();
        }
    }
    double sum = 0.0;
    for (const MatrixXd &gate : cache.gates) sum += gate.topRows(H).sum();
    s.meanForget = x.empty() ? 0.0 : sum / double(x.size() * std::size_t(H * B));
    return s;
}

} // namespace fb
