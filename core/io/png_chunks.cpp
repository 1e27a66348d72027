#include "core/io/png_chunks.h"

#include "core/io/crc32.h"

#include <cstdint>

namespace fb {

namespace {
constexpr std::string_view kSignature { "\x89PNG\r\n\x1a\n", 8 };

std::uint32_t bigEndian(std::string_view b, std::size_t at)
{
    return std::uint32_t(static_cast<unsigned char>(b[at])) << 24 | std::uint32_t(static_cast<unsigned char>(b[at + 1])) << 16
           | std::uint32_t(static_cast<unsigned char>(b[at + 2])) << 8 | std::uint32_t(static_cast<unsigned char>(b[at + 3]));
}

std::string printableType(std::string_view type)
{
    std::string out;
    for (char c : type) out += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : '?';
    return out;
}
} // namespace

std::string checkPngChunks(std::string_view bytes)
{
    if (bytes.size() < kSignature.size() || bytes.substr(0, kSignature.size()) != kSignature)
        return "it is not a PNG image (no PNG signature)";
    std::size_t at = kSignature.size();
    for (int index = 1;; ++index) {
        const std::size_t left = bytes.size() - at;
        if (left < 12) return "chunk " + std::to_string(index) + " is cut short: the file ends before IEND";
        const std::uint32_t length = bigEndian(bytes, at);
        const std::string type = printableType(bytes.substr(at + 4, 4));
        if (length > 0x7fffffffu)
            return "chunk " + std::to_string(index) + " (" + type + ") claims " + std::to_string(length)
                   + " bytes, more than a PNG chunk may hold";
        if (std::size_t(length) > left - 12)
            return "chunk " + std::to_string(index) + " (" + type + ") claims " + std::to_string(length)
                   + " bytes, but only " + std::to_string(left - 12) + " follow";
        if (crc32(bytes.substr(at + 4, 4 + std::size_t(length))) != bigEndian(bytes, at + 8 + std::size_t(length)))
            return "chunk " + std::to_string(index) + " (" + type + ") is damaged (its CRC does not match)";
        at += 12 + std::size_t(length);
        if (type == "IEND") return {};
    }
}

} // namespace fb
