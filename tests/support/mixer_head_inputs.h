#pragma once
// One head's inputs for the linear mixers' kernels (core/transformer/linear_mixer.h), drawn from a
// seed: the head-level tests of tst_linear_mixers and tst_mixer_kernels.
#include "core/numeric/rng.h"

#include <Eigen/Dense>

#include <cstdint>

namespace fb::test {

// One head's inputs, drawn: q, k, v (dh, T), beta and alpha in (0, 1).
struct HeadInputs {
    Eigen::MatrixXd q, k, v;
    Eigen::VectorXd beta, alpha;
    HeadInputs(Eigen::Index dh, Eigen::Index T, std::uint64_t seed)
    {
        Rng rng(seed);
        auto draw = [&](Eigen::MatrixXd &m) {
            m.resize(dh, T);
            for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
        };
        draw(q);
        draw(k);
        draw(v);
        beta.resize(T);
        alpha.resize(T);
        for (Eigen::Index t = 0; t < T; ++t) {
            beta[t] = 0.1 + 0.8 * rng.uniform();
            alpha[t] = 0.5 + 0.5 * rng.uniform();
        }
    }
};

} // namespace fb::test
