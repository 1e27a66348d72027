#pragma once
// How far a square matrix is from being Toeplitz (constant along every diagonal). Under RoPE the
// pre-softmax logits of a repeated token depend only on the offset j - i, so they are Toeplitz.
#include <Eigen/Dense>

namespace fb {

struct ToeplitzDeviation {
    double maxAbs = 0.0;    // max |M(i, j) - M(i - s, j - s)|, s = min(i, j): each entry against the
                            // first entry of its diagonal (in the first row or the first column)
    double scale = 0.0;     // max |M(i, j)|, to read maxAbs relative to the matrix's size
    double relative() const { return scale > 0.0 ? maxAbs / scale : 0.0; }
};

// O(n^2), no allocation. M must be square (n x n); an empty matrix gives zeros.
ToeplitzDeviation toeplitzDeviation(const Eigen::MatrixXd &M);

} // namespace fb
