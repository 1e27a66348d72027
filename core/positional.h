#pragma once
// Positional encodings of section 218.4.3 and 218.4.4 of 000_031aadcae6604a46.txt:
// the sinusoidal table and rotary position embeddings (RoPE), in double precision.
#include <Eigen/Dense>

namespace fb {

// Sinusoidal encodings for positions 0..n-1 and width d (d even):
// PE(pos, 2i) = sin(pos * b^(-2i/d)), PE(pos, 2i+1) = cos(pos * b^(-2i/d)). Shape n x d.
Eigen::MatrixXd sinusoidalTable(int n, int d, double base = 10000.0);

// One row of the table above, for one (possibly large) position.
Eigen::VectorXd sinusoidalRow(double pos, int d, double base = 10000.0);

// RoPE frequencies theta_i = b^(-2i/d), i = 0..d/2-1 (d even).
Eigen::VectorXd ropeInvFreq(int d, double base = 10000.0);

// Per-pair rotation angles m * theta_i for each position: shape positions.size() x invFreq.size().
Eigen::MatrixXd ropeAngles(const Eigen::VectorXd &positions, const Eigen::VectorXd &invFreq);

// Rotates each consecutive pair (2i, 2i+1) of x by the angle pos * invFreq[i].
// x.size() must be 2 * invFreq.size().
Eigen::VectorXd applyRope(const Eigen::VectorXd &x, double pos, const Eigen::VectorXd &invFreq);

// Row r of X (n x d) rotated as a token at position r.
Eigen::MatrixXd applyRopeRows(const Eigen::MatrixXd &X, const Eigen::VectorXd &invFreq);

} // namespace fb
