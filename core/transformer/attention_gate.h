#pragma once
// The gated attention of 004_21534ea083b6ce9c.txt's "Recent Developments" (Qiu et al., NeurIPS 2025):
// a head-specific elementwise sigmoid gate on the output of scaled dot-product attention,
//   o = SDPA(q, k, v) * sigmoid(W_theta LN1(x)),   W_theta (d, d) per layer,
// which lets a head output (almost) nothing without parking its attention on the first token: the
// attention sink. Forward/backward pair in the style of transformer_layers.h (llm.c); the product
// W_theta LN1(x) and its gradients are the stack's (chunked_products.h).
#include "core/transformer/transformer_layers.h"

#include <cmath>

namespace fb::nn {

// out is (d, n): the gated output, gate is (d, n): W_theta ln1 on entry, sigmoid of it on return
// (kept for the backward pass), sdpa is (d, n): every head's attention output
template <typename S>
void attention_gate_forward(Out<S> out, Out<S> gate, const In<S> &sdpa)
{
    gate = (S(1) + (-gate.array()).exp()).inverse().matrix();
    out = sdpa.cwiseProduct(gate);
}

// d is (d, n): d(L)/d(out) on entry, d(L)/d(sdpa) on return; dpre is (d, n): receives d(L)/d(W_theta ln1);
// sdpa and gate are (d, n) from the forward
template <typename S>
void attention_gate_backward(Out<S> d, Out<S> dpre, const In<S> &sdpa, const In<S> &gate)
{
    // in the forward pass this was: out = sdpa * g, g = sigmoid(pre)
    // d(L)/d(pre) = d(L)/d(out) * sdpa * g (1 - g);  d(L)/d(sdpa) = d(L)/d(out) * g
    dpre = (d.array() * sdpa.array() * gate.array() * (S(1) - gate.array())).matrix();
    d = d.cwiseProduct(gate);
}

} // namespace fb::nn
