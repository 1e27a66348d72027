#pragma once
// Fast exact standard normals from fb::Rng: the ziggurat method of Marsaglia and Tsang (2000),
// 128 strips, in the form of Doornik (2005, "An improved ziggurat method to generate normal random
// samples"), with one 64-bit draw per try (7 bits pick the strip, 53 bits the abscissa). About five
// times faster than Rng::normal()'s Box-Muller, which matters when a 200-layer, 512-wide stack
// needs 50 million weights drawn (twice: once forward, once backward, to avoid storing them).
#include "core/numeric/rng.h"

#include <array>
#include <cmath>

namespace fb {

class Ziggurat {
public:
    // The standard normal N(0, 1).
    static double normal(Rng &rng)
    {
        const Tables &t = tables();
        for (;;) {
            const std::uint64_t bits = rng.next();
            const int i = int(bits & 127u);
            const double u = 2.0 * (double(bits >> 11) * 0x1.0p-53) - 1.0;  // [-1, 1)
            if (std::fabs(u) < t.ratio[i]) return u * t.x[i];              // inside the strip's core
            if (i == 0) return tail(rng, u < 0.0);                          // the base strip's tail
            const double x = u * t.x[i];
            const double f0 = std::exp(-0.5 * (t.x[i] * t.x[i] - x * x));
            const double f1 = std::exp(-0.5 * (t.x[i + 1] * t.x[i + 1] - x * x));
            if (f1 + rng.uniform() * (f0 - f1) < 1.0) return x;            // under the curve's wedge
        }
    }

private:
    static constexpr int kStrips = 128;
    static constexpr double kR = 3.442619855899;           // start of the tail
    static constexpr double kV = 9.91256303526217e-3;      // area of each strip

    struct Tables {
        std::array<double, kStrips + 1> x {};
        std::array<double, kStrips> ratio {};
        Tables()
        {
            double f = std::exp(-0.5 * kR * kR);
            x[0] = kV / f;  // the base strip, tail included, as a rectangle of area V
            x[1] = kR;
            x[kStrips] = 0.0;
            for (int i = 2; i < kStrips; ++i) {
                x[i] = std::sqrt(-2.0 * std::log(kV / x[i - 1] + f));
                f = std::exp(-0.5 * x[i] * x[i]);
            }
            for (int i = 0; i < kStrips; ++i) ratio[i] = x[i + 1] / x[i];
        }
    };
    static const Tables &tables()
    {
        static const Tables t;
        return t;
    }

    // Marsaglia (1964): a sample of the normal beyond kR.
    static double tail(Rng &rng, bool negative)
    {
        double x, y;
        do {
            x = std::log(1.0 - rng.uniform()) / kR;  // 1 - U is in (0, 1]
            y = std::log(1.0 - rng.uniform());
        } while (-2.0 * y < x * x);
        return negative ? x - kR : kR - x;
    }
};

} // namespace fb
