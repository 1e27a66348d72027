// Does the chunked form of the linear mixers pay on this core? The training form the papers use on
// GPUs (parallel within a chunk of C positions, recurrent across chunks: Yang et al. 2024's WY form
// for the delta rule) against FullBand's recurrent kernels (core/transformer/linear_mixer.h), one
// head, one thread, float, the forward pass over a whole sequence.
//
//   bench_chunked_mixer [--length T] [--repeats N]
//
// For linear attention (elu + 1 features, normalised) a chunk is
//   A = triu(phi(K)' phi(Q)),  Y = (S phi(Q) + V A) / (z' phi(Q) + 1' A),  S += V phi(K)',  z += phi(K) 1;
// for DeltaNet (keys L2-normalised, step sizes beta) the chunk's updates U solve
//   U (I + L) = (V - S K) diag(beta),  L(j, i) = beta_i k_j' k_i for j < i  (a unit triangular solve),
//   Y = S Q + U triu(K' Q),  S += U K'.
// Both are checked against the recurrent kernel's outputs before they are timed (relative error
// printed; the run stops if it exceeds 1e-3). The recurrent kernel also writes every position's
// state, which its backward pass reads; the chunked form keeps one state per chunk and would
// recompute the rest in its backward. The table prints ns per token and the ratio chunked / recurrent
// (below 1: the chunked form is faster).
#include "core/transformer/linear_mixer.h"
#include "support/mixer_head_inputs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace fb;
using nn::Mat;

namespace {

using MatF = Eigen::MatrixXf;
using VecF = Eigen::VectorXf;

MatF phi(const MatF &x)
{
    return (x.array() > 0.0f).select(x.array() + 1.0f, x.array().exp()).matrix();
}

// Linear attention, chunked: y (dh, T).
void chunkedLinear(MatF &y, const MatF &q, const MatF &k, const MatF &v, Eigen::Index C)
{
    const Eigen::Index dh = q.rows(), T = q.cols();
    MatF S = MatF::Zero(dh, dh), A(C, C), num(dh, C);
    VecF z = VecF::Zero(dh);
    for (Eigen::Index s = 0; s < T; s += C) {
        const Eigen::Index n = std::min(C, T - s);
        const MatF fq = phi(q.middleCols(s, n)), fk = phi(k.middleCols(s, n));
        auto a = A.topLeftCorner(n, n);
        a.noalias() = fk.transpose() * fq;
        a.triangularView<Eigen::StrictlyLower>().setZero();  // a(j, t): key j of the chunk read at t >= j
        auto nm = num.leftCols(n);
        nm.noalias() = S * fq;
        nm.noalias() += v.middleCols(s, n) * a;
        const Eigen::RowVectorXf den = z.transpose() * fq + a.colwise().sum();
        y.middleCols(s, n) = nm.array().rowwise() / den.array();
        S.noalias() += v.middleCols(s, n) * fk.transpose();
        z += fk.rowwise().sum();
    }
}

// DeltaNet, chunked (WY form): y (dh, T); kh holds the L2-normalised keys.
void chunkedDelta(MatF &y, const MatF &q, const MatF &kh, const MatF &v, const VecF &beta, Eigen::Index C)
{
    const Eigen::Index dh = q.rows(), T = q.cols();
    MatF S = MatF::Zero(dh, dh), G(C, C), U(dh, C), A(C, C);
    for (Eigen::Index s = 0; s < T; s += C) {
        const Eigen::Index n = std::min(C, T - s);
        const auto K = kh.middleCols(s, n);
        const auto Q = q.middleCols(s, n);
        auto g = G.topLeftCorner(n, n);
        g.noalias() = K.transpose() * K;
        g = g * beta.segment(s, n).asDiagonal();  // g(j, i) = beta_i k_j' k_i
        auto u = U.leftCols(n);
        u = v.middleCols(s, n);
        u.noalias() -= S * K;
        u = u * beta.segment(s, n).asDiagonal();
        g.triangularView<Eigen::UnitUpper>().solveInPlace<Eigen::OnTheRight>(u);  // u (I + L) = (V - S K) diag(beta)
        auto a = A.topLeftCorner(n, n);
        a.noalias() = K.transpose() * Q;
        a.triangularView<Eigen::StrictlyLower>().setZero();
        auto out = y.middleCols(s, n);
        out.noalias() = S * Q;
        out.noalias() += u * a;
        S.noalias() += u * K.transpose();
    }
}

struct Recurrent {
    Eigen::Index dh, T;
    std::vector<float> states, zden, beta;
    nn::MixerHead<float> head;
    Recurrent(Mixer kind, Eigen::Index dh_, Eigen::Index T_, const VecF &b)
        : dh(dh_), T(T_), states(std::size_t(dh_ * dh_ * T_)), zden(std::size_t((dh_ + 1) * T_)),
          beta(b.data(), b.data() + b.size())
    {
        head.kind = kind;
        head.dh = dh;
        head.states = states.data();
        head.zden = zden.data();
        head.beta = beta.data();
        head.gateStride = 1;
    }
    void run(MatF &y, const MatF &q, const MatF &k, const MatF &v)
    {
        nn::linear_mixer_forward<float>(head, y, q, k, v, 0, nullptr, 0);
    }
};

template <typename F>
double bestNsPerToken(F &&f, Eigen::Index T, int repeats)
{
    double best = 1e300;
    for (int r = 0; r <= repeats; ++r) {  // the first is a warm-up
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        if (r > 0) best = std::min(best, ns / double(T));
    }
    return best;
}

double relativeError(const MatF &a, const MatF &b)
{
    return (a - b).norm() / std::max(1e-30f, b.norm());
}

} // namespace

int main(int argc, char **argv)
{
    Eigen::Index T = 1024;
    int repeats = 20;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--length") && i + 1 < argc) T = std::clamp(std::atol(argv[++i]), 64L, 16384L);
        else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::clamp(std::atoi(argv[++i]), 1, 1000);
        else {
            std::fprintf(stderr, "usage: bench_chunked_mixer [--length T (64..16384)] [--repeats N (1..1000)]\n");
            return 2;
        }
    }
    std::printf("One head, one thread, float, forward over T = %ld positions; ns per token (best of %d)\n",
                long(T), repeats);
    std::printf("%-10s %4s %10s %8s %10s %8s %10s %8s %10s %8s\n", "mixer", "d_h", "recurrent", "", "C=16",
                "ratio", "C=32", "ratio", "C=64", "ratio");
    for (const Mixer kind : { Mixer::Linear, Mixer::DeltaNet }) {
        for (const Eigen::Index dh : { 16, 32, 64 }) {
            const test::HeadInputs in(dh, T, 7);  // the mixer tests' inputs, in float
            const MatF q = in.q.cast<float>(), k = in.k.cast<float>(), v = in.v.cast<float>();
            const VecF beta = in.beta.cast<float>();
            MatF yr(dh, T), yc(dh, T);
            MatF kh = k;
            for (Eigen::Index t = 0; t < T; ++t) kh.col(t) /= std::sqrt(k.col(t).squaredNorm() + 1e-6f);
            Recurrent rec(kind, dh, T, beta);
            rec.run(yr, q, k, v);
            const double recNs = bestNsPerToken([&] { rec.run(yr, q, k, v); }, T, repeats);
            std::printf("%-10s %4ld %10.1f %8s", kind == Mixer::Linear ? "linear" : "deltanet", long(dh), recNs, "");
            for (const Eigen::Index C : { 16, 32, 64 }) {
                auto chunked = [&] {
                    if (kind == Mixer::Linear) chunkedLinear(yc, q, k, v, C);
                    else chunkedDelta(yc, q, kh, v, beta, C);
                };
                chunked();
                const double err = relativeError(yc, yr);
                if (!(err < 1e-3)) {
                    std::fprintf(stderr, "chunked form differs from the recurrent kernel: relative error %.3g at "
                                         "d_h %ld, C %ld\n", err, long(dh), long(C));
                    return 1;
                }
                const double ns = bestNsPerToken(chunked, T, repeats);
                std::printf(" %10.1f %8.2f", ns, ns / recNs);
            }
            std::printf("\n");
        }
    }
    return 0;
}
