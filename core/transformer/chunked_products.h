#pragma once
// The matrix products of the transformer, cut into tiles of outputs and of the inner dimension
// (Tiles in chunked_products.cpp) when their tiles are shared among threads, and, for the double
// products Eigen runs, on the calling thread too (float's kernel, gemm_kernel.h, blocks the inner
// dimension itself and is called once there). Two reasons (the first is Eigen's):
//  - Eigen's product packs its operands into blocks of up to (rows x inner) and (inner x cols); it
//    puts them on the stack when they fit EIGEN_STACK_ALLOCATION_LIMIT (512 KiB here, core/CMakeLists.txt) and allocates them
//    on the heap otherwise (W2's product at N = 256 columns did, 24 times a step). Tiles keep every
//    block under the limit for any model size, so no pass allocates.
//  - the tiles are fixed by the shapes alone, and each writes its own outputs (the inner tiles of one
//    output tile run in order on one thread), so one thread and several compute the same numbers.
#include "core/training/layers.h"
#include "core/transformer/gemm_epilogue.h"
#include "core/transformer/parallel_runner.h"

#include <algorithm>

namespace fb::nn {

// out (+)= op(a) * op(b), where op(x) is x, or x' when its flag is set (never both), then post's
// epilogue on every element when set (gemm_epilogue.h: its pointers address out's (0, 0)): the products
// themselves, tile by tile (chunked_products.cpp), on par's threads, or on the calling thread when par
// is null. Float runs FullBand's own kernel (gemm_kernel.h), double Eigen's GEMM, compiled once in one
// file instead of each caller instantiating it for its own expression types (half the compile time
// of the transformer's two largest files). Operands are viewed in place when they are column-major
// blocks or maps with inner stride 1, or the transpose of one; anything else (a cast) is copied into
// a temporary, which allocates: only the double model's observation gradient does
// (transformer_net.cpp, gradient checks).
template <typename S>
void gemm(const ParallelRunner *par, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate,
          const GemmEpilogue<S> *post = nullptr);
extern template void gemm<float>(const ParallelRunner *, Out<float>, const In<float> &, bool, const In<float> &, bool,
                                 bool, const GemmEpilogue<float> *);
extern template void gemm<double>(const ParallelRunner *, Out<double>, const In<double> &, bool, const In<double> &,
                                  bool, bool, const GemmEpilogue<double> *);

// The tiles of a product one at a time, for a caller that shares the tiles of several products among
// its threads in one loop (TransformerStack::backwardParams): gemm_tiles is their count for an (M, N)
// output over K, gemm_tile(t, ...) computes tile t. The tiles are as few as fit: the other products'
// tiles keep the threads busy, and every extra tile repeats the call's setup (for Eigen's double
// products, it packs an operand again). Float's numbers do not depend on the tiles.
template <typename S>
Eigen::Index gemm_tiles(Eigen::Index M, Eigen::Index N, Eigen::Index K);
template <typename S>
void gemm_tile(Eigen::Index t, Out<S> out, const In<S> &a, bool ta, const In<S> &b, bool tb, bool accumulate);
extern template Eigen::Index gemm_tiles<float>(Eigen::Index, Eigen::Index, Eigen::Index);
extern template Eigen::Index gemm_tiles<double>(Eigen::Index, Eigen::Index, Eigen::Index);
extern template void gemm_tile<float>(Eigen::Index, Out<float>, const In<float> &, bool, const In<float> &, bool, bool);
extern template void gemm_tile<double>(Eigen::Index, Out<double>, const In<double> &, bool, const In<double> &, bool,
                                       bool);

// An operand as gemm takes it: a transpose is passed as the matrix it transposes, with its flag set,
// so the product reads it in place (a view of the transpose would be a copy).
template <typename X>
struct GemmOperand {
    static const X &base(const X &x) { return x; }
    static constexpr bool transposed = false;
};
template <typename X>
struct GemmOperand<Eigen::Transpose<X>> {
    static const auto &base(const Eigen::Transpose<X> &x) { return x.nestedExpression(); }
    static constexpr bool transposed = true;
};

// out (+)= lhs * rhs on the calling thread. out is (M, N), lhs is (M, K), rhs is (K, N), as gemm
// takes them (a block, a map, the transpose of one)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product(Dst &&out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    static_assert(!(GemmOperand<Lhs>::transposed && GemmOperand<Rhs>::transposed), "transpose the product instead");
    gemm<S>(nullptr, out, GemmOperand<Lhs>::base(lhs), GemmOperand<Lhs>::transposed, GemmOperand<Rhs>::base(rhs),
            GemmOperand<Rhs>::transposed, accumulate);
}

// The same, then post's epilogue on every element of out (gemm_epilogue.h), its pointers addressing
// out's (0, 0)
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product(Dst &&out, const Lhs &lhs, const Rhs &rhs, bool accumulate, const GemmEpilogue<S> &post)
{
    static_assert(!(GemmOperand<Lhs>::transposed && GemmOperand<Rhs>::transposed), "transpose the product instead");
    gemm<S>(nullptr, out, GemmOperand<Lhs>::base(lhs), GemmOperand<Lhs>::transposed, GemmOperand<Rhs>::base(rhs),
            GemmOperand<Rhs>::transposed, accumulate, &post);
}

// The same with the output tiles shared among par's threads.
template <typename S, typename Dst, typename Lhs, typename Rhs>
void product(const ParallelRunner &par, Dst &&out, const Lhs &lhs, const Rhs &rhs, bool accumulate)
{
    static_assert(!(GemmOperand<Lhs>::transposed && GemmOperand<Rhs>::transposed), "transpose the product instead");
    gemm<S>(&par, out, GemmOperand<Lhs>::base(lhs), GemmOperand<Lhs>::transposed, GemmOperand<Rhs>::base(rhs),
            GemmOperand<Rhs>::transposed, accumulate);
}

// out is (OC, N), weight is (OC, C), inp is (C, N): out = weight * inp, or += when accumulate
template <typename S>
void product_forward(const ParallelRunner &par, Out<S> out, const In<S> &weight, const In<S> &inp, bool accumulate)
{
    product<S>(par, out, weight, inp, accumulate);
}

// dinp is (C, N), weight is (OC, C), dout is (OC, N)
template <typename S>
void product_backward_inp(const ParallelRunner &par, Out<S> dinp, const In<S> &weight, const In<S> &dout,
                          bool accumulate)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(inp) = weight' * d(L)/d(out)
    product<S>(par, dinp, weight.transpose(), dout, accumulate);
}

// dweight is (OC, C), dout is (OC, N), inp is (C, N)
template <typename S>
void product_backward_weight(const ParallelRunner &par, Out<S> dweight, const In<S> &dout, const In<S> &inp)
{
    // in the forward pass this was: out = weight * inp
    // d(L)/d(weight) = d(L)/d(out) * inp'
    product<S>(par, dweight, dout, inp.transpose(), true);
}

} // namespace fb::nn
