#include "core/channel/bayes_floor.h"

#include "core/numeric/rng.h"

#include <Eigen/Dense>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

namespace fb {

namespace {

// Draws per chunk. Chunk c always takes its uniforms from its own stream (seed, c) and the chunk
// means are added in chunk order, so the estimate depends on (seed, samples) only, never on how
// the chunks were spread over threads.
constexpr long long kChunk = 1 << 16;
// p is clipped to [kClip, 1 - kClip] so that p ln p and (1-p) ln(1-p) stay finite (the chapter's 1e-12).
constexpr double kClip = 1e-12;

} // namespace

BayesFloorResult bayesFloor(const BayesFloorParams &p)
{
    BayesFloorResult r;
    r.analytic = 0.5;  // E_{p ~ U(0,1)}[H(p)] = 2 int_0^1 -p ln p dp = 2 / 4 nats, for every V_b
    const long long samples = std::max<long long>(p.samples, 0);
    if (samples == 0) return r;
    const double vb = std::max(p.buckets, 1);
    const long long chunks = (samples + kChunk - 1) / kChunk;
    std::vector<double> chunkSums(std::size_t(chunks), 0.0);
    tbb::parallel_for(tbb::blocked_range<long long>(0, chunks, 1), [&](const tbb::blocked_range<long long> &range) {
        Eigen::ArrayXd u(kChunk);
        for (long long c = range.begin(); c < range.end(); ++c) {
            const Eigen::Index count = Eigen::Index(std::min(kChunk, samples - c * kChunk));
            Rng rng(mixSeed(p.seed, std::uint64_t(c)));  // one independent seed per chunk
            for (Eigen::Index i = 0; i < count; ++i) u[i] = rng.uniform();
            const auto uc = u.head(count);
            // p = clip((ceil(u V_b) / V_b - u) V_b, 1e-12, 1 - 1e-12): the mass of the arc's first bucket.
            const Eigen::ArrayXd pr = (((uc * vb).ceil() / vb - uc) * vb).max(kClip).min(1.0 - kClip);
            // H(p) = -p ln p - (1 - p) ln(1 - p), nats.
            const Eigen::ArrayXd q = 1.0 - pr;
            chunkSums[std::size_t(c)] = -(pr * pr.log() + q * q.log()).sum();
        }
    });
    double total = 0.0;
    for (double s : chunkSums) total += s;
    r.monteCarlo = total / double(samples);
    return r;
}

} // namespace fb
