#pragma once
// Little-endian bytes of a model file (core/model/model_file.h), written whatever the machine's byte
// order: integers of fixed width, IEEE 754 floats and doubles by their bits, and counted strings and
// arrays (a u32 count, then the elements).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

class ByteWriter {
public:
    ByteWriter &u8(std::uint8_t v);
    ByteWriter &u32(std::uint32_t v);
    ByteWriter &u64(std::uint64_t v);
    ByteWriter &i32(std::int32_t v) { return u32(std::uint32_t(v)); }
    ByteWriter &i64(std::int64_t v) { return u64(std::uint64_t(v)); }
    ByteWriter &f32(float v);
    ByteWriter &f64(double v);
    ByteWriter &raw(std::string_view bytes);
    // u32 byte count, then the bytes
    ByteWriter &string(std::string_view s);
    // u32 count, then the elements
    ByteWriter &doubles(const std::vector<double> &v);
    ByteWriter &ints(const std::vector<int> &v);

    const std::string &bytes() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

} // namespace fb
