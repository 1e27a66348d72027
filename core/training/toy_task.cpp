#include "core/training/toy_task.h"

#include <cmath>

namespace fb {

void ToyBatch::resize(int b, int t)
{
    batch = b;
    seqLen = t;
    obs.resize(2, Eigen::Index(b) * t);
    increments.resize(Eigen::Index(b) * t);
    yPrev.assign(std::size_t(b) * t, 0);
    y.assign(std::size_t(b) * t, 0);
}

void makeToyBatch(Rng &rng, int buckets, ToyBatch &out)
{
    const int B = out.batch;
    for (int b = 0; b < B; ++b) {
        double z = rng.uniform();  // z0
        for (int t = 0; t < out.seqLen; ++t) {
            const std::size_t n = std::size_t(t) * B + b;
            const double a = rng.uniform();
            out.yPrev[n] = toyBucket(z, buckets);
            z += a;              // z_t = (z_{t-1} + a_t) mod 1, with both terms in [0, 1)
            if (z >= 1.0) z -= 1.0;
            out.y[n] = toyBucket(z, buckets);
            out.increments[Eigen::Index(n)] = float(a);
        }
    }
    const Eigen::Index n = out.columns();
    out.obs.row(0) = (float(2.0 * M_PI) * out.increments.head(n)).cos().matrix().transpose();
    out.obs.row(1) = (float(2.0 * M_PI) * out.increments.head(n)).sin().matrix().transpose();
}

} // namespace fb
