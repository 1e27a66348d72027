#pragma once
// From the training lab's parameter values to the runs it starts, and the names people read for
// them in the table, the legend and on ghost curves.
#include "core/training/trainer.h"
#include "core/labs/training_spec.h"

#include <QString>

#include <vector>

namespace fb {

// One config per arm to train, token-only first when the arm is "both". Throws
// std::invalid_argument with trainFrom's message for values it refuses.
std::vector<TrainConfig> trainingConfigs(const ParamValues &values);

// "token-only, seed 0", "latent k=2, seed 0", "latent exact, seed 0".
QString ghostLabel(const TrainConfig &config);
// "token-only, seed 0", "latent-feedback (k = 2), seed 0", "latent-feedback (exact), seed 0".
QString runLabel(const TrainConfig &config);
// Every setting of config in one string: two runs with the same key give the same numbers
QString runKey(const TrainConfig &config);
// The settings a run's label leaves out, for its tooltip: "220 steps, batch 128, lr 0.008, T 16, ..."
QString runSettings(const TrainConfig &config);
// "token-only feedback", "latent feedback (exact)", "latent feedback, k = 2" (legend).
QString legendName(const TrainConfig &config);

} // namespace fb
