#include "core/model/byte_reader.h"

#include <cstring>

namespace fb {

bool ByteReader::fail(std::string message)
{
    if (error_.empty()) error_ = std::move(message);
    return false;
}

bool ByteReader::take(std::size_t n, const char *what, const char *&p)
{
    if (!ok()) return false;
    if (n > remaining())
        return fail(std::string(what) + " is cut short: it needs " + std::to_string(n) + " bytes, only "
                    + std::to_string(remaining()) + " follow");
    p = bytes_.data() + at_;
    at_ += n;
    return true;
}

bool ByteReader::u8(std::uint8_t &out, const char *what)
{
    const char *p = nullptr;
    if (!take(1, what, p)) return false;
    out = static_cast<unsigned char>(p[0]);
    return true;
}

bool ByteReader::u32(std::uint32_t &out, const char *what)
{
    const char *p = nullptr;
    if (!take(4, what, p)) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) out |= std::uint32_t(static_cast<unsigned char>(p[k])) << (8 * k);
    return true;
}

bool ByteReader::u64(std::uint64_t &out, const char *what)
{
    const char *p = nullptr;
    if (!take(8, what, p)) return false;
    out = 0;
    for (int k = 0; k < 8; ++k) out |= std::uint64_t(static_cast<unsigned char>(p[k])) << (8 * k);
    return true;
}

bool ByteReader::f32(float &out, const char *what)
{
    std::uint32_t bits = 0;
    if (!u32(bits, what)) return false;
    std::memcpy(&out, &bits, sizeof out);
    return true;
}

bool ByteReader::f64(double &out, const char *what)
{
    std::uint64_t bits = 0;
    if (!u64(bits, what)) return false;
    std::memcpy(&out, &bits, sizeof out);
    return true;
}

bool ByteReader::raw(std::size_t n, std::string_view &out, const char *what)
{
    const char *p = nullptr;
    if (!take(n, what, p)) return false;
    out = std::string_view(p, n);
    return true;
}

bool ByteReader::integer(int &out, const char *what, int min, int max)
{
    std::uint32_t bits = 0;
    if (!u32(bits, what)) return false;
    const auto v = std::int32_t(bits);
    if (v < min || v > max)
        return fail(std::string(what) + " must be an integer in [" + std::to_string(min) + ", " + std::to_string(max)
                    + "], got " + std::to_string(v));
    out = int(v);
    return true;
}

bool ByteReader::flag(bool &out, const char *what)
{
    std::uint8_t v = 0;
    if (!u8(v, what)) return false;
    if (v > 1) return fail(std::string(what) + " must be 0 or 1, got " + std::to_string(v));
    out = v != 0;
    return true;
}

bool ByteReader::count(std::size_t &out, const char *what, std::size_t max, std::size_t elementBytes)
{
    std::uint32_t n = 0;
    if (!u32(n, what)) return false;
    if (n > max)
        return fail(std::string(what) + " must hold at most " + std::to_string(max) + " elements, got "
                    + std::to_string(n));
    if (std::uint64_t(n) * elementBytes > remaining())
        return fail(std::string(what) + " claims " + std::to_string(n) + " elements ("
                    + std::to_string(std::uint64_t(n) * elementBytes) + " bytes), but only "
                    + std::to_string(remaining()) + " bytes follow");
    out = n;
    return true;
}

bool ByteReader::string(std::string &out, const char *what, std::size_t maxBytes)
{
    std::size_t n = 0;
    std::string_view bytes;
    if (!count(n, what, maxBytes, 1) || !raw(n, bytes, what)) return false;
    out.assign(bytes);
    return true;
}

bool ByteReader::doubles(std::vector<double> &out, const char *what, std::size_t max)
{
    std::size_t n = 0;
    if (!count(n, what, max, 8)) return false;
    out.resize(n);
    for (double &x : out) f64(x, what);
    return ok();
}

bool ByteReader::ints(std::vector<int> &out, const char *what, std::size_t max, int min, int maxValue)
{
    std::size_t n = 0;
    if (!count(n, what, max, 4)) return false;
    out.resize(n);
    for (int &x : out)
        if (!integer(x, what, min, maxValue)) return false;
    return true;
}

} // namespace fb
