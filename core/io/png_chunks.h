#pragma once
// The chunk structure of a PNG file, checked before any decoder sees it: the signature, then chunks
// of (length, type, data, CRC) up to IEND, each length at most 2^31 - 1 (the PNG limit) and within
// the bytes the file holds, and each CRC right. A 200-byte file whose tEXt chunk claims 2 GB is refused here, before a
// decoder allocates for it.
#include <string>
#include <string_view>

namespace fb {

// Empty when bytes are a structurally sound PNG; otherwise one sentence on the first problem
// ("chunk 3 (tEXt) claims 2147483632 bytes, but only 150 follow").
std::string checkPngChunks(std::string_view bytes);

} // namespace fb
