#include "core/transformer/mixer.h"

#include <algorithm>

namespace fb {

namespace {
constexpr const char *kNames[] = { "softmax", "linear", "deltanet", "gated-deltanet" };

std::string trimmed(const std::string &s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}
} // namespace

std::string mixerName(Mixer m)
{
    return kNames[std::size_t(m)];
}

double mixerStateValues(Mixer m, int heads, double dHead)
{
    if (m == Mixer::Softmax) return 0.0;
    return heads * (dHead * dHead + (m == Mixer::Linear ? dHead : 0.0));
}

bool parseMixer(const std::string &text, Mixer &out)
{
    for (std::size_t i = 0; i < std::size(kNames); ++i)
        if (text == kNames[i]) {
            out = Mixer(i);
            return true;
        }
    return false;
}

std::string parseMixers(const std::string &text, int layers, std::vector<Mixer> &out)
{
    const std::string valid = "softmax, linear, deltanet or gated-deltanet";
    std::vector<Mixer> list;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string name = trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        Mixer m = Mixer::Softmax;
        if (!parseMixer(name, m)) {
            std::string err = "mixer must be ";
            err.append(valid).append(", or a comma-separated list of one per layer, got \"");
            err.append(name, 0, 40).append(name.size() > 40 ? "...\"" : "\"");
            return err;
        }
        list.push_back(m);
        if (comma == std::string::npos) break;
        start = comma + 1;
        if (list.size() > 64) break;  // far more than any layers: the count below refuses it
    }
    if (list.size() == 1) list.assign(std::size_t(std::max(layers, 1)), list.front());
    if (int(list.size()) != layers) {
        std::string err = "mixer must name one mixer for every layer or one per layer (layers = ";
        err.append(std::to_string(layers)).append("), got ").append(std::to_string(list.size()));
        return err;
    }
    out = std::move(list);
    return {};
}

std::string mixersText(const std::vector<Mixer> &mixers)
{
    if (mixers.empty()) return "softmax";
    if (std::all_of(mixers.begin(), mixers.end(), [&](Mixer m) { return m == mixers.front(); }))
        return mixerName(mixers.front());
    std::string out;
    for (Mixer m : mixers) out.append(out.empty() ? "" : ",").append(mixerName(m));
    return out;
}

} // namespace fb
