#pragma once
// The CRC-32 of PNG and zlib (ISO 3309, polynomial 0xEDB88320): what a PNG chunk and a model file's
// sections carry to tell a damaged byte from a good one.
#include <cstdint>
#include <string_view>

namespace fb {

// crc32("123456789") = 0xCBF43926.
std::uint32_t crc32(std::string_view data);

} // namespace fb
