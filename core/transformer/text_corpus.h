#pragma once
// The text task's data: a UTF-8 text decoded into code points, a character vocabulary (the most
// frequent code points, at most maxVocab, the rest mapped to one <unk>), the text encoded as ids,
// and its split into a training part and a held-out part (the last 10%).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

class TextCorpus {
public:
    static constexpr int kDefaultMaxVocab = 512;
    static constexpr std::size_t kMaxBytes = std::size_t(64) << 20;  // 64 MiB
    static constexpr char32_t kReplacement = 0xFFFD;  // invalid UTF-8 decodes to it; <unk> prints as it

    TextCorpus() = default;
    // Decodes utf8 and builds the vocabulary and the split. Throws std::invalid_argument with
    // check()'s sentence when the text cannot be used at seqLen.
    TextCorpus(const std::string &utf8, int seqLen, int maxVocab = kDefaultMaxVocab);

    // A corpus of a vocabulary alone (no text: size() is 0), as a model file keeps it: symbols by id,
    // their counts, and the id of <unk> (-1 for none). checkVocabulary first; throws
    // std::invalid_argument with its sentence otherwise.
    static TextCorpus fromVocabulary(std::vector<char32_t> symbols, std::vector<std::size_t> counts, int unknownId);
    // "" when symbols can be a vocabulary: 1 to maxVocab distinct Unicode scalar values (no surrogate,
    // at most U+10FFFF), as many counts, and unknownId -1 or the id of a U+FFFD.
    static std::string checkVocabulary(const std::vector<char32_t> &symbols, const std::vector<std::size_t> &counts,
                                       int unknownId, int maxVocab = kDefaultMaxVocab);

    // "" when utf8 can train at seqLen, otherwise one sentence: empty, too long, or too short (its
    // last 10% must hold a window of seq_len + 1 characters, so at least 10 (seq_len + 1) in all).
    static std::string check(const std::string &utf8, int seqLen);
    // Characters of utf8 when decoded (for messages).
    static std::size_t countCharacters(const std::string &utf8);
    // Code points of utf8; each invalid or truncated sequence (overlong forms and surrogates
    // included) becomes one U+FFFD.
    static std::vector<char32_t> decodeUtf8(const std::string &utf8);
    // Appends the UTF-8 bytes of code point cp (U+FFFD for a value that is not a scalar value).
    static void appendUtf8(char32_t cp, std::string &out);

    int vocabSize() const { return int(symbols_.size()); }
    bool hasUnknown() const { return unknown_ >= 0; }
    int unknownId() const { return unknown_; }  // -1 when every character has its own id
    // The character of each id, most frequent first (ties by code point); <unk> is U+FFFD.
    const std::vector<char32_t> &symbols() const { return symbols_; }
    // How often each id occurs in the text.
    const std::vector<std::size_t> &counts() const { return counts_; }
    // The text as ids: [0, trainEnd()) trains, [trainEnd(), size()) is held out.
    const std::vector<int> &ids() const { return ids_; }
    std::size_t trainEnd() const { return trainEnd_; }
    std::size_t size() const { return ids_.size(); }

    // The id of code point cp: its own, or <unk> (or, without <unk>, the most frequent character).
    int idOf(char32_t cp) const;
    std::vector<int> encode(const std::string &utf8) const;
    // Appends the UTF-8 text of ids to out (no allocation when out has the capacity).
    void appendDecoded(const int *ids, std::size_t n, std::string &out) const;
    std::string decode(const std::vector<int> &ids) const;

private:
    std::vector<char32_t> symbols_;
    std::vector<std::size_t> counts_;
    std::vector<int> ids_;
    std::vector<std::pair<char32_t, int>> lookup_;  // sorted by code point, for idOf
    std::size_t trainEnd_ = 0;
    int unknown_ = -1;
};

} // namespace fb
