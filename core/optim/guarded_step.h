#pragma once
// One Adam step that cannot spoil the weights, as the toy trainer and the transformer take it after
// each backward pass: the gradient's norm must be finite, the gradient is clipped as
// torch.nn.utils.clip_grad_norm_ clips it, the weights before the update are kept in `good`, and
// the weights after it must be finite. The caller turns a fault into its divergence message and
// puts `good` back.
#include "core/optim/adam.h"

#include <Eigen/Core>

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

// clip <= 0: no clipping. weightDecay > 0: AdamW, decaying the weights whose entry in decay is
// nonzero (decay empty: all). The step allocates nothing (good has the size of params).
template <typename S>
GuardedStep guardedStep(Adam<S> &adam, Eigen::Matrix<S, Eigen::Dynamic, 1> &params,
                        Eigen::Matrix<S, Eigen::Dynamic, 1> &grads, Eigen::Matrix<S, Eigen::Dynamic, 1> &good,
                        double clip, double lr, double weightDecay = 0.0,
                        const Eigen::Matrix<S, Eigen::Dynamic, 1> &decay = {})
{
    const double norm = grads.template cast<double>().norm();
    if (!std::isfinite(norm)) return { norm, StepFault::GradientNotFinite };
    if (clip > 0.0) {
        // torch.nn.utils.clip_grad_norm_: scale by clip / (norm + 1e-6) when that is below 1
        const double coef = clip / (norm + 1e-6);
        if (coef < 1.0) grads *= S(coef);
    }
    good = params;
    if (weightDecay > 0.0) adam.step(params, grads, lr, weightDecay, decay);
    else adam.step(params, grads, lr);
    if (!params.array().isFinite().all()) return { norm, StepFault::WeightNotFinite };
    return { norm, StepFault::None };
}

} // namespace fb
