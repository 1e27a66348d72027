#pragma once
// What mixes the positions inside a block (004_21534ea083b6ce9c.txt, "Hybrid linear-attention
// models"): softmax attention, whose KV cache grows with the context, or one of the linear mixers,
// which keep a fixed d_head x d_head state per head and update it token by token
// (core/transformer/linear_mixer.h):
//   linear          S_t = S_{t-1} + phi(k_t) v_t', out = S_t' phi(q_t) / (z_t' phi(q_t)),
//                   phi = elu + 1 (Katharopoulos et al. 2020)
//   deltanet        S_t = S_{t-1} - beta_t (S_{t-1} k_t - v_t) k_t', keys L2-normalised,
//                   beta_t = sigmoid(w_beta . x_t) (Schlag et al. 2021; Yang et al. 2024)
//   gated-deltanet  S_t = alpha_t (S_{t-1} - beta_t (S_{t-1} k_t - v_t) k_t'),
//                   alpha_t = sigmoid(w_alpha . x_t + b_alpha) (Yang et al., ICLR 2025)
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

enum class Mixer : std::uint8_t { Softmax, Linear, DeltaNet, GatedDeltaNet };

// "softmax" | "linear" | "deltanet" | "gated-deltanet"
std::string mixerName(Mixer m);
bool parseMixer(const std::string &text, Mixer &out);

// The key mixer: one name for every layer, or a comma-separated list of one name per layer
// ("gated-deltanet,gated-deltanet,gated-deltanet,softmax"). Fills out with `layers` entries and
// returns "", or one sentence naming what is wrong and what is valid (out unchanged).
std::string parseMixers(const std::string &text, int layers, std::vector<Mixer> &out);

// The values a linear mixer keeps per sequence, whatever the length: heads x d_head x d_head for its
// state, plus heads x d_head for linear attention's normaliser z (0 for softmax attention, whose
// cache grows with the length instead). The one count the comparison's state bytes
// (transformerStateBytes) and the writing panel's cache (TextWriter) both use.
double mixerStateValues(Mixer m, int heads, double dHead);

// The list's own text: "softmax" when every layer is softmax, one name when all agree, else the list.
std::string mixersText(const std::vector<Mixer> &mixers);

} // namespace fb
