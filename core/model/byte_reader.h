#pragma once
// Reads what core/model/byte_writer.h wrote from bytes nobody vouches for: every read is checked
// against the bytes left, every count against its range and against the bytes left before anything
// is allocated for it, and the first problem is kept as one sentence naming the field ("the training
// curve claims 4000000000 values (32000000000 bytes), but only 812 bytes follow"). After a failure
// every further read fails too, so a caller may read a whole record and look at ok() once.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

class ByteReader {
public:
    explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

    bool u8(std::uint8_t &out, const char *what);
    bool u32(std::uint32_t &out, const char *what);
    bool u64(std::uint64_t &out, const char *what);
    bool f32(float &out, const char *what);
    bool f64(double &out, const char *what);
    bool raw(std::size_t n, std::string_view &out, const char *what);
    // An i32 in [min, max]: "what must be an integer in [min, max], got v".
    bool integer(int &out, const char *what, int min, int max);
    // 0 or 1.
    bool flag(bool &out, const char *what);
    // A u32 count of elements of elementBytes each: at most max, and within the bytes left.
    bool count(std::size_t &out, const char *what, std::size_t max, std::size_t elementBytes);
    bool string(std::string &out, const char *what, std::size_t maxBytes);
    bool doubles(std::vector<double> &out, const char *what, std::size_t max);
    // Every element in [min, max].
    bool ints(std::vector<int> &out, const char *what, std::size_t max, int min, int maxValue);

    // Keeps message unless a problem was kept before; returns false.
    bool fail(std::string message);
    bool ok() const { return error_.empty(); }
    const std::string &error() const { return error_; }
    std::size_t remaining() const { return bytes_.size() - at_; }
    std::size_t position() const { return at_; }

private:
    bool take(std::size_t n, const char *what, const char *&p);

    std::string_view bytes_;
    std::size_t at_ = 0;
    std::string error_;
};

// An enumeration stored as an integer in [0, last]: read, range-checked, converted.
template <typename E>
bool enumeration(ByteReader &r, E &out, const char *what, int last)
{
    int v = 0;
    if (!r.integer(v, what, 0, last)) return false;
    out = E(v);
    return true;
}

} // namespace fb
