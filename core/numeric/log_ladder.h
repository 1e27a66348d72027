#pragma once
// The round values a logarithmic slider stops at: 1-2-5 steps per decade (0.001, 0.002, 0.005,
// 0.01 ...), or powers of two for an integer parameter whose default is a power of two (widths,
// context lengths: 2048, 4096, 8192). The range's ends and the chapter's default are always on the
// ladder, so every slider reaches them.
#include "core/lab/param_spec.h"

#include <cstddef>
#include <vector>

namespace fb {

// The ladder of spec (ascending, no duplicates, every value valid for spec). For a spec that is not
// logarithmic: empty.
std::vector<double> logLadder(const ParamSpec &spec);

// Index of the ladder value nearest to value in log space (0 for value <= 0). ladder non-empty.
std::size_t nearestRung(const std::vector<double> &ladder, double value);

// steps rungs up (steps > 0) or down from value, clamped to the ladder's ends. A value between two
// rungs counts the first rung in the step's direction as one step (3000 up one: 5000).
double stepAlongLadder(const std::vector<double> &ladder, double value, int steps);

} // namespace fb
