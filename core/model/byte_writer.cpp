#include "core/model/byte_writer.h"

#include <cstring>

namespace fb {

ByteWriter &ByteWriter::u8(std::uint8_t v)
{
    out_.push_back(char(v));
    return *this;
}

ByteWriter &ByteWriter::u32(std::uint32_t v)
{
    for (int k = 0; k < 4; ++k) out_.push_back(char((v >> (8 * k)) & 0xff));
    return *this;
}

ByteWriter &ByteWriter::u64(std::uint64_t v)
{
    for (int k = 0; k < 8; ++k) out_.push_back(char((v >> (8 * k)) & 0xff));
    return *this;
}

ByteWriter &ByteWriter::f32(float v)
{
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return u32(bits);
}

ByteWriter &ByteWriter::f64(double v)
{
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return u64(bits);
}

ByteWriter &ByteWriter::raw(std::string_view bytes)
{
    out_.append(bytes);
    return *this;
}

ByteWriter &ByteWriter::string(std::string_view s)
{
    u32(std::uint32_t(s.size()));
    return raw(s);
}

ByteWriter &ByteWriter::doubles(const std::vector<double> &v)
{
    u32(std::uint32_t(v.size()));
    for (double x : v) f64(x);
    return *this;
}

ByteWriter &ByteWriter::ints(const std::vector<int> &v)
{
    u32(std::uint32_t(v.size()));
    for (int x : v) i32(x);
    return *this;
}

} // namespace fb
