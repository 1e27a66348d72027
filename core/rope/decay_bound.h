#pragma once
// Figure 218.1, right: the long-term decay of RoPE's Abel-summation bound (Su et al.):
// bound(t) = mean over j = 1..d/2 of |S_j(t)|, S_j(t) = sum_{i<j} exp(i t theta_i).
#include "core/rope/context_extension.h"

#include <vector>

namespace fb {

struct DecayBoundParams {
    int d = 64;                  // head width, even
    double base = 10000.0;
    int maxDistance = 512;       // t = 1..maxDistance
    ContextExtension extension;  // the bound on rescaled frequencies
};

struct DecayBoundResult {
    std::vector<double> distance;  // 1..maxDistance
    std::vector<double> bound;     // bound[i] belongs to distance[i]
};

// Every distance 1..maxDistance. Fast: d = 1024 with 65,536 distances well under 50 ms on 2 cores.
DecayBoundResult decayBound(const DecayBoundParams &p);

// The bound at the given distances only (e.g. log-spaced points for a chart).
std::vector<double> decayBoundAt(const DecayBoundParams &p, const std::vector<double> &distances);

} // namespace fb
