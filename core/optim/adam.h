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
#include <limits>
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

    // The step in pieces, fused into one pass (guardedStep, core/optim/guarded_step.h): begin() once
    // per step, then update() on disjoint ranges of a flat vector, from as many threads as there are
    // ranges. Per weight: the gradient it uses is g scale (clipping; scale 1 leaves it exact; the
    // stored gradient is not changed); good = p; p *= keep where decay is nonzero (AdamW; decay null:
    // every weight when keep != 1); then Adam's update as step() takes it.
    struct Pass {
        S c1, c2, lr, keep, scale;
    };
    Pass begin(double lr, double weightDecay, S scale = S(1))
    {
        const Corrections c = next();
        return { c.c1, c.c2, S(lr), S(1.0 - lr * weightDecay), scale };
    }
    // Returns whether every updated weight is finite.
    bool update(const Pass &s, S *p, const S *g, S *good, const S *decay, Eigen::Index i0, Eigen::Index n)
    {
        return fused(s, p + i0, g + i0, good + i0, decay ? decay + i0 : nullptr, m_.data() + i0, v_.data() + i0, n);
    }

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

    // One vectorisable loop over n weights (the arrays never overlap: __restrict)
    static bool fused(const Pass &s, S *__restrict p, const S *__restrict g, S *__restrict good,
                      const S *__restrict decay, S *__restrict m, S *__restrict v, Eigen::Index n)
    {
        return decay ? fusedLoop<true>(s, p, g, good, decay, m, v, n) : fusedLoop<false>(s, p, g, good, decay, m, v, n);
    }

    // The loop itself, compiled with and without the decay mask, so the loop without one tests
    // nothing per weight. Every load of an element comes before its stores: with the kept weight
    // stored first, this pass ran 9 times slower inside an induction-size training step than alone
    // (1.1 ms against 0.12; most likely loads waiting on earlier stores to another array at the same
    // page offset).
    template <bool Masked>
    static bool fusedLoop(const Pass &s, S *__restrict p, const S *__restrict g, S *__restrict good,
                          const S *__restrict decay, S *__restrict m, S *__restrict v, Eigen::Index n)
    {
        const S b1 = S(beta1), a1 = S(1.0 - beta1), b2 = S(beta2), a2 = S(1.0 - beta2), e = S(eps);
        const S big = std::numeric_limits<S>::max();
        int finite = 1;
        for (Eigen::Index i = 0; i < n; ++i) {
            const S gi = g[i] * s.scale, p0 = p[i], m0 = m[i], v0 = v[i];
            S kept = p0 * s.keep;
            if constexpr (Masked) kept = decay[i] != S(0) ? kept : p0;
            const S mi = b1 * m0 + a1 * gi, vi = b2 * v0 + a2 * (gi * gi);
            const S pi = kept - s.lr * (mi / s.c1) / (std::sqrt(vi / s.c2) + e);
            good[i] = p0;
            m[i] = mi;
            v[i] = vi;
            p[i] = pi;
            finite &= int(std::abs(pi) <= big);  // false for inf and nan
        }
        return finite != 0;
    }

    Vec m_, v_;  // first and second moment estimates, laid out as the parameters
    int t_ = 0;
};

} // namespace fb
