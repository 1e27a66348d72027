#pragma once
// One head's inputs for the linear mixers' kernels (core/transformer/linear_mixer.h), drawn from a
// seed: the head-level tests of tst_linear_mixers and tst_mixer_kernels.
#include "core/numeric/rng.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/linear_mixer.h"

#include <Eigen/Dense>

#include <cstdint>

namespace fb::test {

// The finite-difference check of both tests: each tensor's gradient within kMixerTol (relative), up
// to kMixerEntries entries per tensor, central differences of step kMixerStep. The gated delta rule's
// loss bends sharply along the feedback's fusion weights (a gradient of 29 there): with h = 1e-4,
// 1e-5 and 1e-6 the largest error of the exact-feedback row is 4.1e-3, 1.9e-6 and 5.2e-8, falling as
// h^2, the differences' own truncation error; h = 1e-6 measures the backward pass, not the step.
inline constexpr double kMixerTol = 1e-6;
inline constexpr int kMixerEntries = 16;
inline constexpr double kMixerStep = 1e-6;

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

// The buffers a head of d_head dh over T positions writes (states, denominators, the gates'
// gradients, the backward's carry and the chunked form's scratch), and the MixerHead over them.
template <typename S>
struct HeadBuffers {
    using V = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    V states, zden, dbeta, dalpha, dS, dz, work;
    HeadBuffers(Eigen::Index dh, Eigen::Index T)
        : states(V::Zero(dh * dh * T)), zden(V::Zero((dh + 1) * T)), dbeta(V::Zero(T)), dalpha(V::Zero(T)),
          dS(V::Zero(dh * dh)), dz(V::Zero(dh)), work(V::Zero(nn::chunkedMixerWork(dh)))
    {
    }
    // beta and alpha (one per position, stride 1) are the caller's; chunked: with the scratch
    nn::MixerHead<S> head(Mixer kind, Eigen::Index dh, const S *beta, const S *alpha, bool chunked)
    {
        nn::MixerHead<S> m;
        m.kind = kind;
        m.dh = dh;
        m.states = states.data();
        m.zden = zden.data();
        m.beta = beta;
        m.alpha = alpha;
        m.dbeta = dbeta.data();
        m.dalpha = dalpha.data();
        m.gateStride = 1;
        m.dS = dS.data();
        m.dz = dz.data();
        m.work = chunked ? work.data() : nullptr;
        return m;
    }
};

} // namespace fb::test
