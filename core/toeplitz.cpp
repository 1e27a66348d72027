#include "core/toeplitz.h"

#include <algorithm>
#include <cmath>

namespace fb {

ToeplitzDeviation toeplitzDeviation(const Eigen::MatrixXd &M)
{
    ToeplitzDeviation out;
    const Eigen::Index n = std::min(M.rows(), M.cols());
    if (n == 0) return out;
    out.scale = M.topLeftCorner(n, n).cwiseAbs().maxCoeff();
    // Column-major: walk down each column j; entry (i, j) sits on the diagonal that starts at
    // (i - j, 0) below the main diagonal and at (0, j - i) above it.
    for (Eigen::Index j = 0; j < n; ++j) {
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::Index s = std::min(i, j);
            out.maxAbs = std::max(out.maxAbs, std::fabs(M(i, j) - M(i - s, j - s)));
        }
    }
    return out;
}

} // namespace fb
