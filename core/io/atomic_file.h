#pragma once
// Writing a file all or nothing: the bytes go to a temporary file in the same folder, every write(),
// fsync() and close() is checked, and only then does rename() put the file in place. On any failure
// the temporary file is removed and the previous file at the path, if any, is left exactly as it was.
// Every file FullBand writes (exported PNG, SVG and CSV, scenes, decks) goes through here.
#include <string>
#include <string_view>

namespace fb {

// Empty on success; otherwise one sentence naming the path and the reason in English, whatever the
// locale: "cannot write 'out.csv': no space left on device". A path that exists and is not a regular
// file (a folder, a FIFO, a device) is refused unwritten, and so is a read-only file (no write
// permission for this user in its mode, directly or through a link): "cannot write 'x.png': permission
// denied (the file is read-only)", as cp refuses it.
std::string writeFileAtomically(const std::string &path, std::string_view bytes);

// Empty when path names nothing, something not a regular file, or a regular file whose mode lets this
// user write it; otherwise writeFileAtomically's sentence for a read-only file. For writers that do
// their own renaming (animations).
std::string checkReplaceable(const std::string &path);

// The reason for errno value error, in English and lower case: "no space left on device".
std::string errorText(int error);

} // namespace fb
