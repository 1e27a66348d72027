#pragma once
// The configurations of a side-by-side comparison (issue 29): a base transformer configuration and up
// to five sets of overrides, each written as the command line's --set values, comma separated:
// "kv_heads=1", "window=8", "attn_gate=on", "loop=2, layers=1". Every key and range is
// transformerCommandSpec's, checked by the same code as `fullband train --set model=transformer`;
// the task, its text and the seed are the base's for every configuration (they cannot be overridden).
#include "core/transformer/transformer_config.h"

#include <string>
#include <utility>
#include <vector>

namespace fb {

constexpr int kMaxCompareConfigs = 5;

struct CompareEntry {
    std::string label;      // the override text as given (trimmed), or "base" when it is empty
    std::string overrides;  // the override text (trimmed; empty for the base)
    TransformerConfig config;
};

// Splits "loop=2, layers=1" into its (key, value) pairs, trimmed. The keys whose values are lists
// (mixer, ablate) take the pieces without "=" after them: "mixer=gated-deltanet,softmax, lr=0.002" is
// mixer "gated-deltanet,softmax" and lr 0.002. Empty text: no pairs. "" or one sentence naming the
// piece that is not KEY=VALUE ("loop=2, layers 1": 'layers 1').
std::string parseOverrides(const std::string &text, std::vector<std::pair<std::string, std::string>> &out);

// base with the overrides of text applied; "" or one sentence naming the key and its valid range
// (or the check that failed), e.g. "kv_heads must divide heads = 4, got 3".
std::string applyOverrides(const TransformerConfig &base, const std::string &text, TransformerConfig &out);

// One entry per override text (1 to kMaxCompareConfigs of them). "" or one sentence naming the
// configuration (1-based, with its text) and what is wrong:
//   "configuration 2 (kv_heads=3): kv_heads must divide heads = 4, got 3".
std::string buildCompareEntries(const TransformerConfig &base, const std::vector<std::string> &overrides,
                                std::vector<CompareEntry> &out);

} // namespace fb
