#pragma once
// The three matrix products of a linear layer over (C, N) activations, cut into the fixed pieces of
// ParallelRunner (column blocks for the forward product and the input gradient, row or column
// blocks of the weight for its gradient), so that one thread and several compute the same numbers.
#include "core/training/layers.h"
#include "core/transformer/parallel_runner.h"

namespace fb::nn {

// Rows (or columns) of a weight gradient per piece.
constexpr Eigen::Index kWeightChunk = 64;

// out is (OC, N), weight is (OC, C), inp is (C, N): out = weight * inp, or += when accumulate
template <typename S>
void product_forward(const ParallelRunner &par, Out<S> out, const In<S> &weight, const In<S> &inp, bool accumulate)
{
    par.forColumns(0, out.cols(), [&](Eigen::Index c, Eigen::Index n) {
        if (accumulate) out.middleCols(c, n).noalias() += weight * inp.middleCols(c, n);
        else out.middleCols(c, n).noalias() = weight * inp.middleCols(c, n);
    });
}

// dinp is (C, N), weight is (OC, C), dout is (OC, N)
template <typename S>
void product_backward_inp(const ParallelRunner &par, Out<S> dinp, const In<S> &weight, const In<S> &dout,
                          bool accumulate)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(inp) = weight' * d(L)/d(out)
    par.forColumns(0, dinp.cols(), [&](Eigen::Index c, Eigen::Index n) {
        if (accumulate) dinp.middleCols(c, n).noalias() += weight.transpose() * dout.middleCols(c, n);
        else dinp.middleCols(c, n).noalias() = weight.transpose() * dout.middleCols(c, n);
    });
}

// dweight is (OC, C), dout is (OC, N), inp is (C, N)
template <typename S>
void product_backward_weight(const ParallelRunner &par, Out<S> dweight, const In<S> &dout, const In<S> &inp)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(weight) = d(L)/d(out) * inp', in pieces of the longer side of the weight
    if (dweight.rows() >= dweight.cols()) {
        par.forBlocks(dweight.rows(), kWeightChunk, [&](Eigen::Index r, Eigen::Index n) {
            dweight.middleRows(r, n).noalias() += dout.middleRows(r, n) * inp.transpose();
        });
    } else {
        par.forBlocks(dweight.cols(), kWeightChunk, [&](Eigen::Index c, Eigen::Index n) {
            dweight.middleCols(c, n).noalias() += dout * inp.middleRows(c, n).transpose();
        });
    }
}

// dbias is (OC), dout is (OC, N)
template <typename S>
void bias_backward(VecOut<S> dbias, const In<S> &dout)
{
    // in the forward pass this was: out = bias (broadcast over columns) + ...
    // d(L)/d(bias) = sum over columns of d(L)/d(out)
    dbias += dout.rowwise().sum();
}

} // namespace fb::nn
