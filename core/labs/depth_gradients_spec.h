#pragma once
// The "Depth and gradients" lab's parameters (sections 218.1 and 218.2): keys, labels, units, ranges,
// defaults, and their conversion into the four studies' parameter structs. Shared by the lab's
// panel, `fullband compute depth-gradients|rnn-gradients` and `fullband train --set task=lstm-vs-mean`.
#include "core/cells/residual_block_cell.h"
#include "core/depth/depth_gradients.h"
#include "core/depth/lstm_classifier.h"
#include "core/depth/time_gradients.h"
#include "core/lab/param_spec.h"

#include <string>
#include <vector>

namespace fb {

enum class DepthStudy { Depth, Block, Time, Classifier };
std::string depthStudyName(DepthStudy s);  // "depth" | "block" | "time" | "classifier"

// Keys: study (depth|block|time|classifier), depth, width, activation (relu|tanh), norm (0|1),
// init_scale, seed, blocks, branch_gain, seq_len, hidden, radius, forget_bias, steps, batch, lr.
const LabSpec &depthLabSpec();

struct DepthLabConfig {
    DepthStudy study = DepthStudy::Depth;
    DepthStackParams stack;        // depth, width, activation, norm, init_scale, seed
    ResidualBlockParams block;     // the chapter's residual block cell (218.1): seed, blocks, branch_gain
    TimeGradientParams time;       // seq_len, hidden, radius, forget_bias, seed
    ClassifierConfig classifier;   // steps, batch, lr, hidden, seed (vocab 20, length 10, embed 16)
};

// Checks every value against depthLabSpec(); on success fills out and returns an empty string,
// otherwise returns a message naming the key and its valid range and leaves out unchanged.
std::string depthLabFrom(const ParamValues &v, DepthLabConfig &out);

// The command line's `fullband train --set task=lstm-vs-mean`: task (lstm-vs-mean), arm
// (lstm|mean-pooling|both), steps, batch, lr, seed, hidden, embed, vocab, seq_len, heldout.
const LabSpec &lstmVsMeanSpec();
std::string lstmVsMeanFrom(const ParamValues &v, ClassifierConfig &out, std::vector<ClassifierArm> &arms);

} // namespace fb
