#pragma once
// What position does inside a trained head: its mean pre-softmax logit scale * q_i . k_j as a
// function of the offset delta = i - j between query and key, averaged over every (query, key)
// pair of that offset in every sequence given (after training: the held-out set). Under RoPE the dot
// product is a sum over the head's dh/2 rotated pairs (2p, 2p+1), pair p turning at theta_p =
// base^(-2p/dh) per position, so the profile splits into one curve per frequency:
//   profile[delta] = sum_p pairs[p][delta],  pairs[p][delta] = mean of scale (q_2p k_2p + q_2p+1 k_2p+1)
// Under sinusoidal or no positions the same split is only a split of features; it is reported for
// RoPE alone.
//
// Cost of one add(): L * B * H * P (P + 1) / 2 * dh multiply-adds for B sequences of P positions
// (the held-out set at the defaults: about 8 million).
#include "core/transformer/transformer_workspace.h"

#include <vector>

namespace fb {

class OffsetProfile {
public:
    // positions: P, the input positions of the sequences that will be added (delta = 0 .. P - 1).
    OffsetProfile(int layers, int heads, int dHead, int positions);

    // After a forward pass over ws.B sequences of ws.T = P positions: adds every (query, key) pair.
    // scale: the attention logits' (PositionTables::scale).
    void add(const TransformerWorkspace<float> &ws, float scale);

    // [layer][head][delta] the mean logit; [layer][head][pair][delta] each pair's share.
    std::vector<std::vector<std::vector<double>>> profile() const;
    std::vector<std::vector<std::vector<std::vector<double>>>> pairs() const;

private:
    double &sum(int l, int h, int p, int delta) { return sums_[std::size_t(((l * H_ + h) * pairs_ + p) * P_ + delta)]; }
    double sumAt(int l, int h, int p, int delta) const
    {
        return sums_[std::size_t(((l * H_ + h) * pairs_ + p) * P_ + delta)];
    }

    int L_, H_, dh_, pairs_, P_;
    std::vector<double> sums_;       // (L, H, pairs, P)
    std::vector<long long> counts_;  // (P): pairs (i, i - delta) added, the same for every head
};

} // namespace fb
