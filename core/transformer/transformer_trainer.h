#pragma once
// Trains the tiny decoder-only transformer (core/transformer/transformer_net.h) live: Adam on the
// mean next-token cross entropy of freshly drawn batches, reporting every step and, through
// snapshots, what the lab draws (attention maps, induction scores, the feedback gate, held-out
// losses, text samples); then the held-out figures and the length-generalisation table.
// Callable from any thread; stopped and paused through one fb::RunControl.
#include "core/run/run_control.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_report.h"

#include <functional>
#include <string>

namespace fb {

// Runs one training.
//   onStep (may be empty): after every step, on the training thread.
//   onSnapshot (may be empty): before the first step, every probeEvery steps, whenever probeSeconds
//     passed since the last, and after the final evaluation. Snapshots are taken only when onSnapshot
//     is given and never change the training's numbers.
//   control (may be null): checked before every step. pause blocks (without spinning) until resume
//     or cancel; cancel stops with status cancelled (the held-out figures are still computed from
//     the weights reached); abandon stops and skips them (NaN, no model).
// A step whose loss is not finite or exceeds divergeLoss (0: 10 ln V), a non-finite gradient, or a
// final held-out loss above that limit stop the run as diverged and keep the last good weights (those
// that gave the last accepted step loss). Deterministic: the same config gives the same curve bit for
// bit, whatever the thread count, paused or not, observed or not. The step loop allocates nothing.
// Throws std::invalid_argument with checkTransformerConfig's sentence for a bad config.
TransformerResult trainTransformer(const TransformerConfig &config,
                                   const std::function<void(const TransformerProgress &)> &onStep = {},
                                   const std::function<void(const TransformerSnapshot &)> &onSnapshot = {},
                                   RunControl *control = nullptr);

// Samples `chars` characters of a model trained on the text task after prompt (UTF-8; characters
// outside the vocabulary read as <unk>; an empty prompt starts from a newline, or the most frequent
// character), with a KV cache. temperature 0 takes the most likely character; topK > 0 draws among
// the k most likely only. cache false recomputes the whole context for every character (the same
// characters, slower: what the cache saves). Throws std::invalid_argument when the model was not
// trained on text.
std::string sampleTransformerText(const TrainedTransformer &model, const std::string &prompt, int chars,
                                  double temperature, std::uint64_t seed, int topK = 0, bool cache = true);

} // namespace fb
