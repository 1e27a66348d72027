#pragma once
// The Channel capacity lab's parameters: capacitySpec()'s d, snr and vocab (the chosen point),
// plus the vocabulary range drawn as the token-only band of Figure 218.2 (left).
#include "core/capacity.h"
#include "core/param_spec.h"

#include <string>

namespace fb {

struct CapacityLabParams {
    CapacityParams point;       // the chosen (d, SNR, V)
    double vocabMin = 32000;    // lower edge of the token band
    double vocabMax = 256000;   // upper edge of the token band
};

// d, snr, vocab (from capacitySpec()), vocab_min, vocab_max.
const LabSpec &capacityLabSpec();

// Checks every value and the rule vocab_min <= vocab_max. Returns an empty string and fills out on
// success; otherwise a message naming the key and its valid range, and out is left unchanged.
std::string capacityLabFrom(const ParamValues &v, CapacityLabParams &out);

} // namespace fb
