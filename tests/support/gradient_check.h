#pragma once
// FullBand's one finite-difference gradient checker, for every hand-written backward pass (the toy
// trainer's layers, the depth lab, the LSTM, the transformer). Double precision, central
// differences (L(p + h) - L(p - h)) / 2h, one error measure everywhere: the relative error of a
// tensor's gradient,
//     ||analytic - numeric|| / max(||analytic||, ||numeric||)   (0 when both vanish),
// over the entries checked (all of them, or a seeded sample for large tensors).
#include "core/numeric/rng.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace fb::test {

// The relative error of two gradients of the same shape.
inline double relativeError(const Eigen::MatrixXd &analytic, const Eigen::MatrixXd &numeric)
{
    const double scale = std::max(analytic.norm(), numeric.norm());
    return scale == 0.0 ? 0.0 : (analytic - numeric).norm() / scale;
}

// Central differences of f with respect to every entry of x (x is restored).
template <typename Matrix>
Eigen::MatrixXd numericGradient(const std::function<double()> &f, Matrix &x, double h = 1e-5)
{
    Eigen::MatrixXd g(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double saved = x.data()[i];
        x.data()[i] = saved + h;
        const double up = f();
        x.data()[i] = saved - h;
        const double down = f();
        x.data()[i] = saved;
        g.data()[i] = (up - down) / (2 * h);
    }
    return g;
}

// The worst tensor of a model's check.
struct GradCheck {
    double maxRelError = 0.0;
    int checked = 0;    // entries compared
    std::string worst;  // which tensor gave maxRelError
};

// Checks the tensor at data (size entries) against analytic (same layout). loss() recomputes the
// loss from the current parameter values. Every entry when maxEntries >= size, otherwise
// maxEntries seeded random ones.
template <class LossFn>
void checkTensor(GradCheck &check, const std::string &name, double *data, const double *analytic, Eigen::Index size,
                 LossFn &&loss, int maxEntries = 1 << 30, double h = 1e-5, std::uint64_t seed = 7)
{
    if (size == 0) return;
    Rng rng(seed);
    const bool all = maxEntries >= size;
    const Eigen::Index n = all ? size : maxEntries;
    Eigen::VectorXd a(n), numeric(n);
    for (Eigen::Index k = 0; k < n; ++k) {
        const Eigen::Index i = all ? k : Eigen::Index(rng.below(std::uint64_t(size)));
        const double saved = data[i];
        data[i] = saved + h;
        const double up = loss();
        data[i] = saved - h;
        const double down = loss();
        data[i] = saved;
        numeric[k] = (up - down) / (2.0 * h);
        a[k] = analytic[i];
    }
    check.checked += int(n);
    const double err = relativeError(a, numeric);
    if (err >= check.maxRelError) {
        check.maxRelError = err;
        check.worst = name + ": relative error " + std::to_string(err) + " over " + std::to_string(n) + " entries (|analytic| "
            + std::to_string(a.norm()) + ", |numeric| " + std::to_string(numeric.norm()) + ")";
    }
}

inline Eigen::MatrixXd randomMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd = 1.0)
{
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = sd * rng.normal();
    return m;
}

} // namespace fb::test
