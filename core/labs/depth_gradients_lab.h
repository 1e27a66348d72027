#pragma once
// Lab: depth and gradients (218.1 and 218.2 of 000_031aadcae6604a46.txt). Study 1: gradient norm per
// layer through a plain and a residual stack on the same weights; the chapter's residual block cell
// (218.1, core/labs/residual_block_lab.h): its input gradient through the identity and the branch;
// study 2: gradients through time in an RNN and an LSTM. (Study 3, the LSTM against mean pooling trained live, runs on its own worker:
// core/depth/lstm_classifier.h.) Parameters: core/labs/depth_gradients_spec.h.
#include "core/depth/depth_gradients.h"
#include "core/labs/depth_gradients_spec.h"
#include "core/depth/time_gradients.h"
#include "core/lab/lab.h"
#include "core/labs/residual_block_lab.h"

#include <optional>
#include <vector>

namespace fb {

// Values smaller than this are left off the log charts (below double's normal range).
constexpr double kSmallestDrawn = 1e-300;

// (index k, values[k] / reference) for the k where the ratio is finite and at least kSmallestDrawn:
// what a log chart can show of a gradient curve.
struct RelativeCurve {
    std::vector<double> index;
    std::vector<double> ratio;
};
RelativeCurve relativeCurve(const std::vector<double> &values, double reference);

struct DepthGradientsLabResult {
    DepthLabConfig config;
    // Study 1: ||dL/dx_l|| / ||dL/dx_L|| per layer, plain and residual.
    RelativeCurve plain, residual;
    DepthGradients depthNumbers;  // ratios and identity-path factors (per-layer vectors cleared)
    // The chapter's residual block cell at the lab's seed, blocks and branch gain.
    ResidualBlockLabResult block;
    // Study 2: gradient norm at step k / at step T; the carousel relative to dL/dc_T.
    RelativeCurve rnn, lstmCell, lstmHidden, lstmCarousel;
    TimeGradients timeNumbers;    // rates and ratios (per-step vectors cleared)
    double rnnLogFactor = 0;      // ln(radius · mean tanh'): the predicted RNN rate
};

class DepthGradientsLab {
public:
    using Result = DepthGradientsLabResult;
    static const LabSpec &spec();  // depthLabSpec()
    static std::string check(const ParamValues &values);
    // The command line prints the study in focus: the depth or the time study's gradients, or the
    // classifier trained (core/depth/depth_json.h).
    static LabDefinition definition();
    // Remembers the last result of each study, so moving a slider of one study does not recompute
    // the others (at 200 layers of width 512 the depth study takes about a second), and the depth
    // study's forward pass, so dragging the depth computes only the new layers and the backward pass.
    Result compute(const ParamValues &values, const RunControl &stop);
    // How many times each study actually ran (tests).
    int depthRuns() const { return depthRuns_; }
    int timeRuns() const { return timeRuns_; }
    int blockRuns() const { return blockRuns_; }

private:
    std::optional<ParamValues> depthKey_, timeKey_, blockKey_;
    Result depthPart_, timePart_;
    ResidualBlockLabResult blockPart_;
    DepthGradientsCache depthCache_;  // the forward pass and weights, reused when only the depth changes
    int depthRuns_ = 0, timeRuns_ = 0, blockRuns_ = 0;
};

} // namespace fb
