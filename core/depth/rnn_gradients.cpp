#include "core/depth/rnn_gradients.h"

#include "core/depth/depth_random.h"
#include "core/depth/ziggurat.h"

#include <Eigen/QR>

#include <cmath>

namespace fb {

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {
MatrixXd normalMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd)
{
    MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = sd * Ziggurat::normal(rng);
    return m;
}
} // namespace

MatrixXd randomOrthogonal(int n, std::uint64_t seed)
{
    Rng rng(seed);
    const MatrixXd g = normalMatrix(rng, n, n, 1.0);
    Eigen::HouseholderQR<MatrixXd> qr(g);
    MatrixXd q = qr.householderQ();
    // Mezzadri (2007): multiply column j by sign(R_jj) so that Q is Haar-distributed.
    const MatrixXd &r = qr.matrixQR();
    for (int j = 0; j < n; ++j)
        if (r(j, j) < 0.0) q.col(j) = -q.col(j);
    return q;
}

RnnWeights makeRnn(const RnnParams &p)
{
    RnnWeights w;
    w.Wh = p.radius * randomOrthogonal(p.hidden, streamSeed(p.seed, 1));
    Rng rng(streamSeed(p.seed, 2));
    w.Wx = normalMatrix(rng, p.hidden, p.input, p.inputScale / std::sqrt(double(p.input)));
    w.b = VectorXd::Zero(p.hidden);
    return w;
}

std::vector<MatrixXd> randomSequence(int input, int seqLen, int batch, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<MatrixXd> x(static_cast<std::size_t>(seqLen));
    for (auto &xt : x) xt = normalMatrix(rng, input, batch, 1.0);
    return x;
}

RnnPass rnnPass(const RnnWeights &w, const std::vector<MatrixXd> &x, const MatrixXd &h0, const MatrixXd &R,
                RnnGrads *grads)
{
    const std::size_t T = x.size();
    const Eigen::Index d = w.Wh.rows(), B = h0.cols();
    RnnPass out;
    // h[t] is (d, B), t = 0..T; a_t is never kept: tanh'(a_t) = 1 - h_t^2.
    std::vector<MatrixXd> h(T + 1);
    h[0] = h0;
    double derivSum = 0.0;
    out.derivRms.resize(T);
    for (std::size_t t = 1; t <= T; ++t) {
        MatrixXd a;
        a.noalias() = w.Wh * h[t - 1];
        a.noalias() += w.Wx * x[t - 1];
        a.colwise() += w.b;
        h[t] = a.array().tanh().matrix();
        const Eigen::ArrayXXd deriv = 1.0 - h[t].array().square();
        out.derivRms[t - 1] = std::sqrt(deriv.square().mean());
        derivSum += deriv.sum();
    }
    out.meanDeriv = T > 0 ? derivSum / double(T * std::size_t(d * B)) : 0.0;

    const MatrixXd dhT = R.size() ? R : MatrixXd::Ones(d, B);
    out.loss = (dhT.array() * h[T].array()).sum();
    if (grads) {
        grads->dWh = MatrixXd::Zero(d, d);
        grads->dWx = MatrixXd::Zero(d, w.Wx.cols());
        grads->db = VectorXd::Zero(d);
    }
    out.gradNorm.assign(T + 1, 0.0);
    MatrixXd dh = dhT;  // dL/dh_t, walking back
    out.gradNorm[T] = dh.norm();
    for (std::size_t t = T; t >= 1; --t) {
        // in the forward pass this was: h_t = tanh(a_t), so da = dh . (1 - h_t^2)
        const MatrixXd da = dh.cwiseProduct((1.0 - h[t].array().square()).matrix());
        // in the forward pass this was: a_t = W_h h_{t-1} + W_x x_t + b
        if (grads) {
            grads->dWh.noalias() += da * h[t - 1].transpose();
            grads->dWx.noalias() += da * x[t - 1].transpose();
            grads->db += da.rowwise().sum();
        }
        dh.noalias() = w.Wh.transpose() * da;
        out.gradNorm[t - 1] = dh.norm();
    }
    if (grads) grads->dh0 = dh;
    return out;
}

double logSlope(const std::vector<double> &norms)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < norms.size(); ++k) {
        const double v = norms[k];
        if (!(v > 0.0) || !std::isfinite(v)) continue;
        const double xk = double(k), yk = std::log(v);
        n += 1;
        sx += xk;
        sy += yk;
        sxx += xk * xk;
        sxy += xk * yk;
    }
    const double den = n * sxx - sx * sx;
    if (n < 2 || den == 0.0) return 0.0;
    return (n * sxy - sx * sy) / den;
}

} // namespace fb
