#include "core/rope/decay_bound.h"

#include "core/attention/positional.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

// Distances handled together: one Eigen fixed-size array of this many doubles per quantity (two AVX2
// registers). Measured: 8 beats 4 (latency of the running sum) and 16 or 32 (register pressure);
// the loop is bound by the square root's throughput.
constexpr int kBlock = 8;
// Blocks between exact re-seeds of the block phasor (cos/sin of the exact angle). In between, the
// phasor advances by one complex multiplication per block, whose rounding (~1e-16 each) grows at
// most linearly: 64 steps keep the drift near 1e-14, far below the 1e-9 the tests ask for.
constexpr int kReseedBlocks = 64;
// Parallel grain in (distance x pair) terms: below this much work a task stays on one thread
// (about 0.1 ms of work; the chapter's d = 64 and 512 distances is a tenth of it).
constexpr long long kGrainWork = 1 << 17;

using Block = Eigen::Array<double, kBlock, 1>;
using BlockTable = Eigen::Array<double, kBlock, Eigen::Dynamic>;  // (kBlock, d/2)

// Bound for the distances t0 + k, k < kBlock, from the block phasor base_i = exp(i t0 theta_i)
// and the table exp(i k theta_i) (Kre + i Kim): S_j = sum_{i <= j} base_i K_i, bound = mean_j |S_j|.
Block blockBound(const Eigen::VectorXd &baseRe, const Eigen::VectorXd &baseIm, const BlockTable &Kre,
                 const BlockTable &Kim)
{
    const Eigen::Index h = baseRe.size();
    Block sRe = Block::Zero(), sIm = Block::Zero(), acc = Block::Zero();
    for (Eigen::Index i = 0; i < h; ++i) {
        // exp(i (t0 + k) theta_i) = base_i * exp(i k theta_i), one complex product per lane.
        sRe += baseRe[i] * Kre.col(i) - baseIm[i] * Kim.col(i);
        sIm += baseRe[i] * Kim.col(i) + baseIm[i] * Kre.col(i);
        acc += (sRe.square() + sIm.square()).sqrt();  // |S_j(t)|, the cumsum's modulus
    }
    return acc / double(h);
}

} // namespace

// The fast path. Work is (distances x d/2) complex terms: vectorised across kBlock distances, the
// pairs walked in order (the running sum is the chapter's torch.cumsum), tasks over blocks of
// distances in parallel. Cost per term: one complex multiply-add and one square root.
DecayBoundResult decayBound(const DecayBoundParams &p)
{
    DecayBoundResult out;
    const int T = std::max(p.maxDistance, 0);
    out.distance.resize(T);
    out.bound.assign(T, 0.0);
    for (int t = 0; t < T; ++t) out.distance[t] = t + 1;
    const Eigen::VectorXd theta = scaledFrequencies(p.d, p.base, p.extension).invFreq;  // (d/2)
    const Eigen::Index h = theta.size();
    if (T == 0 || h == 0) return out;

    const long long blocks = (T + kBlock - 1) / kBlock;
    const long long grain = std::max<long long>(1, kGrainWork / (kBlock * h));

    // Shared by every task (read only): the within-block table exp(i k theta_i) and the per-block
    // step exp(i kBlock theta_i). Made once: per task, their sines and cosines were a seventh of the
    // time at d = 1024 and 65,536 distances.
    BlockTable Kre(kBlock, h), Kim(kBlock, h);
    Eigen::VectorXd stepRe(h), stepIm(h);
    for (Eigen::Index i = 0; i < h; ++i) {
        for (int k = 0; k < kBlock; ++k) ropeCosSin(double(k), theta[i], Kre(k, i), Kim(k, i));
        ropeCosSin(double(kBlock), theta[i], stepRe[i], stepIm[i]);
    }

    tbb::parallel_for(tbb::blocked_range<long long>(0, blocks, grain), [&](const tbb::blocked_range<long long> &r) {
        Eigen::VectorXd baseRe(h), baseIm(h);
        for (long long b = r.begin(); b < r.end(); ++b) {
            const double t0 = 1.0 + double(b) * kBlock;  // first distance of the block
            if ((b - r.begin()) % kReseedBlocks == 0) {
                for (Eigen::Index i = 0; i < h; ++i) ropeCosSin(t0, theta[i], baseRe[i], baseIm[i]);
            } else {
                // base_i <- base_i * exp(i kBlock theta_i)
                const Eigen::VectorXd re = baseRe.cwiseProduct(stepRe) - baseIm.cwiseProduct(stepIm);
                baseIm = baseRe.cwiseProduct(stepIm) + baseIm.cwiseProduct(stepRe);
                baseRe = re;
            }
            const Block bound = blockBound(baseRe, baseIm, Kre, Kim);
            const long long first = b * kBlock;
            const int count = int(std::min<long long>(kBlock, T - first));
            for (int k = 0; k < count; ++k) out.bound[first + k] = bound[k];
        }
    });
    return out;
}

// The direct reference: cos/sin of every angle t theta_i, then the running sum. Any real distance.
std::vector<double> decayBoundAt(const DecayBoundParams &p, const std::vector<double> &distances)
{
    std::vector<double> out(distances.size(), 0.0);
    const Eigen::VectorXd theta = scaledFrequencies(p.d, p.base, p.extension).invFreq;  // (d/2)
    const Eigen::Index h = theta.size();
    if (h == 0 || distances.empty()) return out;
    // A direct term costs a sincos (~10x the fast path's term), hence a smaller grain.
    const std::size_t grain = std::max<std::size_t>(1, std::size_t(kGrainWork / 8 / h));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, distances.size(), grain),
                      [&](const tbb::blocked_range<std::size_t> &r) {
        for (std::size_t n = r.begin(); n < r.end(); ++n) {
            double sRe = 0.0, sIm = 0.0, acc = 0.0;
            for (Eigen::Index i = 0; i < h; ++i) {
                double c = 1.0, s = 0.0;
                ropeCosSin(distances[n], theta[i], c, s);
                sRe += c;
                sIm += s;
                acc += std::sqrt(sRe * sRe + sIm * sIm);
            }
            out[n] = acc / double(h);
        }
    });
    return out;
}

} // namespace fb
