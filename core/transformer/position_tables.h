#pragma once
// The positional tables one forward pass reads (218.4.3, 218.4.4 of 000_031aadcae6604a46.txt): the
// sinusoidal table added to the input, RoPE's cos and sin for the queries and keys of every head, or
// ALiBi's slopes (Press et al.: m_h = 2^(-8h/H), h = 1..H),
// and the scale of the attention logits. Built once per evaluation setting (training: plain RoPE;
// length generalisation: RoPE rescaled by PI, NTK-aware or YaRN through core/rope/context_extension),
// never inside the step loop.
#include "core/attention/attention.h"
#include "core/rope/context_extension.h"
#include "core/training/layers.h"

#include <vector>

namespace fb {

template <typename S>
struct PositionTables {
    PositionalScheme scheme = PositionalScheme::None;
    Eigen::Index length = 0;  // positions covered: 0 .. length-1
    nn::Mat<S> pe;            // sinusoidal: (d, length), column m = PE(m, .)
    nn::Mat<S> cos, sin;      // RoPE: (d/2, length), row h*dh/2 + i = pair i of head h at angle m theta_i
    S scale = S(1);           // attention logits: 1/sqrt(dh), times YaRN's attention factor squared
    std::vector<S> slopes;    // ALiBi: (H), head h's bias -slopes[h] (i - j) on the scaled logits; else empty

    // The ALiBi slope of head h, 0 without ALiBi.
    S slope(Eigen::Index h) const { return slopes.empty() ? S(0) : slopes[std::size_t(h)]; }

    // scheme and base as trained; ext rescales RoPE's frequencies (ext.trainedLength = the training
    // T, ext.factor = the evaluated length over T). A sinusoidal or absent scheme ignores ext.
    void build(PositionalScheme scheme, int dModel, int heads, double base, Eigen::Index length,
               const ContextExtension &ext = {});
};

extern template struct PositionTables<float>;
extern template struct PositionTables<double>;

} // namespace fb
