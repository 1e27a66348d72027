#include "core/cnn/residual_block.h"

#include "core/cnn/batch_norm2d.h"
#include "core/cnn/conv2d.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace fb {

ResidualBlockGrads::ResidualBlockGrads(int C)
    : conv1(std::size_t(C) * C * 9), conv2(std::size_t(C) * C * 9), bn1Weight(C), bn1Bias(C), bn2Weight(C),
      bn2Bias(C)
{
}

void ResidualBlockGrads::zero()
{
    for (auto *v : { &conv1, &conv2, &bn1Weight, &bn1Bias, &bn2Weight, &bn2Bias }) std::fill(v->begin(), v->end(), 0.0);
}

ResidualBlock::ResidualBlock(ResidualBlockWeights w, bool shortcut, int N, int H, int W)
    : weights(std::move(w)), shortcut_(shortcut), N_(N), C_(weights.C), H_(H), W_(W)
{
    const std::size_t n = std::size_t(N) * C_ * H * W;
    for (auto *v : { &x_, &c1_, &b1_, &r1_, &c2_, &b2_, &s_, &ds_, &dc2_, &dr1_, &db1_, &dc1_, &dbranch_ })
        v->assign(n, 0.0);
    for (auto *v : { &mean1_, &rstd1_, &mean2_, &rstd2_ }) v->assign(std::size_t(C_), 0.0);
}

void ResidualBlock::forward(const double *x, double *y)
{
    const Conv2dShape conv{ N_, C_, C_, H_, W_, 3, 1 };
    const int HW = H_ * W_;
    const std::size_t n = x_.size();
    std::copy(x, x + n, x_.begin());
    conv2dForward(c1_.data(), x, weights.conv1.data(), conv);                        // c1 = conv1(x)
    batchNorm2dForward(b1_.data(), mean1_.data(), rstd1_.data(), c1_.data(), weights.bn1Weight.data(),
                       weights.bn1Bias.data(), N_, C_, HW);                          // b1 = bn1(c1)
    for (std::size_t i = 0; i < n; ++i) r1_[i] = b1_[i] > 0.0 ? b1_[i] : 0.0;       // r1 = relu(b1)
    conv2dForward(c2_.data(), r1_.data(), weights.conv2.data(), conv);               // c2 = conv2(r1)
    batchNorm2dForward(b2_.data(), mean2_.data(), rstd2_.data(), c2_.data(), weights.bn2Weight.data(),
                       weights.bn2Bias.data(), N_, C_, HW);                          // b2 = bn2(c2) = F(x)
    for (std::size_t i = 0; i < n; ++i) s_[i] = shortcut_ ? b2_[i] + x[i] : b2_[i];  // s = F(x) + x
    for (std::size_t i = 0; i < n; ++i) y[i] = s_[i] > 0.0 ? s_[i] : 0.0;            // y = relu(s)
}

void ResidualBlock::backward(const double *dy, double *dx, ResidualBlockGrads *grads, double *identity,
                             double *branch)
{
    const Conv2dShape conv{ N_, C_, C_, H_, W_, 3, 1 };
    const int HW = H_ * W_;
    const std::size_t n = x_.size();
    // backward pass 1, through the last ReLU. In the forward pass this was: y = relu(s);
    // relu'(0) = 0 as in PyTorch's threshold_backward.
    for (std::size_t i = 0; i < n; ++i) ds_[i] = s_[i] > 0.0 ? dy[i] : 0.0;
    // backward pass 2, through the sum. In the forward pass this was: s = F(x) + x, so the shortcut
    // hands ds to dx unchanged (the "1" of 1 + dF/dx) and the branch receives the same ds.
    if (identity) {
        for (std::size_t i = 0; i < n; ++i) identity[i] = shortcut_ ? ds_[i] : 0.0;
    }
    // backward pass 3, through bn2. In the forward pass this was: b2 = bn2(c2).
    std::fill(dc2_.begin(), dc2_.end(), 0.0);
    batchNorm2dBackward(dc2_.data(), grads ? grads->bn2Weight.data() : nullptr, grads ? grads->bn2Bias.data() : nullptr,
                        ds_.data(), c2_.data(), weights.bn2Weight.data(), mean2_.data(), rstd2_.data(), N_, C_, HW);
    // backward pass 4, through conv2. In the forward pass this was: c2 = conv2(r1).
    std::fill(dr1_.begin(), dr1_.end(), 0.0);
    conv2dBackward(dr1_.data(), grads ? grads->conv2.data() : nullptr, dc2_.data(), r1_.data(), weights.conv2.data(),
                   conv);
    // backward pass 5, through the first ReLU. In the forward pass this was: r1 = relu(b1).
    for (std::size_t i = 0; i < n; ++i) db1_[i] = b1_[i] > 0.0 ? dr1_[i] : 0.0;
    // backward pass 6, through bn1. In the forward pass this was: b1 = bn1(c1).
    std::fill(dc1_.begin(), dc1_.end(), 0.0);
    batchNorm2dBackward(dc1_.data(), grads ? grads->bn1Weight.data() : nullptr, grads ? grads->bn1Bias.data() : nullptr,
                        db1_.data(), c1_.data(), weights.bn1Weight.data(), mean1_.data(), rstd1_.data(), N_, C_, HW);
    // backward pass 7, through conv1. In the forward pass this was: c1 = conv1(x); this is the
    // branch's part of dx, (dF/dx)^T ds.
    std::fill(dbranch_.begin(), dbranch_.end(), 0.0);
    conv2dBackward(dbranch_.data(), grads ? grads->conv1.data() : nullptr, dc1_.data(), x_.data(), weights.conv1.data(),
                   conv);
    if (branch) std::copy(dbranch_.begin(), dbranch_.end(), branch);
    for (std::size_t i = 0; i < n; ++i) dx[i] += dbranch_[i] + (shortcut_ ? ds_[i] : 0.0);
}

} // namespace fb
