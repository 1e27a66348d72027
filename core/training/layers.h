#pragma once
// The layers of the toy models of Figure 218.2 (000_031aadcae6604a46.txt, 218.6.5), written as
// forward/backward pairs in the style of llm.c (train_gpt2.c): every backward pass quotes the
// forward line it differentiates, and gradients accumulate with += (zeroing is the caller's step).
//
// Layout, chosen deliberately: activations are column-major Eigen matrices of shape (C, N), one
// column per (position, sequence) pair and one row per feature, so that a linear layer is the single
// matrix product W (OC, C) * inp (C, N) over every row of the batch. The N = T*B columns are ordered
// time-major (column n = t*B + b), so the B columns of one position t are one contiguous block:
// the exact recurrence works on .middleCols(t*B, B) and the k-pass shift h_{t-1} -> u_t is a single
// block copy. With this layout the forward products (W * inp) and the input gradients (W' * dout)
// take Eigen's natural GEMM path; only the weight gradients (dout * inp') read an operand across
// columns. (Row-major activations would turn that around for two products of three.)
// Everything is templated on the scalar: float for training, double for gradient checks.
#include <Eigen/Core>

#include <cmath>

namespace fb::nn {

template <typename S> using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;  // column-major
template <typename S> using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <typename S> using Out = Eigen::Ref<Mat<S>>;          // a writable (rows, cols) view
template <typename S> using In = Eigen::Ref<const Mat<S>>;     // a read-only (rows, cols) view
template <typename S> using VecOut = Eigen::Ref<Vec<S>>;
template <typename S> using VecIn = Eigen::Ref<const Vec<S>>;

// matmul_backward_weight computes the weight gradient of a layer with at most kFewRows outputs
// (and at most kFewRowsMaxInput inputs) through a small fixed-capacity matrix on the stack.
constexpr int kFewRows = 8;
constexpr int kFewRowsMaxInput = 1024;

// ----------------------------------------------------------------------------------------------
// Linear: out = weight * inp + bias, like torch.nn.Linear. The matmul_* pieces are the same layer
// without its bias, for a linear layer whose input is a concatenation of parts kept in different
// buffers ([E[y_{t-1}]; h_{t-1}] in the fusion, [E[y_{t-1}]; obs_t] in token-only layer 1): the
// concatenation is never copied together, each part adds its own product.

// out is (OC, N), inp is (C, N), weight is (OC, C)
template <typename S>
void matmul_forward(Out<S> out, const In<S> &inp, const In<S> &weight)
{
    out.noalias() += weight * inp;
}

// out is (OC, N), inp is (C, N), weight is (OC, C), bias is (OC)
template <typename S>
void linear_forward(Out<S> out, const In<S> &inp, const In<S> &weight, const VecIn<S> &bias)
{
    out.colwise() = bias;
    matmul_forward<S>(out, inp, weight);
}

// Gradient with respect to the input only (the recurrence needs it step by step).
// dinp is (C, N), dout is (OC, N), weight is (OC, C)
template <typename S>
void linear_backward_inp(Out<S> dinp, const In<S> &dout, const In<S> &weight)
{
    // in the forward pass this was: out += weight * inp
    // d(L)/d(inp) = weight' * d(L)/d(out)
    dinp.noalias() += weight.transpose() * dout;
}

// dweight is (OC, C), dout is (OC, N), inp is (C, N)
template <typename S>
void matmul_backward_weight(Out<S> dweight, const In<S> &dout, const In<S> &inp)
{
    // in the forward pass this was: out += weight * inp
    // d(L)/d(weight) = d(L)/d(out) * inp'
    // The same product in the order Eigen runs fastest for its shape (measured at N = 2048):
    if (inp.rows() <= 4) {
        // a narrow input (obs_t, 2 rows): one matrix-vector product per input row, 2.5x faster
        for (Eigen::Index c = 0; c < inp.rows(); ++c) dweight.col(c).noalias() += dout * inp.row(c).transpose();
    } else if (dout.rows() <= kFewRows && inp.rows() <= kFewRowsMaxInput) {
        // few outputs (the head, V_b = 4 rows): d(weight)' = inp * d(L)/d(out)', 2x faster
        Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kFewRowsMaxInput, kFewRows> dweightT(
            inp.rows(), dout.rows());
        dweightT.noalias() = inp * dout.transpose();
        dweight += dweightT.transpose();
    } else {
        dweight.noalias() += dout * inp.transpose();
    }
}

// Gradient with respect to the parameters only (done once over all N columns).
// dweight is (OC, C), dbias is (OC), dout is (OC, N), inp is (C, N)
template <typename S>
void linear_backward_params(Out<S> dweight, VecOut<S> dbias, const In<S> &dout, const In<S> &inp)
{
    // in the forward pass this was: out = bias (broadcast over columns) + weight * inp
    // d(L)/d(bias) = sum over columns of d(L)/d(out)
    matmul_backward_weight<S>(dweight, dout, inp);
    dbias += dout.rowwise().sum();
}

template <typename S>
void linear_backward(Out<S> dinp, Out<S> dweight, VecOut<S> dbias, const In<S> &dout, const In<S> &inp,
                     const In<S> &weight)
{
    linear_backward_inp<S>(dinp, dout, weight);
    linear_backward_params<S>(dweight, dbias, dout, inp);
}

// ----------------------------------------------------------------------------------------------
// Tanh. out may be the same storage as inp (elementwise); the backward pass needs only out.

// out is (C, N), inp is (C, N)
template <typename S>
void tanh_forward(Out<S> out, const In<S> &inp)
{
    out = inp.array().tanh().matrix();
}

// dinp is (C, N), dout is (C, N), out is (C, N): the forward output
template <typename S>
void tanh_backward(Out<S> dinp, const In<S> &dout, const In<S> &out)
{
    // in the forward pass this was: out = tanh(inp)
    // d tanh(x)/dx = 1 - tanh(x)^2
    dinp.array() += (S(1) - out.array().square()) * dout.array();
}

// Tanh backward in place: dout becomes dinp (saves a buffer and a pass over memory).
template <typename S>
void tanh_backward_inplace(Out<S> d, const In<S> &out)
{
    // in the forward pass this was: out = tanh(inp)
    d.array() *= S(1) - out.array().square();
}

// ----------------------------------------------------------------------------------------------
// Embedding, like torch.nn.Embedding; the table keeps one token per column.

// out is (C, N), table is (C, V), idx is (N) with values in [0, V)
template <typename S>
void embedding_forward(Out<S> out, const In<S> &table, const int *idx)
{
    for (Eigen::Index n = 0; n < out.cols(); ++n) out.col(n) = table.col(idx[n]);
}

// dtable is (C, V), dout is (C, N)
template <typename S>
void embedding_backward(Out<S> dtable, const In<S> &dout, const int *idx)
{
    // in the forward pass this was: out.col(n) = table.col(idx[n])
    for (Eigen::Index n = 0; n < dout.cols(); ++n) dtable.col(idx[n]) += dout.col(n);
}

// ----------------------------------------------------------------------------------------------
// Embedding read by a linear layer, folded: weight * table[:, idx[n]] + bias is column idx[n] of
// the (OC, V) table proj = weight * table + bias. The same function as embedding_forward followed
// by linear_forward on the embedding, at a cost of OC per column instead of 2 OC C (V is 4 here,
// N is 2048). Used for the token part of the first layer (token-only) and of the fusion (latent).

// out is (OC, N), proj is (OC, V): workspace, table is (C, V), weight is (OC, C), bias is (OC),
// idx is (N). out is assigned, not accumulated: the layer's other input parts add to it afterwards.
template <typename S>
void embedding_linear_forward(Out<S> out, Out<S> proj, const In<S> &table, const In<S> &weight,
                              const VecIn<S> &bias, const int *idx)
{
    proj.colwise() = bias;
    proj.noalias() += weight * table;
    for (Eigen::Index n = 0; n < out.cols(); ++n) out.col(n) = proj.col(idx[n]);
}

// dtable is (C, V), dweight is (OC, C), dbias is (OC), dproj is (OC, V): workspace, dout is (OC, N)
template <typename S>
void embedding_linear_backward(Out<S> dtable, Out<S> dweight, VecOut<S> dbias, Out<S> dproj, const In<S> &dout,
                               const In<S> &table, const In<S> &weight, const int *idx)
{
    // in the forward pass this was: out.col(n) = proj.col(idx[n]), proj = weight * table + bias
    dproj.setZero();
    for (Eigen::Index n = 0; n < dout.cols(); ++n) dproj.col(idx[n]) += dout.col(n);
    // d(L)/d(weight) = d(L)/d(proj) * table';  d(L)/d(bias) = sum over tokens of d(L)/d(proj)
    dweight.noalias() += dproj * table.transpose();
    dbias += dproj.rowwise().sum();
    // d(L)/d(table) = weight' * d(L)/d(proj)
    dtable.noalias() += weight.transpose() * dproj;
}

// ----------------------------------------------------------------------------------------------
// GLU fusion: x = a * sigmoid(g), where the stacked pre-activation fz = [a; g] comes from one linear
// layer with weight [W_a; W_b]: x_t = (W_a u + b_a) * sigma(W_b u + b_b) of Section 218.6.2.

// x is (F, N), sig is (F, N): receives sigmoid(g) for the backward pass,
// fz is (2F, N): rows [0, F) are a, rows [F, 2F) are g
template <typename S>
void glu_forward(Out<S> x, Out<S> sig, const In<S> &fz)
{
    const Eigen::Index f = x.rows();
    sig.array() = S(1) / (S(1) + (-fz.bottomRows(f).array()).exp());
    x.array() = fz.topRows(f).array() * sig.array();
}

// dfz is (2F, N), dx is (F, N), fz is (2F, N), sig is (F, N) from the forward pass
template <typename S>
void glu_backward(Out<S> dfz, const In<S> &dx, const In<S> &fz, const In<S> &sig)
{
    // in the forward pass this was: x = a * sigmoid(g)
    // d(x)/d(a) = sigmoid(g);  d(x)/d(g) = a * sigmoid(g) * (1 - sigmoid(g))
    const Eigen::Index f = dx.rows();
    dfz.topRows(f).array() += dx.array() * sig.array();
    dfz.bottomRows(f).array() += dx.array() * fz.topRows(f).array() * sig.array() * (S(1) - sig.array());
}

// ----------------------------------------------------------------------------------------------
// Softmax cross entropy averaged over the N positions, like torch.nn.CrossEntropyLoss(). A target of
// kIgnoreTarget (torch's ignore_index = -100 there, -1 here) takes no part: the mean runs over the
// other columns, whose count counted_targets gives, and an ignored column's gradient is zero.

constexpr int kIgnoreTarget = -1;

// The columns of targets (N) that count: those whose target is not kIgnoreTarget (any negative value).
inline Eigen::Index counted_targets(const int *targets, Eigen::Index N)
{
    Eigen::Index counted = 0;
    for (Eigen::Index n = 0; n < N; ++n) counted += targets[n] >= 0 ? 1 : 0;
    return counted;
}

// The columns of logits (V, N) whose most likely token (the first of equal maxima) is the target,
// ignored columns skipped: the numerator of exact-match accuracy (counted_targets the denominator).
template <typename S>
Eigen::Index correct_predictions(const In<S> &logits, const int *targets)
{
    Eigen::Index correct = 0;
    for (Eigen::Index n = 0; n < logits.cols(); ++n) {
        if (targets[n] < 0) continue;
        Eigen::Index best = 0;
        logits.col(n).maxCoeff(&best);
        correct += best == targets[n] ? 1 : 0;
    }
    return correct;
}

// logits is (V, N), probs is (V, N): receives softmax(logits) for the backward pass; colmax and
// logsum are (N): each column's maximum and the log of its sum of exp(z - max), which
// crossentropy_sum reads. V is small (4 buckets): exp and log run as one vectorised pass over the
// whole block rather than column by column.
template <typename S>
void crossentropy_softmax(const In<S> &logits, Out<S> probs, VecOut<S> colmax, VecOut<S> logsum)
{
    const Eigen::Index V = logits.rows(), N = logits.cols();
    for (Eigen::Index n = 0; n < N; ++n) {  // shift by the column's maximum (stable softmax)
        const S *z = logits.data() + n * logits.outerStride();
        S *p = probs.data() + n * probs.outerStride();
        S maxz = z[0];
        for (Eigen::Index v = 1; v < V; ++v) maxz = z[v] > maxz ? z[v] : maxz;
        for (Eigen::Index v = 0; v < V; ++v) p[v] = z[v] - maxz;
        colmax[n] = maxz;
    }
    if (probs.outerStride() == V) {  // contiguous: one flat, vectorised exp
        Eigen::Map<Eigen::Array<S, Eigen::Dynamic, 1>> flat(probs.data(), probs.size());
        flat = flat.exp();
    } else {
        probs = probs.array().exp().matrix();
    }
    for (Eigen::Index n = 0; n < N; ++n) {
        S *p = probs.data() + n * probs.outerStride();
        S sum = 0;
        for (Eigen::Index v = 0; v < V; ++v) sum += p[v];
        const S inv = S(1) / sum;
        for (Eigen::Index v = 0; v < V; ++v) p[v] *= inv;
        logsum[n] = sum;
    }
    logsum = logsum.array().log().matrix();
}

// The sum (not the mean) of -log softmax(logits)[target] over the N columns of targets (N), ignored
// ones (target < 0) skipped, from crossentropy_softmax's colmax and logsum, added in column order in
// double so that 32k held-out positions add up without float rounding; the caller divides.
template <typename Logits, typename Vec>
double crossentropy_sum(const Logits &logits, const int *targets, const Vec &colmax, const Vec &logsum)
{
    double total = 0.0;  // -log softmax(z)[target] = log sum exp(z - max) + max - z[target]
    for (Eigen::Index n = 0; n < logits.cols(); ++n)
        if (targets[n] >= 0) total += double(logsum[n]) + double(colmax[n]) - double(logits(targets[n], n));
    return total;
}

// Both: the softmax of every column, and the sum of the losses.
template <typename S>
double crossentropy_forward(const In<S> &logits, const int *targets, Out<S> probs, VecOut<S> colmax,
                            VecOut<S> logsum)
{
    crossentropy_softmax<S>(logits, probs, colmax, logsum);
    return crossentropy_sum(logits, targets, colmax, logsum);
}

// dlogits is (V, N), probs is (V, N) from the forward pass; dloss is d(L)/d(mean loss). counted: the
// columns with a target that the mean divides by, when these N columns are a piece of a larger
// block (-1: these columns' own count).
template <typename S>
void crossentropy_backward(Out<S> dlogits, const In<S> &probs, const int *targets, S dloss,
                           Eigen::Index counted = -1)
{
    // in the forward pass this was: loss = mean_n (logsumexp(z_n) - z_n[target_n])
    // d(loss)/d(z_n) = (softmax(z_n) - onehot(target_n)) / N
    const Eigen::Index N = probs.cols(), here = counted_targets(targets, N);
    if (counted < 0) counted = here;
    if (here == N && counted > 0) {  // nothing ignored: one pass over the whole block
        const S scale = dloss / S(counted);
        dlogits += scale * probs;
        for (Eigen::Index n = 0; n < N; ++n) dlogits(targets[n], n) -= scale;
        return;
    }
    // the mean over the counted columns: d(loss)/d(z_n) = (softmax(z_n) - onehot(target_n)) / counted,
    // 0 for an ignored column
    if (counted == 0) return;
    const S scale = dloss / S(counted);
    for (Eigen::Index n = 0; n < N; ++n) {
        if (targets[n] < 0) continue;
        dlogits.col(n) += scale * probs.col(n);
        dlogits(targets[n], n) -= scale;
    }
}

} // namespace fb::nn
