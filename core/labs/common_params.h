#pragma once
// Parameters several labs share, written down once: RoPE's width and base, the context-extension
// factor and trained length, seeds. Sizes are capped so that no setting can exhaust memory or keep a
// panel busy for more than about a second on two cores.
#include "core/rope/context_extension.h"
#include "core/lab/param_spec.h"

#include <string>
#include <vector>

namespace fb::params {

constexpr double kMinBase = 1.0001;      // b > 1, or the frequency ladder collapses to theta_i = 1
constexpr double kMaxBase = 1e9;         // far past any published RoPE base (Llama 3: 500,000)
constexpr double kMaxDistance = 65536;   // decay-bound distances and rope-invariance positions
constexpr double kMaxFactor = 64;        // context-extension factor s
constexpr double kMaxSeed = 4294967295.0;  // 2^32 - 1: every seed is exact in a double

ParamSpec ropeWidth(double max);  // "d": even, 2..max, default 64
ParamSpec ropeBase();             // "base": 1.0001..1e9, default 10000, log slider
ParamSpec extensionFactor();      // "factor": 1..64, default 1
ParamSpec trainedLength();        // "trained_length": 16..1,048,576 tokens, default 4096
ParamSpec scalingChoice(const std::string &key, const std::string &label, const std::string &help);  // none|pi|ntk|yarn
ParamSpec seed(double def, std::string help);

// "none" -> ScalingMethod::None, "pi", "ntk", "yarn".
ScalingMethod scalingOf(const std::string &text);

} // namespace fb::params
