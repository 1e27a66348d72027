#pragma once
// Reading a file FullBand opens (a scene, a deck, a PNG carrying a scene) without trusting it: only a
// regular file is read (a FIFO, a device or a folder is refused, and opening never blocks), and a
// file larger than the caller's limit is refused before a byte of it is read.
#include <cstddef>
#include <string>

namespace fb {

// Reads all of path into out. Empty on success; otherwise one sentence naming the path and the reason
// ("'pipe.fullband' is a FIFO (named pipe), not a regular file", "'big.fullband' is 2000000 bytes; at
// most 1048576 bytes (1 MiB)": exact byte counts, so one byte too many is visible). out is left empty on
// failure.
std::string readRegularFile(const std::string &path, std::size_t maxBytes, std::string &out);

// Empty when path names a regular file (following links) or nothing; otherwise why not.
std::string checkNotSpecialFile(const std::string &path);

} // namespace fb
