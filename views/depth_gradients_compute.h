#pragma once
// The depth lab's worker-side computation: a pure function of the parameter values (run on the
// lab's latest-wins worker) that returns everything the depth and time charts draw. It remembers
// the last result of each study, so moving a slider of one study does not recompute the other
// (at 200 layers of width 512 the depth study takes about a second), and the depth study's forward
// pass, so dragging the depth computes only the new layers and the backward pass.
#include "core/depth/depth_gradients.h"
#include "core/depth/time_gradients.h"
#include "core/param_spec.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

namespace fb {

// What the worker hands to the GUI thread.
struct DepthLabFrame {
    // Study 1: (layer l, ||dL/dx_l|| / ||dL/dx_L||)
    QList<QPointF> plain, residual;
    int depth = 0;
    DepthGradients depthNumbers;  // ratios and identity-path factors (per-layer vectors cleared)
    QString depthLabel;           // "tanh, σ = 0.577, w = 128"
    // Study 2: (step k, norm / norm at step T)
    QList<QPointF> rnn, lstmCell, lstmHidden, lstmCarousel;
    int seqLen = 0;
    int hidden = 0;
    double radius = 0.0, forgetBias = 0.0;
    TimeGradients timeNumbers;    // rates and ratios (per-step vectors cleared)
};

// Values smaller than this are left off the log charts (below double's normal range).
constexpr double kSmallestDrawn = 1e-300;

class DepthLabComputer {
public:
    // Computes (or reuses) both studies for values; throws std::invalid_argument on bad values.
    DepthLabFrame compute(const ParamValues &values);
    // How many times each study actually ran (tests).
    int depthRuns() const { return depthRuns_; }
    int timeRuns() const { return timeRuns_; }

private:
    std::mutex mutex_;
    std::optional<ParamValues> depthKey_, timeKey_;
    DepthLabFrame depthPart_, timePart_;
    // The depth study's forward pass and weights, reused when only the depth changes.
    DepthGradientsCache depthCache_;
    int depthRuns_ = 0, timeRuns_ = 0;
};

} // namespace fb
