#include "core/transformer/text_corpus.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace fb {

namespace {

// Decodes one code point at text[i] (advancing i). A byte that cannot start a sequence, a sequence
// cut short (its valid prefix is consumed), an overlong form, a surrogate or a value above U+10FFFF
// each yield one U+FFFD.
char32_t next(const std::string &text, std::size_t &i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    int len = 0;
    char32_t cp = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, cp = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, cp = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, cp = b0 & 0x07, min = 0x10000;
    else {
        ++i;  // a continuation byte or 0xC0, 0xC1, 0xF5..0xFF
        return TextCorpus::kReplacement;
    }
    std::size_t k = i + 1;
    for (int n = 1; n < len; ++n, ++k) {
        if (k >= text.size() || (byte(k) & 0xC0) != 0x80) {
            i = k;  // truncated: skip the valid prefix
            return TextCorpus::kReplacement;
        }
        cp = (cp << 6) | (byte(k) & 0x3F);
    }
    i = k;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return TextCorpus::kReplacement;
    return cp;
}

} // namespace

std::vector<char32_t> TextCorpus::decodeUtf8(const std::string &utf8)
{
    std::vector<char32_t> out;
    out.reserve(utf8.size());
    for (std::size_t i = 0; i < utf8.size();) out.push_back(next(utf8, i));
    return out;
}

std::size_t TextCorpus::countCharacters(const std::string &utf8)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < utf8.size(); ++n) next(utf8, i);
    return n;
}

void TextCorpus::appendUtf8(char32_t cp, std::string &out)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacement;
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

std::string TextCorpus::check(const std::string &utf8, int seqLen)
{
    const std::size_t needed = 10 * (std::size_t(std::max(seqLen, 1)) + 1);
    if (utf8.empty())
        return "text is empty: give a UTF-8 text of at least " + std::to_string(needed) + " characters for seq_len "
               + std::to_string(seqLen);
    if (utf8.size() > kMaxBytes)
        // In bytes: 64 MiB + 1 byte rounds to "64 MiB", which would read as allowed.
        return "text must be at most " + std::to_string(kMaxBytes) + " bytes (64 MiB), got " + std::to_string(utf8.size())
               + " bytes";
    const std::size_t n = countCharacters(utf8);
    if (n < needed)
        return "text must hold at least " + std::to_string(needed) + " characters for seq_len " + std::to_string(seqLen)
               + " (10 x (seq_len + 1): its last 10% is held out and must hold one window), got " + std::to_string(n);
    return {};
}

TextCorpus::TextCorpus(const std::string &utf8, int seqLen, int maxVocab)
{
    if (const std::string err = check(utf8, seqLen); !err.empty()) throw std::invalid_argument(err);
    maxVocab = std::max(2, maxVocab);
    const std::vector<char32_t> text = decodeUtf8(utf8);
    std::unordered_map<char32_t, std::size_t> freq;
    for (char32_t c : text) ++freq[c];
    std::vector<std::pair<char32_t, std::size_t>> order(freq.begin(), freq.end());
    std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    const bool overflow = order.size() > std::size_t(maxVocab);
    const std::size_t kept = overflow ? std::size_t(maxVocab) - 1 : order.size();
    for (std::size_t i = 0; i < kept; ++i) {
        symbols_.push_back(order[i].first);
        counts_.push_back(order[i].second);
        lookup_.emplace_back(order[i].first, int(i));
    }
    if (overflow) {
        unknown_ = int(kept);
        symbols_.push_back(kReplacement);
        std::size_t rest = 0;
        for (std::size_t i = kept; i < order.size(); ++i) rest += order[i].second;
        counts_.push_back(rest);
    }
    std::sort(lookup_.begin(), lookup_.end());
    ids_.reserve(text.size());
    for (char32_t c : text) ids_.push_back(idOf(c));
    trainEnd_ = ids_.size() - ids_.size() / 10;
}

std::string TextCorpus::checkVocabulary(const std::vector<char32_t> &symbols, const std::vector<std::size_t> &counts,
                                        int unknownId, int maxVocab)
{
    const std::size_t n = symbols.size();
    if (n < 1 || n > std::size_t(maxVocab))
        return "the vocabulary must hold between 1 and " + std::to_string(maxVocab) + " characters, got "
               + std::to_string(n);
    if (counts.size() != n)
        return "the vocabulary has " + std::to_string(n) + " characters but " + std::to_string(counts.size())
               + " counts";
    for (std::size_t i = 0; i < n; ++i) {
        const char32_t c = symbols[i];
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return "vocabulary character " + std::to_string(i) + " must be a Unicode scalar value (at most U+10FFFF, "
                   "no surrogate), got code point " + std::to_string(std::uint32_t(c));
    }
    if (unknownId < -1 || unknownId >= int(n) || (unknownId >= 0 && symbols[std::size_t(unknownId)] != kReplacement))
        return "the vocabulary's <unk> id must be -1 (none) or the id of U+FFFD in [0, " + std::to_string(n - 1)
               + "], got " + std::to_string(unknownId);
    // <unk> prints as U+FFFD, which the text itself may also hold: it alone may appear twice
    std::vector<char32_t> sorted;
    for (std::size_t i = 0; i < n; ++i)
        if (int(i) != unknownId) sorted.push_back(symbols[i]);
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return "the vocabulary's characters must be distinct, but one appears twice";
    return {};
}

TextCorpus TextCorpus::fromVocabulary(std::vector<char32_t> symbols, std::vector<std::size_t> counts, int unknownId)
{
    if (const std::string err = checkVocabulary(symbols, counts, unknownId); !err.empty())
        throw std::invalid_argument(err);
    TextCorpus c;
    c.symbols_ = std::move(symbols);
    c.counts_ = std::move(counts);
    c.unknown_ = unknownId;
    for (std::size_t i = 0; i < c.symbols_.size(); ++i)
        if (int(i) != unknownId) c.lookup_.emplace_back(c.symbols_[i], int(i));
    std::sort(c.lookup_.begin(), c.lookup_.end());
    return c;
}

int TextCorpus::idOf(char32_t cp) const
{
    const auto it = std::lower_bound(lookup_.begin(), lookup_.end(), std::make_pair(cp, -1));
    if (it != lookup_.end() && it->first == cp) return it->second;
    return unknown_ >= 0 ? unknown_ : 0;
}

std::vector<int> TextCorpus::encode(const std::string &utf8) const
{
    std::vector<int> out;
    for (char32_t c : decodeUtf8(utf8)) out.push_back(idOf(c));
    return out;
}

void TextCorpus::appendDecoded(const int *ids, std::size_t n, std::string &out) const
{
    for (std::size_t i = 0; i < n; ++i) {
        const int id = ids[i];
        appendUtf8(id >= 0 && id < vocabSize() ? symbols_[std::size_t(id)] : kReplacement, out);
    }
}

std::string TextCorpus::decode(const std::vector<int> &ids) const
{
    std::string out;
    appendDecoded(ids.data(), ids.size(), out);
    return out;
}

} // namespace fb
