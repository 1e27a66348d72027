#pragma once
// Finite-difference gradient checks for the depth lab's hand-written backward passes (double
// precision, central differences): the analytic gradient of every checked entry must match
// (L(p + h) - L(p - h)) / 2h.
#include "core/rng.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>

namespace fb::test {

struct GradCheck {
    double maxRelError = 0.0;
    int checked = 0;
    std::string worst;  // which tensor and entry gave maxRelError
};

// Checks entries of the tensor at data (size entries) against analytic (same layout). loss() must
// recompute the loss from the current parameter values. The relative error of an entry is
// |a - n| / max(|a|, |n|, floor) with floor = 1e-3 * the tensor's largest |analytic| entry, so
// entries a thousand times smaller than the tensor's largest are held to that scale.
// Checks every entry when maxEntries >= size, otherwise maxEntries random ones.
template <class LossFn>
void checkTensor(GradCheck &check, const std::string &name, double *data, const double *analytic, Eigen::Index size,
                 LossFn &&loss, int maxEntries = 1 << 30, double h = 1e-5, std::uint64_t seed = 7)
{
    if (size == 0) return;
    const double scale = Eigen::Map<const Eigen::ArrayXd>(analytic, size).abs().maxCoeff();
    const double floor = std::max(1e-3 * scale, 1e-12);
    Rng rng(seed);
    const bool all = maxEntries >= size;
    const Eigen::Index n = all ? size : maxEntries;
    for (Eigen::Index k = 0; k < n; ++k) {
        const Eigen::Index i = all ? k : Eigen::Index(rng.below(std::uint64_t(size)));
        const double saved = data[i];
        data[i] = saved + h;
        const double up = loss();
        data[i] = saved - h;
        const double down = loss();
        data[i] = saved;
        const double numeric = (up - down) / (2.0 * h);
        const double a = analytic[i];
        const double err = std::fabs(a - numeric) / std::max({ std::fabs(a), std::fabs(numeric), floor });
        ++check.checked;
        if (err > check.maxRelError) {
            check.maxRelError = err;
            check.worst = name + "[" + std::to_string(i) + "]: analytic " + std::to_string(a) + ", numeric "
                + std::to_string(numeric);
        }
    }
}

inline Eigen::MatrixXd randomMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd = 1.0)
{
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = sd * rng.normal();
    return m;
}

} // namespace fb::test
