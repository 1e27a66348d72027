#pragma once
// The residual block of section 218.1 (He et al. 2016), forward and backward by hand in double:
//
//   with the shortcut:     y = relu(bn2(conv2(relu(bn1(conv1(x))))) + x)      H(x) = F(x) + x
//   without it ("plain"):  y = relu(bn2(conv2(relu(bn1(conv1(x))))))
//
// conv1, conv2: 3 x 3, padding 1, no bias, C -> C channels; bn1, bn2: BatchNorm2d in training mode.
// The backward pass can return the two parts of dL/dx separately: through the shortcut, dL/dS (S the
// sum before the last ReLU), and through the branch, (dF/dx)^T dL/dS. Their sum is dL/dx, the
// chapter's dL/dx = dL/dH (1 + dF/dx).
#include <vector>

namespace fb {

struct ResidualBlockWeights {
    int C = 0;
    std::vector<double> conv1, conv2;           // (C, C, 3, 3) each
    std::vector<double> bn1Weight, bn1Bias;     // (C): gamma 1 and beta 0 in PyTorch's init
    std::vector<double> bn2Weight, bn2Bias;     // (C)
};

// Gradients of the same shapes, accumulated with += (zeroed by the constructor and zero()).
struct ResidualBlockGrads {
    std::vector<double> conv1, conv2, bn1Weight, bn1Bias, bn2Weight, bn2Bias;
    explicit ResidualBlockGrads(int C = 0);
    void zero();
};

class ResidualBlock {
public:
    // Allocates every activation and scratch buffer for inputs of shape (N, C, H, W) once.
    ResidualBlock(ResidualBlockWeights weights, bool shortcut, int N, int H, int W);

    // x and y are (N, C, H, W). Keeps a copy of x and the activations for backward().
    void forward(const double *x, double *y);

    // dy is (N, C, H, W), the gradient of the loss at the last forward()'s y. Accumulates dx (N, C, H,
    // W) and, when given, grads. identity and branch, when given, are overwritten with the two parts
    // of this call's dx: dL/dS through the shortcut (zero without it) and (dF/dx)^T dL/dS.
    void backward(const double *dy, double *dx, ResidualBlockGrads *grads = nullptr, double *identity = nullptr,
                  double *branch = nullptr);

    bool shortcut() const { return shortcut_; }
    int size() const { return int(x_.size()); }  // N C H W

    ResidualBlockWeights weights;  // public so that gradient checks can perturb them between passes

private:
    bool shortcut_;
    int N_, C_, H_, W_;
    // activations, each (N, C, H, W), kept for the backward pass
    std::vector<double> x_, c1_, b1_, r1_, c2_, b2_, s_;
    std::vector<double> mean1_, rstd1_, mean2_, rstd2_;  // (C)
    // scratch for the backward pass, each (N, C, H, W)
    std::vector<double> ds_, dc2_, dr1_, db1_, dc1_, dbranch_;
};

} // namespace fb
