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

std::string parseHeadList(const std::string &text, int layers, int heads, std::vector<HeadId> &out)
{
    const std::string range = "ablate must be a comma-separated list of heads L<layer>H<head> or layers L<layer>, "
                              "layer in 1.." + std::to_string(layers) + ", head in 1.." + std::to_string(heads)
        + " (e.g. L" + std::to_string(layers) + "H1,L" + std::to_string(layers) + "), got \"" + text + "\"";
    if (text.size() > 1000) return range.substr(0, range.find(", got")) + ", got " + std::to_string(text.size())
                                   + " characters";
    std::vector<HeadId> list;
    std::string_view rest(text);
    while (true) {
        const std::size_t comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        int l = 0, h = 0;
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
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    out.clear();
    for (const HeadId &id : list)
        if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    return {};
}

} // namespace fb
