#pragma once
// Seeded, portable random numbers for every FullBand computation.
// xoshiro256** seeded through splitmix64; normals by Box-Muller. Same seed, same numbers,
// on every machine and compiler (unlike std::normal_distribution or Eigen::Random).
#include <cmath>
#include <cstdint>

namespace fb {

// splitmix64's finaliser (Steele, Lea & Flood, OOPSLA 2014): a bijection of 64-bit words that
// spreads every input bit over the whole output. The one mixing step of every seed below.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A well-mixed seed from two numbers, mix64(a ^ (b * golden ratio + c)): an independent stream b of
// seed a (a head's weights, a chunk's draws), the same whatever else the computation draws.
constexpr std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b)
{
    return mix64(a ^ (b * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
}

class Rng {
public:
    explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

    void reseed(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for (auto &s : state_) s = splitmix64(x);
        hasSpare_ = false;
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform in [0, 1), 53 random bits.
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }

    // Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

    // Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }

    // Standard normal (Box-Muller, both values used).
    double normal()
    {
        if (hasSpare_) {
            hasSpare_ = false;
            return spare_;
        }
        double u1 = uniform();
        while (u1 <= 0.0) u1 = uniform();
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 2.0 * M_PI * u2;
        spare_ = r * std::sin(a);
        hasSpare_ = true;
        return r * std::cos(a);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix64(std::uint64_t &x)
    {
        return mix64(x += 0x9e3779b97f4a7c15ULL);
    }

    std::uint64_t state_[4] {};
    double spare_ = 0.0;
    bool hasSpare_ = false;
};

} // namespace fb
