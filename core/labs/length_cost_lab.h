#pragma once
// Lab: what a training step and a sequence's memory cost against the sequence length, for softmax
// attention and the linear mixers (004_21534ea083b6ce9c.txt, "Hybrid linear-attention models"; issue
// 30). Measured, not modelled: one training step (forward and backward, one thread) of the tiny
// transformer at T = 64, 128, ... up to `longest`, about `tokens` tokens a step, the best of
// `repeats` timed steps after one that warms the caches (in rounds over every point, so that a busy
// moment of the machine slows one step of many points, not every step of one). Beside it the models: the FLOPs FullBand
// counts for that step (transformerFlopsPerStep), scaled to the measured time at T = 64, and the
// bytes a sequence keeps at inference (transformerStateBytes: the costs lab's KV cache formula
// 2 · L · T · d · 4 for softmax attention, a fixed state for the linear mixers).
#include "core/lab/lab.h"
#include "core/run/budget.h"

#include <array>
#include <string>
#include <vector>

namespace fb {

struct LengthCostParams {
    int dModel = 64, heads = 4, layers = 2;
    int longest = 512;   // a power of two in [128, 2048]
    int tokens = 512;    // per step: batch = max(1, tokens / T)
    int repeats = 3;     // timed steps at each point, the best kept
};

// The most one measurement may do: about ten seconds of one core (every change of a value measures again).
inline constexpr double kLengthCostMaxFlops = 4e11;
// The most one step may do (the longest softmax step): a stop waits for the step under way.
inline constexpr double kLengthCostMaxStepFlops = 2e10;

inline constexpr int kLengthCostMixers = 4;  // softmax, linear, deltanet, gated-deltanet: Mixer's order, Mixer(k)

struct LengthCostLabResult {
    LengthCostParams params;
    std::vector<int> lengths;  // 64, 128, ..., longest
    std::vector<int> batches;  // sequences a step at each length
    // [mixer][length index]
    std::array<std::vector<double>, kLengthCostMixers> usPerToken;   // measured, microseconds per token
    std::array<std::vector<double>, kLengthCostMixers> flopsPerToken;  // counted, forward and backward
    std::array<std::vector<double>, kLengthCostMixers> predictedUs;  // flops per token x (us / flops at T = 64)
    std::array<std::vector<double>, kLengthCostMixers> stateBytes;   // one sequence at inference, every layer
    std::array<int, kLengthCostMixers> crossover {};  // lengthCrossover against softmax (0 for softmax itself)
    std::array<double, kLengthCostMixers> timesSoftmax {};  // softmax's us per token over this mixer's, at the longest T
    bool complete = false;  // every point measured (false: stopped early)

    // The step's counted FLOPs over its measured time, GFLOP/s (0 where not measured).
    double gflops(int mixer, std::size_t i) const
    {
        const auto &us = usPerToken[std::size_t(mixer)];
        return i < us.size() && us[i] > 0.0 ? flopsPerToken[std::size_t(mixer)][i] / us[i] * 1e-3 : 0.0;
    }
};

// The length from which a mixer is no slower per token than softmax attention at every longer length
// measured (one past the last length where it is slower), or 0 when it is slower at the longest.
int lengthCrossover(const std::vector<int> &lengths, const std::vector<double> &softmaxUs, const std::vector<double> &mixerUs);

class LengthCostLab {
public:
    using Result = LengthCostLabResult;
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // the transformer's own checks, the budget
    static Cost cost(const ParamValues &values);           // of checked values
    static LengthCostParams params(const ParamValues &values);
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const LengthCostLabResult &r);

} // namespace fb
