#pragma once
// Section 218.1 of the chapter: vanishing gradients through depth, and the residual connection's
// identity path that keeps them alive. A stack of L random fully connected layers of width w is run
// forward once on a random batch and backward once from the loss L = sum of the outputs (the
// chapter's y.sum().backward()):
//
//   plain:     x_{l+1} = F_l(x_l)
//   residual:  x_{l+1} = x_l + F_l(x_l)                (He et al.: H(x) = F(x) + x)
//   F_l(x)   = phi(W_l n(x) + b_l),   W_l ~ N(0, sigma^2 / w),  b_l = 0 (or N(0, biasScale^2))
//   n(x)     = x / rms(x) per sample with norm on (RMSNorm without gain, applied before the weight as
//              in pre-norm transformers), n(x) = x with norm off.
//
// Both stacks use the very same weights and input, so the only difference is the "+ x". Going
// backward through a residual block gives dL/dx_l = dL/dx_{l+1} (I + dF/dx): the chapter's
// "dL/dx = dL/dH (1 + dF/dx)". All in double precision.
#include "core/run/run_control.h"

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fb {

enum class Activation { Relu, Tanh };
std::string activationName(Activation a);  // "relu" | "tanh"

struct DepthStackParams {
    int depth = 100;          // L, number of layers (1..200 in the lab)
    int width = 128;          // w (2..512)
    int batch = 8;            // B random input vectors x_0 ~ N(0, I)
    Activation activation = Activation::Tanh;
    bool norm = false;        // RMSNorm (no gain) in front of every weight
    double initScale = 1.0;   // sigma: W ~ N(0, sigma^2 / w)
    double biasScale = 0.0;   // b ~ N(0, biasScale^2); 0 is the usual zero bias
    std::uint64_t seed = 0;
};

// The random weights and the input batch, held in memory (for small stacks and gradient checks;
// depthGradients() never holds more than one layer's weights). Column j of W_l draws from its own
// stream, so the first layers of a deeper stack are the layers of a shallower one with the same
// seed, and any thread can draw any column.
struct DepthStack {
    std::vector<Eigen::MatrixXd> W;  // W[l] is (w, w), l = 0..L-1
    std::vector<Eigen::VectorXd> b;  // b[l] is (w)
    Eigen::MatrixXd x0;              // (w, B), one sample per column
};
DepthStack makeDepthStack(const DepthStackParams &p);
// Draws layer l's weights W_l (w, w) and bias b_l (w) alone, exactly as makeDepthStack does.
void drawDepthLayer(const DepthStackParams &p, int l, Eigen::MatrixXd &W, Eigen::VectorXd &b);

// Gradients of the loss with respect to every parameter and the input (for gradient checks).
struct DepthStackGrads {
    std::vector<Eigen::MatrixXd> dW;  // like W
    std::vector<Eigen::VectorXd> db;  // like b
    Eigen::MatrixXd dx0;              // like x0
};

// One forward and one backward pass through one of the two stacks.
struct DepthStackPass {
    double loss = 0.0;                  // sum of x_L over units and batch
    std::vector<double> gradNorm;       // ||dL/dx_l|| (Frobenius over the batch), l = 0..L
    std::vector<double> weightGradNorm; // ||dL/dW_l||, l = 0..L-1
    std::vector<double> activationRms;  // rms of x_l, l = 0..L
    // The "dF/dx" term of the chapter at every block: the root-mean-square singular value of the
    // Jacobian dF_l/dx at x_l, sqrt(||dF_l/dx||_F^2 / w), averaged (in square) over the batch.
    std::vector<double> jacobianRms;    // l = 0..L-1
};
DepthStackPass depthStackPass(const DepthStack &stack, const DepthStackParams &p, bool residual,
                              DepthStackGrads *grads = nullptr);

// Both stacks on the same weights and the identity-path numbers. Memory stays at one layer's weights
// plus the activations: every W_l is drawn when the forward pass reaches it and drawn again on the
// way back (200 x 512^2 weights would be 420 MB). The numbers equal depthStackPass on
// makeDepthStack(p).
struct DepthGradients {
    DepthStackPass plain;
    DepthStackPass residual;
    // ||dL/dx_0|| / ||dL/dx_L||: how much of the output gradient reaches the input.
    double plainRatio = 0.0;
    double residualRatio = 0.0;
    // Average (geometric mean over the L blocks) factor by which one block scales the gradient norm
    // going backward, measured: (||dL/dx_0|| / ||dL/dx_L||)^(1/L) ...
    double plainFactorMeasured = 0.0;
    double residualFactorMeasured = 0.0;
    // ... and predicted from the Jacobians alone, treating the gradient as a direction in general
    // position: plain ||dF/dx|| (the RMS singular value), residual ||I + dF/dx|| ~ sqrt(1 + ||dF/dx||^2)
    // (the cross term averages out because W is symmetric about 0).
    double plainFactorPredicted = 0.0;
    double residualFactorPredicted = 0.0;
    // Geometric mean over the residual stack's blocks of ||dF/dx||: the term that would be all there
    // is without the identity path.
    double residualJacobianRms = 0.0;
};
DepthGradients depthGradients(const DepthStackParams &p);

// What depthGradients computes, remembered between calls for a live lab. The forward pass of layer l
// does not depend on the depth L, so a call that differs from the last only in depth runs the
// forward pass of the new layers alone and the backward pass again. Weights are kept (up to a
// memory budget; layers beyond it are drawn again on the way back). Any other parameter change
// starts over. Same numbers as depthGradients(p). Not thread-safe: one user at a time.
class DepthGradientsCache {
public:
    explicit DepthGradientsCache(std::size_t weightBudgetBytes = std::size_t(32) << 20);
    ~DepthGradientsCache();
    DepthGradientsCache(const DepthGradientsCache &) = delete;
    DepthGradientsCache &operator=(const DepthGradientsCache &) = delete;

    // weightGrads false leaves every weightGradNorm at 0 and skips forming dL/dW_l: about 40% of
    // the backward pass, for users that only look at the gradients of the activations. stop is
    // checked between layers: once it asks, the call returns an empty result at once (the layers
    // already held stay held for the next call).
    DepthGradients compute(const DepthStackParams &p, bool weightGrads = true, const RunControl *stop = nullptr);
    // Layers whose forward pass is held (tests).
    int layersHeld() const;

private:
    struct State;
    std::unique_ptr<State> state_;
    std::size_t weightBudget_;
};

} // namespace fb
