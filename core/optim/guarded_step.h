#pragma once
// One Adam step that cannot spoil the weights, as the toy trainer and the transformer take it after
// each backward pass: the gradient's norm must be finite, the gradient is clipped as
// torch.nn.utils.clip_grad_norm_ clips it, the weights before the update are kept in `good`, and
// the weights after it must be finite. The caller turns a fault into its divergence message and
// puts `good` back.
#include "core/optim/adam.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>

namespace fb {

enum class StepFault {
    None,
    GradientNotFinite,  // the gradient's norm is inf or nan: nothing was changed
    WeightNotFinite     // the update made a weight inf or nan: good holds the weights before it
};

struct GuardedStep {
    double gradNorm = 0.0;  // before clipping
    StepFault fault = StepFault::None;
};

// Calls f(begin, length) for consecutive blocks of at most chunk of [0, count), in order on the
// calling thread. A trainer passes its own (ParallelRunner::forBlocks) to share the blocks among threads.
struct SerialBlocks {
    template <typename F>
    void operator()(Eigen::Index count, Eigen::Index chunk, F &&f) const
    {
        for (Eigen::Index b = 0; b < count; b += chunk) f(b, std::min(chunk, count - b));
    }
};

// clip <= 0: no clipping. weightDecay > 0: AdamW, decaying the weights whose entry in decay is
// nonzero (decay empty: all). The step allocates nothing (good has the size of params). The vector is
// cut into at most kGuardedBlocks blocks fixed by its size alone, which forBlocks may run on several
// threads: the norm sums the blocks' sums in block order, so any thread count gives the same numbers.
// After the norm's pass, one pass updates each weight (clipping, good, decay, Adam and the finite check
// fused). The gradient itself is left as it was: clipping scales it inside the update.
inline constexpr Eigen::Index kGuardedBlocks = 64;

// The sum of x_i^2 over n scalars, in double, in 8 running sums (sum j takes the i with i mod 8 = j)
// added at the end: a loop the compiler vectorises (one running sum waited on each addition: a scalar
// loop at 1.4% of a text-size step).
template <typename S>
double squaredSum(const S *x, Eigen::Index n)
{
    constexpr Eigen::Index kLanes = 8;
    double lane[kLanes] = {};
    Eigen::Index i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (Eigen::Index j = 0; j < kLanes; ++j) lane[j] += double(x[i + j]) * double(x[i + j]);
    for (; i < n; ++i) lane[i % kLanes] += double(x[i]) * double(x[i]);
    double sum = 0.0;
    for (const double l : lane) sum += l;
    return sum;
}

template <typename S, typename ForBlocks = SerialBlocks>
GuardedStep guardedStep(Adam<S> &adam, Eigen::Matrix<S, Eigen::Dynamic, 1> &params,
                        const Eigen::Matrix<S, Eigen::Dynamic, 1> &grads, Eigen::Matrix<S, Eigen::Dynamic, 1> &good,
                        double clip, double lr, double weightDecay = 0.0,
                        const Eigen::Matrix<S, Eigen::Dynamic, 1> &decay = {}, const ForBlocks &forBlocks = {})
{
    const Eigen::Index n = params.size();
    // blocks of a multiple of 64 weights, at most kGuardedBlocks of them
    const Eigen::Index chunk = std::max<Eigen::Index>(64, ((n + kGuardedBlocks - 1) / kGuardedBlocks + 63) / 64 * 64);
    std::array<double, kGuardedBlocks> sums{};
    forBlocks(n, chunk, [&](Eigen::Index b, Eigen::Index len) {
        sums[std::size_t(b / chunk)] = squaredSum(grads.data() + b, len);
    });
    double squared = 0.0;
    for (const double s : sums) squared += s;
    const double norm = std::sqrt(squared);
    if (!std::isfinite(norm)) return { norm, StepFault::GradientNotFinite };
    S scale = S(1);
    if (clip > 0.0) {
        // torch.nn.utils.clip_grad_norm_: scale by clip / (norm + 1e-6) when that is below 1
        const double coef = clip / (norm + 1e-6);
        if (coef < 1.0) scale = S(coef);
    }
    const typename Adam<S>::Pass pass = adam.begin(lr, weightDecay > 0.0 ? weightDecay : 0.0, scale);
    const S *mask = weightDecay > 0.0 && decay.size() ? decay.data() : nullptr;
    std::array<char, kGuardedBlocks> finite{};
    forBlocks(n, chunk, [&](Eigen::Index b, Eigen::Index len) {
        finite[std::size_t(b / chunk)] = adam.update(pass, params.data(), grads.data(), good.data(), mask, b, len);
    });
    for (Eigen::Index b = 0; b * chunk < n; ++b)
        if (!finite[std::size_t(b)]) return { norm, StepFault::WeightNotFinite };
    return { norm, StepFault::None };
}

} // namespace fb
