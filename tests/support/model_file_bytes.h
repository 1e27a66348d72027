#pragma once
// The model file's tests' shared parts (tst_model_file, tst_model_file_hostile): a tiny text model to
// save, a file's sections found and rewritten with their lengths and CRCs made right (what a hostile
// file looks like), and the check that a file is refused with one line, the caller's model unchanged.
#include "core/io/crc32.h"
#include "core/model/byte_writer.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_config.h"

#include <QTest>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fb::test {

// A text of ~2,000 characters with a non-ASCII character, and a tiny model trained on it for a few steps.
inline std::string smallText()
{
    std::string text;
    for (int i = 0; i < 60; ++i) text += "the cat sat on the mat, caf\xC3\xA9 " + std::to_string(i % 7) + "\n";
    return text;
}

inline TransformerConfig tinyText()
{
    TransformerConfig c;
    c.task = TransformerTask::Text;
    c.text = smallText();
    c.seqLen = 16;
    c.batch = 4;
    c.layers = 1;
    c.heads = 2;
    c.dModel = 16;
    c.steps = 6;
    c.evalEvery = 3;
    c.sampleChars = 20;
    return c;
}

// The section of bytes with this tag: the offset of its payload and its length.
inline std::pair<std::size_t, std::size_t> findSection(const std::string &bytes, const char *tag)
{
    std::size_t at = ModelFile::kMagic.size() + 8;
    while (at + 8 <= bytes.size()) {
        std::uint32_t length = 0;
        for (int k = 0; k < 4; ++k) length |= std::uint32_t(static_cast<unsigned char>(bytes[at + 4 + k])) << (8 * k);
        if (bytes.compare(at, 4, tag) == 0) return { at + 8, length };
        at += 8 + length + 4;
    }
    return { 0, 0 };
}

// Replaces the payload of section tag by edit(payload), with the length and the CRC made right again:
// what a hostile file looks like (a damaged one would fail its CRC first).
inline std::string rewriteSection(const std::string &bytes, const char *tag, const std::function<void(std::string &)> &edit)
{
    const auto [offset, length] = findSection(bytes, tag);
    std::string payload = bytes.substr(offset, length);
    edit(payload);
    ByteWriter w;
    w.raw(std::string_view(tag, 4)).u32(std::uint32_t(payload.size())).raw(payload);
    w.u32(crc32(std::string(tag, 4) + payload));
    return bytes.substr(0, offset - 8) + w.bytes() + bytes.substr(offset + length + 4);
}

inline void putU32(std::string &s, std::size_t at, std::uint32_t v)
{
    for (int k = 0; k < 4; ++k) s[at + std::size_t(k)] = char((v >> (8 * k)) & 0xff);
}

// decode refuses bytes with one line holding every word of expected; a model decoded before stays.
inline void refused(const std::string &bytes, const std::vector<std::string> &expected)
{
    SavedModel out;
    out.model.params = Eigen::VectorXf::Constant(3, 7.0f);
    out.run.stepsDone = 42;
    const std::string err = ModelFile::decode(bytes, out);
    QVERIFY2(!err.empty(), "accepted");
    QVERIFY2(err.find('\n') == std::string::npos, err.c_str());
    for (const std::string &word : expected) QVERIFY2(err.find(word) != std::string::npos, err.c_str());
    QCOMPARE(out.model.params.size(), Eigen::Index(3));  // unchanged
    QCOMPARE(out.model.params[0], 7.0f);
    QCOMPARE(out.run.stepsDone, 42);
}

} // namespace fb::test
