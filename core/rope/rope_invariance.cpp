#include "core/rope/rope_invariance.h"

#include "core/torch/torch_generator.h"

#include "core/attention/positional.h"
#include "core/numeric/rng.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

// Positions per chunk. A chunk takes the rotation of its first position from cos/sin of the exact
// angle and those of the others as that phasor times exp(i k theta) (k < kChunk, tabulated once per
// task): every rotation is then within a few ulps of exact, with no drift along the sequence.
constexpr int kChunk = 64;
// Chunks per parallel task at the least: the default sweep (256 positions) stays on one thread.
constexpr long long kGrainChunks = 16;

using Array = Eigen::ArrayXd;

// exp(i pos theta_i) for every pair, as separate real and imaginary arrays (d/2 each).
struct Phasor {
    Array re, im;
    Phasor(double pos, const Eigen::VectorXd &theta) : re(theta.size()), im(theta.size())
    {
        for (Eigen::Index i = 0; i < theta.size(); ++i) ropeCosSin(pos, theta[i], re[i], im[i]);
    }
};

// Within-chunk table exp(i k theta_i): (d/2, kChunk) for cos and sin, column k contiguous.
struct ChunkTable {
    Eigen::ArrayXXd re, im;
    explicit ChunkTable(const Eigen::VectorXd &theta) : re(theta.size(), kChunk), im(theta.size(), kChunk)
    {
        for (int k = 0; k < kChunk; ++k)
            for (Eigen::Index i = 0; i < theta.size(); ++i) ropeCosSin(double(k), theta[i], re(i, k), im(i, k));
    }
};

// cos and sin (d/2 each) of the angles at base + k, from the base phasor and column k of the table.
void rotationAt(const Phasor &base, const ChunkTable &table, int k, Array &c, Array &s)
{
    c = base.re * table.re.col(k) - base.im * table.im.col(k);
    s = base.re * table.im.col(k) + base.im * table.re.col(k);
}

} // namespace

RopeInvarianceResult ropeInvariance(const RopeInvarianceParams &p)
{
    RopeInvarianceResult out;
    const int d = p.d - p.d % 2;  // pairs (2i, 2i+1) need an even width
    const int P = std::max(p.positions, 0);
    if (d <= 0) {
        out.ropeLogits.assign(P, 0.0);
        out.sinusoidalLogits.assign(P, 0.0);
        return out;
    }

    // One fixed content pair, q then k, each ~ N(0, I_d), drawn exactly as the chapter's cell does:
    // torch.manual_seed(seed); q = torch.randn(d, float64); k = torch.randn(d, float64). With the
    // chapter's seed 0 this reproduces its printed logits to the last digit.
    TorchGenerator torch(p.seed);
    const std::vector<double> qv = torch.randn(d), kv = torch.randn(d);
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(qv.data(), d);
    const Eigen::VectorXd k = Eigen::Map<const Eigen::VectorXd>(kv.data(), d);

    const Eigen::VectorXd thetaR = scaledFrequencies(d, p.base, p.extension).invFreq;  // RoPE (d/2)
    const Eigen::VectorXd thetaS = ropeInvFreq(d, p.base);  // sinusoidal keeps the plain ladder
    const bool sameLadder = thetaR == thetaS;
    const Eigen::Index h = thetaR.size();

    // Reference: RoPE logit at (0, offset), rotated the plain way.
    out.referenceLogit = applyRope(q, 0.0, thetaR).dot(applyRope(k, double(p.offset), thetaR));

    out.ropeLogits.assign(P, 0.0);
    out.sinusoidalLogits.assign(P, 0.0);
    const long long chunks = (P + kChunk - 1) / kChunk;
    // Even and odd coordinates of q and k (d/2 each): pair i is (x[2i], x[2i+1]).
    const Eigen::Map<const Array, 0, Eigen::InnerStride<2>> qe(q.data(), h), qo(q.data() + 1, h);
    const Eigen::Map<const Array, 0, Eigen::InnerStride<2>> ke(k.data(), h), ko(k.data() + 1, h);
    const Array qE = qe, qO = qo, kE = ke, kO = ko;

    tbb::parallel_for(tbb::blocked_range<long long>(0, chunks, kGrainChunks), [&](const tbb::blocked_range<long long> &r) {
        const ChunkTable tabR(thetaR);
        const ChunkTable tabS(sameLadder ? Eigen::VectorXd() : thetaS);
        const ChunkTable &tS = sameLadder ? tabR : tabS;
        Array cm(h), sm(h), cn(h), sn(h);  // rotation of the query at m and of the key at n = m + offset
        for (long long c = r.begin(); c < r.end(); ++c) {
            const double m0 = double(c * kChunk);
            const Phasor qR(m0, thetaR), kR(m0 + p.offset, thetaR);  // chunk's first query and key
            const Phasor qS = sameLadder ? qR : Phasor(m0, thetaS);
            const Phasor kS = sameLadder ? kR : Phasor(m0 + p.offset, thetaS);
            const int count = int(std::min<long long>(kChunk, P - c * kChunk));
            for (int j = 0; j < count; ++j) {
                // (R_m q) . (R_n k), pair by pair: even' = e cos - o sin, odd' = e sin + o cos.
                rotationAt(qR, tabR, j, cm, sm);
                rotationAt(kR, tabR, j, cn, sn);
                const double rope = ((qE * cm - qO * sm) * (kE * cn - kO * sn)
                                     + (qE * sm + qO * cm) * (kE * sn + kO * cn)).sum();
                // (q + PE(m)) . (k + PE(n)) with PE(., 2i) = sin and PE(., 2i+1) = cos; the same
                // cos and sin as RoPE's unless RoPE's frequencies were rescaled.
                if (!sameLadder) {
                    rotationAt(qS, tS, j, cm, sm);
                    rotationAt(kS, tS, j, cn, sn);
                }
                const double sinus = ((qE + sm) * (kE + sn) + (qO + cm) * (kO + cn)).sum();
                out.ropeLogits[c * kChunk + j] = rope;
                out.sinusoidalLogits[c * kChunk + j] = sinus;
            }
        }
    });

    // The chapter collects the logits with torch.tensor(list), a float32 tensor, so its printed
    // deviation is measured after rounding both sides to float32.
    const float referenceF = static_cast<float>(out.referenceLogit);
    for (int m = 0; m < P; ++m) {
        out.maxDeviation = std::max(out.maxDeviation, std::fabs(out.ropeLogits[m] - out.referenceLogit));
        out.maxDeviationFloat32 = std::max(out.maxDeviationFloat32,
                                           double(std::fabs(static_cast<float>(out.ropeLogits[m]) - referenceF)));
    }
    if (P > 0) {
        const auto [lo, hi] = std::minmax_element(out.sinusoidalLogits.begin(), out.sinusoidalLogits.end());
        out.sinusoidalMin = *lo;
        out.sinusoidalMax = *hi;
    }
    return out;
}

} // namespace fb
