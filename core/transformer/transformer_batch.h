#pragma once
// One batch for the transformer: B sequences, stored time-major like every activation (index
// n = t*B + b), with the next-token targets and, for the induction tasks, where each sequence's
// repeated segment sits.
#include "core/training/layers.h"

#include <vector>

namespace fb {

struct TransformerBatch {
    int batch = 0;               // B
    int positions = 0;           // input positions per sequence: T - 1 for the induction tasks (T tokens
                                 // give T - 1 next-token predictions), T for the accumulator and text
    std::vector<int> tokens;     // (positions*B): the input token of column n = t*B + b
    std::vector<int> targets;    // (positions*B): the token column n predicts; empty for a probe (no loss)
    nn::Mat<float> obs;          // accumulator: (2, positions*B), (cos, sin) of 2 pi a_t; empty otherwise
    std::vector<int> offset;     // induction: (B) the start a of the segment that is repeated ...
    std::vector<int> span;       // ... and its length s: tokens [a, a+s) reappear at [a+s, a+2s)

    // Allocates; call outside any loop.
    void resize(int b, int inputPositions, bool withTargets, bool withObs)
    {
        batch = b;
        positions = inputPositions;
        const std::size_t n = std::size_t(b) * std::size_t(inputPositions);
        tokens.assign(n, 0);
        targets.assign(withTargets ? n : 0, 0);
        obs.setZero(withObs ? 2 : 0, withObs ? Eigen::Index(n) : 0);
        offset.assign(std::size_t(b), 0);
        span.assign(std::size_t(b), 0);
    }
    Eigen::Index columns() const { return Eigen::Index(batch) * positions; }
    bool hasTargets() const { return !targets.empty(); }
};

} // namespace fb
