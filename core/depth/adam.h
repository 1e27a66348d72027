#pragma once
// Adam (Kingma and Ba, 2015, Algorithm 1), the update torch.optim.Adam makes with weight decay 0:
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   m_hat = m / (1 - b1^t),  v_hat = v / (1 - b2^t),  p -= lr m_hat / (sqrt(v_hat) + eps).
#include <Eigen/Dense>

#include <cmath>
#include <vector>

namespace fb {

// A parameter tensor as the optimiser sees it: contiguous doubles.
struct ParamSlice {
    double *data = nullptr;
    Eigen::Index size = 0;
};

class Adam {
public:
    explicit Adam(double lr, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8)
        : lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps) {}

    // One step over matching lists of parameters and their gradients (same order, same sizes).
    void step(const std::vector<ParamSlice> &params, const std::vector<ParamSlice> &grads)
    {
        if (m_.empty()) {
            for (const ParamSlice &p : params) {
                m_.push_back(Eigen::ArrayXd::Zero(p.size));
                v_.push_back(Eigen::ArrayXd::Zero(p.size));
            }
        }
        ++t_;
        const double correction1 = 1.0 - std::pow(beta1_, double(t_));
        const double correction2 = 1.0 - std::pow(beta2_, double(t_));
        for (std::size_t k = 0; k < params.size(); ++k) {
            Eigen::Map<Eigen::ArrayXd> p(params[k].data, params[k].size);
            const Eigen::Map<const Eigen::ArrayXd> g(grads[k].data, grads[k].size);
            m_[k] = beta1_ * m_[k] + (1.0 - beta1_) * g;
            v_[k] = beta2_ * v_[k] + (1.0 - beta2_) * g.square();
            const Eigen::ArrayXd mHat = m_[k] / correction1;
            const Eigen::ArrayXd vHat = v_[k] / correction2;
            p -= lr_ * mHat / (vHat.sqrt() + eps_);
        }
    }

    int steps() const { return t_; }

private:
    double lr_, beta1_, beta2_, eps_;
    int t_ = 0;
    std::vector<Eigen::ArrayXd> m_, v_;
};

} // namespace fb
