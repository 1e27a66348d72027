#pragma once
// Seeded random tensors for the depth-and-gradients lab. Everything comes from fb::Rng (never
// Eigen::Random or std::rand), and every independent part of a computation (the input batch, layer
// l's weights, the training set, the held-out set ...) draws from its own stream, so one layer's
// weights do not depend on how many layers there are or on which thread drew them.
#include "core/numeric/rng.h"

#include <Eigen/Dense>

#include <cstdint>

namespace fb {

// The seed of stream `stream` of a computation seeded with `seed`: mix64 of seed + golden ratio *
// (stream + 1), the (stream + 1)-th output of splitmix64 started at seed. Not mixSeed's combination:
// the depth labs' figures were drawn from these seeds.
inline std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t stream)
{
    return mix64(seed + 0x9e3779b97f4a7c15ULL * (stream + 1));
}

// rows x cols entries N(0, sd^2), filled column by column.
inline Eigen::MatrixXd gaussianMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd)
{
    Eigen::MatrixXd m(rows, cols);
    double *p = m.data();
    for (Eigen::Index i = 0; i < m.size(); ++i) p[i] = sd * rng.normal();
    return m;
}

// rows x cols entries U(lo, hi), filled column by column.
inline Eigen::MatrixXd uniformMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double lo, double hi)
{
    Eigen::MatrixXd m(rows, cols);
    double *p = m.data();
    for (Eigen::Index i = 0; i < m.size(); ++i) p[i] = rng.uniform(lo, hi);
    return m;
}

} // namespace fb
