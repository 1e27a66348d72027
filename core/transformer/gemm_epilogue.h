#pragma once
// What a matrix product does to each output element once its sum is complete, so that the pass
// after a product (a bias and ReLU, a residual added) happens while the sums are
// still in registers instead of in a pass of its own over the output (gemm_kernel.h applies it in
// its last inner block; double's products, and the products gemm_kernel does not run, in one pass
// after the product: apply_epilogue). In order:
//   v = sum (+ out's old value when the product accumulates)
//   v += add(i, j)                     when add is set (a residual: mid = x + W_O atty)
//   v += bias(i)                       when bias is set
//   v = v < 0 ? 0 : v                  when relu (NaN stays NaN: a diverging run still shows)

namespace fb::nn {

template <typename S>
struct GemmEpilogue {
    const S *add = nullptr;
    long ldAdd = 0;
    const S *bias = nullptr;
    bool relu = false;

    // the same for the block of outputs whose first element is (i, j)
    GemmEpilogue at(long i, long j) const
    {
        GemmEpilogue e = *this;
        if (add) e.add = add + i + j * ldAdd;
        if (bias) e.bias = bias + i;
        return e;
    }

    // element (i, j), its sum v complete
    S apply(S v, long i, long j) const
    {
        if (add) v += add[i + j * ldAdd];
        if (bias) v += bias[i];
        if (relu) v = v < S(0) ? S(0) : v;
        return v;
    }
};

// The epilogue in a pass of its own over the (m x n) output at out (column stride ldo)
template <typename S>
void apply_epilogue(S *out, long ldo, long m, long n, const GemmEpilogue<S> &e)
{
    for (long j = 0; j < n; ++j)
        for (long i = 0; i < m; ++i) out[i + j * ldo] = e.apply(out[i + j * ldo], i, j);
}

} // namespace fb::nn
