#pragma once
// How long a transformer training will take, said before it starts: the FLOPs of its matrix products
// (transformerFlopsPerStep, times the steps) over the speed this machine multiplies matrices of the
// model's width. Elementwise work and the evaluations are not counted, so it is a lower estimate of
// the right order, "about 25 min", not a promise. And how many threads a run may really use.
#include "core/transformer/transformer_config.h"

#include <string>

namespace fb {

// Cores oneTBB may use in this process (affinity and cgroup limits included), at least 1.
int availableCores();

// Floating-point operations per second of one thread multiplying float matrices d_model wide in the
// trainer's column blocks; measured once per process and width (about 0.1 s), then remembered.
double measuredFlopsPerSecond(int dModel);

// Seconds of the run's matrix products at flopsPerSecond per thread, its threads (at most
// availableCores()) all busy: steps x transformerFlopsPerStep / (flopsPerSecond x threads).
double transformerExpectedSeconds(const TransformerConfig &config, double flopsPerSecond);

// "about 25 min (1500 steps of 3.1e11 floating-point operations at 2.4e10 per second)": the line the
// command line prints before a long run, and the window shows beside Start. Measures the speed
// (measuredFlopsPerSecond) the first time it is asked for a width.
std::string transformerExpectedText(const TransformerConfig &config);

} // namespace fb
