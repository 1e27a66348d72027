#include "core/attention/toeplitz.h"

#include <algorithm>
#include <cmath>

namespace fb {

ToeplitzDeviation toeplitzDeviation(const Eigen::MatrixXd &M)
{
    ToeplitzDeviation out;
    const Eigen::Index n = std::min(M.rows(), M.cols());
    if (n == 0) return out;
    const auto A = M.topLeftCorner(n, n);
    out.scale = A.cwiseAbs().maxCoeff();
    // Column-major: walk down each column j; entry (i, j) sits on the diagonal that starts at
    // (0, j - i) above the main diagonal and at (i - j, 0) on or below it. Both starts are
    // contiguous runs, so each column is two vectorised differences: rows i < j against row 0
    // read backwards (A(0, j), A(0, j - 1), ..., A(0, 1)), rows i >= j against column 0.
    const Eigen::VectorXd row0 = A.row(0).transpose();
    for (Eigen::Index j = 0; j < n; ++j) {
        if (j > 0)
            out.maxAbs = std::max(out.maxAbs, (A.col(j).head(j) - row0.segment(1, j).reverse()).cwiseAbs().maxCoeff());
        out.maxAbs = std::max(out.maxAbs, (A.col(j).tail(n - j) - A.col(0).head(n - j)).cwiseAbs().maxCoeff());
    }
    return out;
}

} // namespace fb
