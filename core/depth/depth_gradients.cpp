#include "core/depth/depth_gradients.h"

#include "core/depth/depth_random.h"
#include "core/depth/ziggurat.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <cmath>

namespace fb {

using Eigen::MatrixXd;
using Eigen::RowVectorXd;
using Eigen::VectorXd;

std::string activationName(Activation a)
{
    return a == Activation::Relu ? "relu" : "tanh";
}

namespace {

constexpr double kNormEps = 1e-12;
constexpr std::uint64_t kBiasStreams = 1ULL << 32;

// What one block keeps from the forward pass for the backward pass.
struct BlockCache {
    MatrixXd u;  // (w, B) the block's normalised input n(x_l) (= x_l without norm)
    VectorXd r;  // (B)    rms of each sample of x_l (norm only)
    MatrixXd z;  // (w, B) pre-activation W u + b
    MatrixXd a;  // (w, B) phi(z)
};

// x is (w, B). Per sample: r = sqrt(mean_i x_i^2 + eps), u = x / r.
void rmsNormForward(const MatrixXd &x, MatrixXd &u, VectorXd &r)
{
    const double w = double(x.rows());
    r = ((x.array().square().colwise().sum() / w) + kNormEps).sqrt().transpose();
    u = x * r.cwiseInverse().asDiagonal();
}

// in the forward pass this was: u = x / r, r = sqrt(mean(x^2) + eps)
// du_i/dx_j = (delta_ij - u_i u_j / w) / r, so dx = (du - u * mean(du . u)) / r
MatrixXd rmsNormBackward(const MatrixXd &du, const MatrixXd &u, const VectorXd &r)
{
    const double w = double(u.rows());
    const RowVectorXd m = (du.array() * u.array()).colwise().sum() / w;
    MatrixXd dx = du - u * m.asDiagonal();
    return dx * r.cwiseInverse().asDiagonal();
}

// phi'(z), from z and a = phi(z): tanh' = 1 - a^2, relu' = [z > 0].
MatrixXd activationDerivative(Activation act, const MatrixXd &z, const MatrixXd &a)
{
    if (act == Activation::Tanh) return (1.0 - a.array().square()).matrix();
    return (z.array() > 0.0).cast<double>().matrix();
}

// One block forward: x (w, B) -> xNext = [x +] phi(W n(x) + b). Returns the RMS singular value of
// dF/dx at x (batch mean in square).
double blockForward(const MatrixXd &W, const VectorXd &b, const MatrixXd &x, bool residual,
                    const DepthStackParams &p, BlockCache &c, MatrixXd &xNext)
{
    if (p.norm) rmsNormForward(x, c.u, c.r);
    else c.u = x;
    c.z.noalias() = W * c.u;
    c.z.colwise() += b;
    if (p.activation == Activation::Tanh) c.a = c.z.array().tanh().matrix();
    else c.a = c.z.cwiseMax(0.0);
    xNext = residual ? MatrixXd(x + c.a) : c.a;

    // ||dF/dx||_F^2 for one sample = sum_i phi'(z_i)^2 ||row i of W dn/dx||^2, where without norm row i
    // of W is all there is, and with norm dn/dx = (I - u u^T / w) / r gives
    // (||W_i||^2 - (W_i . u)^2 / w) / r^2, with W_i . u = z_i - b_i.
    const Eigen::Index w = W.rows(), B = x.cols();
    const MatrixXd d = activationDerivative(p.activation, c.z, c.a);
    const VectorXd rowNorm2 = W.rowwise().squaredNorm();
    double sum = 0.0;
    for (Eigen::Index s = 0; s < B; ++s) {
        double jac2 = 0.0;
        for (Eigen::Index i = 0; i < w; ++i) {
            double row2 = rowNorm2[i];
            if (p.norm) {
                const double wu = c.z(i, s) - b[i];
                row2 = std::max(0.0, row2 - wu * wu / double(w)) / (c.r[s] * c.r[s]);
            }
            jac2 += d(i, s) * d(i, s) * row2;
        }
        sum += jac2 / double(w);
    }
    return std::sqrt(sum / double(B));
}

// One block backward: g holds dL/dx_{l+1} on entry and dL/dx_l on return. dW/db (may be null) get
// the parameter gradients. Returns ||dL/dW|| (0 without weightGrad: dL/dW is not formed at all).
double blockBackward(const MatrixXd &W, const BlockCache &c, bool residual, const DepthStackParams &p,
                     MatrixXd &g, MatrixXd *dWOut, VectorXd *dbOut, bool weightGrad = true)
{
    // in the forward pass this was: a = phi(z)
    const MatrixXd dz = g.cwiseProduct(activationDerivative(p.activation, c.z, c.a));
    // in the forward pass this was: z = W u + b
    // dL/dW = dL/dz u^T,  dL/db = sum over the batch of dL/dz,  dL/du = W^T dL/dz
    double dWNorm = 0.0;
    if (weightGrad || dWOut) {
        MatrixXd dW;
        dW.noalias() = dz * c.u.transpose();
        dWNorm = dW.norm();
        if (dWOut) *dWOut = std::move(dW);
    }
    if (dbOut) *dbOut = dz.rowwise().sum();
    MatrixXd du;
    du.noalias() = W.transpose() * dz;
    MatrixXd dxF = p.norm ? rmsNormBackward(du, c.u, c.r) : std::move(du);
    // in the forward pass this was: x_{l+1} = x_l + F(x_l) (residual) or F(x_l) (plain).
    // The identity path adds dL/dx_{l+1} itself: dL/dx_l = dL/dx_{l+1} (I + dF/dx).
    if (residual) g += dxF;
    else g = std::move(dxF);
    return dWNorm;
}

MatrixXd drawInput(const DepthStackParams &p)
{
    Rng rng(streamSeed(p.seed, 0));
    MatrixXd x(p.width, p.batch);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = Ziggurat::normal(rng);
    return x;
}

double rms(const MatrixXd &x)
{
    return std::sqrt(x.squaredNorm() / double(x.size()));
}

} // namespace

void drawDepthLayer(const DepthStackParams &p, int l, MatrixXd &W, VectorXd &b)
{
    const int w = p.width;
    const double sd = p.initScale / std::sqrt(double(w));
    W.resize(w, w);
    const std::uint64_t layerSeed = streamSeed(p.seed, std::uint64_t(l) + 1);
    // Column j from stream (l, j): any thread may draw any column and the numbers stay the same.
    tbb::parallel_for(tbb::blocked_range<int>(0, w, 16), [&](const tbb::blocked_range<int> &cols) {
        for (int j = cols.begin(); j < cols.end(); ++j) {
            Rng rng(streamSeed(layerSeed, std::uint64_t(j)));
            double *col = W.col(j).data();
            for (int i = 0; i < w; ++i) col[i] = sd * Ziggurat::normal(rng);
        }
    });
    b = VectorXd::Zero(w);
    if (p.biasScale > 0.0) {
        Rng rng(streamSeed(p.seed, kBiasStreams + std::uint64_t(l)));
        for (int i = 0; i < w; ++i) b[i] = p.biasScale * Ziggurat::normal(rng);
    }
}

DepthStack makeDepthStack(const DepthStackParams &p)
{
    DepthStack s;
    s.W.resize(std::size_t(p.depth));
    s.b.resize(std::size_t(p.depth));
    s.x0 = drawInput(p);
    for (int l = 0; l < p.depth; ++l) drawDepthLayer(p, l, s.W[std::size_t(l)], s.b[std::size_t(l)]);
    return s;
}

DepthStackPass depthStackPass(const DepthStack &s, const DepthStackParams &p, bool residual,
                              DepthStackGrads *grads)
{
    const std::size_t L = s.W.size();
    DepthStackPass out;
    std::vector<MatrixXd> x(L + 1);
    std::vector<BlockCache> cache(L);
    out.activationRms.resize(L + 1);
    out.jacobianRms.resize(L);
    x[0] = s.x0;
    for (std::size_t l = 0; l < L; ++l) {
        out.jacobianRms[l] = blockForward(s.W[l], s.b[l], x[l], residual, p, cache[l], x[l + 1]);
        out.activationRms[l] = rms(x[l]);
    }
    out.activationRms[L] = rms(x[L]);
    out.loss = x[L].sum();

    // The loss is the sum of x_L, so dL/dx_L is 1 everywhere.
    if (grads) {
        grads->dW.assign(L, MatrixXd());
        grads->db.assign(L, VectorXd());
    }
    out.gradNorm.assign(L + 1, 0.0);
    out.weightGradNorm.assign(L, 0.0);
    MatrixXd g = MatrixXd::Ones(s.x0.rows(), s.x0.cols());
    out.gradNorm[L] = g.norm();
    for (std::size_t l = L; l-- > 0;) {
        out.weightGradNorm[l] = blockBackward(s.W[l], cache[l], residual, p, g, grads ? &grads->dW[l] : nullptr,
                                              grads ? &grads->db[l] : nullptr);
        out.gradNorm[l] = g.norm();
    }
    if (grads) grads->dx0 = g;
    return out;
}

struct DepthGradientsCache::State {
    DepthStackParams key;                 // every parameter but the depth
    int held = 0;                         // layers whose forward pass is below
    std::vector<MatrixXd> x[2];           // x_l of the plain (0) and residual (1) stack, l = 0..held
    std::vector<BlockCache> cache[2];     // what layer l keeps for the backward pass, l < held
    std::vector<double> activationRms[2]; // rms(x_l), l < held
    std::vector<double> jacobianRms[2];   // l < held
    std::vector<MatrixXd> W;              // W_l of the first layers, as many as the budget holds
};

DepthGradientsCache::DepthGradientsCache(std::size_t weightBudgetBytes)
    : weightBudget_(weightBudgetBytes)
{
}

DepthGradientsCache::~DepthGradientsCache() = default;

int DepthGradientsCache::layersHeld() const
{
    return state_ ? state_->held : 0;
}

namespace {

bool sameStack(const DepthStackParams &a, const DepthStackParams &b)
{
    return a.width == b.width && a.batch == b.batch && a.activation == b.activation && a.norm == b.norm
        && a.initScale == b.initScale && a.biasScale == b.biasScale && a.seed == b.seed;
}

} // namespace

DepthGradients DepthGradientsCache::compute(const DepthStackParams &p, bool weightGrads, const RunControl *stop)
{
    const std::size_t L = std::size_t(p.depth);
    if (!state_ || !sameStack(state_->key, p)) {
        state_ = std::make_unique<State>();
        state_->key = p;
        for (auto &x : state_->x) x.push_back(drawInput(p));
    }
    State &s = *state_;

    // Forward, both stacks on the same W_l (k = 0 plain, k = 1 residual), for the layers not held yet.
    const std::size_t layerBytes = sizeof(double) * std::size_t(p.width) * std::size_t(p.width);
    MatrixXd W;
    VectorXd b;
    for (std::size_t l = std::size_t(s.held); l < L; ++l) {
        if (stopRequested(stop)) return {};
        drawDepthLayer(p, int(l), W, b);
        for (int k = 0; k < 2; ++k) {
            s.x[k].emplace_back();
            s.cache[k].emplace_back();
        }
        double rmsIn[2], jac[2];
        auto forward = [&](int k) {
            rmsIn[k] = rms(s.x[k][l]);
            jac[k] = blockForward(W, b, s.x[k][l], k == 1, p, s.cache[k][l], s.x[k][l + 1]);
        };
        tbb::parallel_invoke([&] { forward(0); }, [&] { forward(1); });
        for (int k = 0; k < 2; ++k) {
            s.activationRms[k].push_back(rmsIn[k]);
            s.jacobianRms[k].push_back(jac[k]);
        }
        if (s.W.size() == l && (l + 1) * layerBytes <= weightBudget_) s.W.push_back(W);
        s.held = int(l + 1);
    }

    DepthGradients r;
    DepthStackPass *passes[2] = { &r.plain, &r.residual };
    for (int k = 0; k < 2; ++k) {
        DepthStackPass &pass = *passes[k];
        pass.activationRms.assign(s.activationRms[k].begin(), s.activationRms[k].begin() + std::ptrdiff_t(L));
        pass.activationRms.push_back(rms(s.x[k][L]));
        pass.jacobianRms.assign(s.jacobianRms[k].begin(), s.jacobianRms[k].begin() + std::ptrdiff_t(L));
        pass.loss = s.x[k][L].sum();
        pass.gradNorm.assign(L + 1, 0.0);
        pass.weightGradNorm.assign(L, 0.0);
    }
    // Backward from dL/dx_L = 1, with the kept weights or each W_l drawn again.
    MatrixXd g[2];
    g[0] = g[1] = MatrixXd::Ones(p.width, p.batch);
    for (int k = 0; k < 2; ++k) passes[k]->gradNorm[L] = g[k].norm();
    for (std::size_t l = L; l-- > 0;) {
        if (stopRequested(stop)) return {};
        const bool kept = l < s.W.size();
        if (!kept) drawDepthLayer(p, int(l), W, b);
        const MatrixXd &Wl = kept ? s.W[l] : W;
        auto backward = [&](int k) {
            passes[k]->weightGradNorm[l] = blockBackward(Wl, s.cache[k][l], k == 1, p, g[k], nullptr, nullptr, weightGrads);
            passes[k]->gradNorm[l] = g[k].norm();
        };
        tbb::parallel_invoke([&] { backward(0); }, [&] { backward(1); });
    }

    const double depth = double(p.depth);
    auto ratio = [](const DepthStackPass &pass) {
        return pass.gradNorm.back() > 0.0 ? pass.gradNorm.front() / pass.gradNorm.back() : 0.0;
    };
    r.plainRatio = ratio(r.plain);
    r.residualRatio = ratio(r.residual);
    r.plainFactorMeasured = std::pow(r.plainRatio, 1.0 / depth);
    r.residualFactorMeasured = std::pow(r.residualRatio, 1.0 / depth);
    // Geometric means over the blocks of the predicted per-block factors.
    double logPlain = 0.0, logResidual = 0.0, logJac = 0.0;
    for (double j : r.plain.jacobianRms) logPlain += std::log(j);
    for (double j : r.residual.jacobianRms) {
        logResidual += 0.5 * std::log1p(j * j);
        logJac += std::log(j);
    }
    r.plainFactorPredicted = std::exp(logPlain / depth);
    r.residualFactorPredicted = std::exp(logResidual / depth);
    r.residualJacobianRms = std::exp(logJac / depth);
    return r;
}

DepthGradients depthGradients(const DepthStackParams &p)
{
    // One pass with nothing kept beyond the call: every W_l is drawn for the forward pass and again
    // on the way back (200 x 512^2 weights would be 420 MB).
    DepthGradientsCache once(0);
    return once.compute(p);
}

} // namespace fb
