#include "core/compare/compare_config.h"

#include "core/labs/transformer_spec.h"

namespace fb {

namespace {

std::string trimmed(const std::string &s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

} // namespace

std::string parseOverrides(const std::string &text, std::vector<std::pair<std::string, std::string>> &out)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    const std::string all = trimmed(text);
    std::size_t begin = 0;
    while (!all.empty() && begin <= all.size()) {
        std::size_t end = all.find(',', begin);
        if (end == std::string::npos) end = all.size();
        const std::string piece = trimmed(all.substr(begin, end - begin));
        const auto eq = piece.find('=');
        if (eq == std::string::npos && !pairs.empty() && !piece.empty()
            && (pairs.back().first == "mixer" || pairs.back().first == "ablate")) {
            // a piece without a key continues a list value: "mixer=gated-deltanet,softmax"
            pairs.back().second += "," + piece;
            begin = end + 1;
            continue;
        }
        if (eq == std::string::npos || eq == 0)
            return "expected KEY=VALUE separated by commas, got '" + piece + "'";
        pairs.emplace_back(trimmed(piece.substr(0, eq)), trimmed(piece.substr(eq + 1)));
        begin = end + 1;
    }
    out = std::move(pairs);
    return {};
}

std::string applyOverrides(const TransformerConfig &base, const std::string &text, TransformerConfig &out)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    if (std::string err = parseOverrides(text, pairs); !err.empty()) return err;
    const LabSpec &spec = transformerCommandSpec();
    ParamValues values = transformerCommandValues(base, base.task == TransformerTask::Text ? "(text)" : "");
    for (const auto &[key, value] : pairs) {
        if (key == "task" || key == "text" || key == "seed")
            return key + " is the same for every configuration (set it for all of them), got '" + key + "=" + value
                   + "'";
        if (std::string err = setFromText(spec, values, key, value); !err.empty()) return err;
    }
    TransformerConfig c;
    if (std::string err = transformerFromText(values, base.text, c); !err.empty()) return err;
    // What no key sets stays the base's.
    c.divergeLoss = base.divergeLoss;
    c.evalSequences = base.evalSequences;
    c.probeEvery = base.probeEvery;
    c.probeSeconds = base.probeSeconds;
    c.sampleChars = base.sampleChars;
    c.sampleTemperature = base.sampleTemperature;
    c.snapshotWeights = base.snapshotWeights;
    out = std::move(c);
    return {};
}

std::string buildCompareEntries(const TransformerConfig &base, const std::vector<std::string> &overrides,
                                std::vector<CompareEntry> &out)
{
    if (overrides.empty() || int(overrides.size()) > kMaxCompareConfigs)
        return "a comparison takes 1 to " + std::to_string(kMaxCompareConfigs) + " configurations, got "
               + std::to_string(overrides.size());
    std::vector<CompareEntry> entries;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        CompareEntry e;
        e.overrides = trimmed(overrides[i]);
        e.label = e.overrides.empty() ? "base" : e.overrides;
        if (std::string err = applyOverrides(base, e.overrides, e.config); !err.empty())
            return "configuration " + std::to_string(i + 1) + " (" + e.label + "): " + err;
        entries.push_back(std::move(e));
    }
    out = std::move(entries);
    return {};
}

} // namespace fb
