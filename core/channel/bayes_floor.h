#pragma once
// The token-only Bayes floor of the toy phase accumulator (218.6.5): E_{p ~ U(0,1)}[H(p)] = 1/2 nat,
// for any number of buckets.
#include <cstdint>

namespace fb {

struct BayesFloorParams {
    int buckets = 4;            // V_b
    long long samples = 400000; // Monte Carlo draws
    std::uint64_t seed = 0;
};

struct BayesFloorResult {
    double analytic = 0.5;      // nats
    double monteCarlo = 0.0;    // nats, from the chapter's estimator with u ~ U(0,1)
};

// The analytic 1/2 nat and the chapter's Monte Carlo estimate: u ~ U(0,1),
// p = clip((ceil(u V_b) / V_b - u) V_b, 1e-12, 1 - 1e-12), mean of -p ln p - (1-p) ln(1-p).
// Draws come in fixed chunks with their own streams, so the result depends on (seed, samples) only.
BayesFloorResult bayesFloor(const BayesFloorParams &p);

} // namespace fb
