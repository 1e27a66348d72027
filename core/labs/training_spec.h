#pragma once
// The latent-feedback training's parameters (`fullband train` and the training lab's panel): keys,
// ranges and defaults, the chapter's values for Figure 218.2 (000_031aadcae6604a46.txt, 218.6.5).
#include "core/lab/param_spec.h"
#include "core/training/trainer.h"

#include <string>

namespace fb {

// Keys: arm (token-only|latent-feedback|both), steps, batch, lr, seq_len, buckets, d_emb, d_hid,
// d_fuse, passes, seed, clip. trainFrom fills config (arm "both" sets bothArms).
const LabSpec &trainSpec();
std::string trainFrom(const ParamValues &v, TrainConfig &out, bool &bothArms);

} // namespace fb
