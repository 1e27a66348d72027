#include "core/interpret/ablation.h"

#include <algorithm>
#include <charconv>

namespace fb {

bool Ablation::ffnIsOff(int layer) const
{
    return std::find(ffnOff.begin(), ffnOff.end(), layer) != ffnOff.end();
}

Ablation Ablation::allHeads(int layers, int heads)
{
    Ablation a;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) a.heads.push_back({ l, h });
    return a;
}

std::string headName(const HeadId &id)
{
    // Appended piece by piece: "L" + std::to_string(...) trips GCC 12's -Wstringop-overflow.
    std::string name = "L";
    name += std::to_string(id.layer + 1);
    name += 'H';
    name += std::to_string(id.head + 1);
    return name;
}

namespace {

// A positive decimal integer at the start of s; advances s past it. False when there is none or it
// does not fit an int.
bool readIndex(std::string_view &s, int &out)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    if (r.ec != std::errc() || r.ptr == s.data()) return false;
    s.remove_prefix(std::size_t(r.ptr - s.data()));
    return true;
}

} // namespace

std::string parseAblation(const std::string &text, int layers, int heads, bool feedback, Ablation &out)
{
    const std::string L = std::to_string(layers);
    const std::string range = "ablate must be a comma-separated list of heads L<layer>H<head>, layers L<layer> or "
                              "FFNs F<layer>" + std::string(feedback ? " or feedback" : "") + ", layer in 1.." + L
        + ", head in 1.." + std::to_string(heads) + " (e.g. L" + L + "H1,L" + L + ",F" + L + "), got \"" + text + "\"";
    if (text.size() > 1000) return range.substr(0, range.find(", got")) + ", got " + std::to_string(text.size())
                                   + " characters";
    std::vector<HeadId> list;
    std::vector<int> ffns;
    bool shut = false;
    std::string_view rest(text);
    while (true) {
        const std::size_t comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        int l = 0, h = 0;
        if (item == "feedback") {
            if (!feedback) return range;
            shut = true;
        } else if (!item.empty() && (item.front() == 'F' || item.front() == 'f')) {
            item.remove_prefix(1);
            if (!readIndex(item, l) || l < 1 || l > layers || !item.empty()) return range;
            if (std::find(ffns.begin(), ffns.end(), l - 1) == ffns.end()) ffns.push_back(l - 1);
        } else {
            if (item.empty() || (item.front() != 'L' && item.front() != 'l')) return range;
            item.remove_prefix(1);
            if (!readIndex(item, l) || l < 1 || l > layers) return range;
            if (item.empty()) {
                for (int k = 0; k < heads; ++k) list.push_back({ l - 1, k });
            } else {
                if (item.front() != 'H' && item.front() != 'h') return range;
                item.remove_prefix(1);
                if (!readIndex(item, h) || h < 1 || h > heads || !item.empty()) return range;
                list.push_back({ l - 1, h - 1 });
            }
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    out.heads.clear();
    for (const HeadId &id : list)
        if (std::find(out.heads.begin(), out.heads.end(), id) == out.heads.end()) out.heads.push_back(id);
    out.ffnOff = std::move(ffns);
    out.feedbackShut = shut;
    return {};
}

std::string parseHeadList(const std::string &text, int layers, int heads, std::vector<HeadId> &out)
{
    Ablation a;
    if (std::string err = parseAblation(text, layers, heads, false, a); !err.empty()) return err;
    if (!a.ffnOff.empty()) return "ablate names heads here, not FFNs: L<layer>H<head> or L<layer>, got \"" + text + "\"";
    out = std::move(a.heads);
    return {};
}

std::vector<std::string> ablationNames(const Ablation &a)
{
    std::vector<std::string> names;
    for (const HeadId &id : a.heads) names.push_back(headName(id));
    for (int l : a.ffnOff) names.push_back("F" + std::to_string(l + 1));
    if (a.feedbackShut) names.push_back("feedback");
    return names;
}

} // namespace fb
