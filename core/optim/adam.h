#pragma once
// Adam, Kingma & Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015 (arXiv:1412.6980),
// Algorithm 1, with the defaults of torch.optim.Adam: betas (0.9, 0.999), eps 1e-8 added to
// sqrt(v_hat), no weight decay. FullBand's one optimiser: the toy trainer (float, one flat parameter
// vector), the LSTM classifier (double, several tensors) and the transformer all step through it.
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   m_hat = m / (1 - b1^t),  v_hat = v / (1 - b2^t),  p -= lr m_hat / (sqrt(v_hat) + eps).
// The moments are allocated at construction (flat) or at the first step (tensors); a step allocates
// nothing.
// With weight decay lambda > 0 the flat step is AdamW (Loshchilov & Hutter, "Decoupled Weight Decay
// Regularization", ICLR 2019, arXiv:1711.05101) as torch.optim.AdamW takes it: the decay acts on the
// weights, not through the gradient (so Adam's scaling does not touch it), before Adam's update:
//   p *= 1 - lr lambda,  then the update above.
#include <Eigen/Core>

#include <cmath>
#include <vector>

namespace fb {

// A parameter tensor as the optimiser sees it: contiguous scalars.
template <typename S>
struct ParamSpan {
    S *data = nullptr;
    Eigen::Index size = 0;
};

template <typename S>
class Adam {
public:
    using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    static constexpr double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;

    Adam() = default;
    explicit Adam(Eigen::Index size) : m_(Vec::Zero(size)), v_(Vec::Zero(size)) {}

    // One step over a flat parameter vector and its gradient (same size as at construction).
    void step(Eigen::Ref<Vec> params, const Eigen::Ref<const Vec> &grads, double lr)
    {
        const Corrections c = next();
        update(params, grads, m_, v_, c, lr);
    }

    // AdamW: the same step after p *= 1 - lr weightDecay for every weight whose entry in decay is
    // nonzero (decay empty: every weight). nanoGPT decays the matrices and embeddings, not the biases
    // and LayerNorm gains, and so does the transformer's trainer.
    void step(Eigen::Ref<Vec> params, const Eigen::Ref<const Vec> &grads, double lr, double weightDecay,
              const Eigen::Ref<const Vec> &decay)
    {
        if (weightDecay > 0.0) {
            const S keep = S(1.0 - lr * weightDecay);  // torch: param.mul_(1 - lr * weight_decay)
            if (decay.size() == 0) params *= keep;
            else params.array() = (decay.array() != S(0)).select(params.array() * keep, params.array());
        }
        step(params, grads, lr);
    }

    // One step over matching lists of tensors and their gradients (same order and sizes every call).
    void step(const std::vector<ParamSpan<S>> &params, const std::vector<ParamSpan<S>> &grads, double lr)
    {
        if (m_.size() == 0) {
            Eigen::Index total = 0;
            for (const ParamSpan<S> &p : params) total += p.size;
            m_ = Vec::Zero(total);
            v_ = Vec::Zero(total);
        }
        const Corrections c = next();
        Eigen::Index offset = 0;
        for (std::size_t k = 0; k < params.size(); ++k) {
            const Eigen::Index n = params[k].size;
            Eigen::Map<Vec> p(params[k].data, n);
            const Eigen::Map<const Vec> g(grads[k].data, n);
            auto m = m_.segment(offset, n);
            auto v = v_.segment(offset, n);
            update(p, g, m, v, c, lr);
            offset += n;
        }
    }

    int steps() const { return t_; }

private:
    struct Corrections {
        S c1, c2;
    };

    Corrections next()
    {
        ++t_;
        return { S(1.0 - std::pow(beta1, t_)),    // m_hat = m / (1 - b1^t)
                 S(1.0 - std::pow(beta2, t_)) };  // v_hat = v / (1 - b2^t)
    }

    template <typename P, typename G, typename M>
    static void update(P &&p, const G &g, M &&m, M &&v, const Corrections &c, double lr)
    {
        m = S(beta1) * m + S(1.0 - beta1) * g;               // m = b1 m + (1 - b1) g
        v = S(beta2) * v + S(1.0 - beta2) * g.cwiseAbs2();   // v = b2 v + (1 - b2) g^2
        // p -= lr * m_hat / (sqrt(v_hat) + eps)
        p.array() -= S(lr) * (m.array() / c.c1) / ((v.array() / c.c2).sqrt() + S(eps));
    }

    Vec m_, v_;  // first and second moment estimates, laid out as the parameters
    int t_ = 0;
};

} // namespace fb
