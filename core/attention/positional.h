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

// cos and sin of position r times theta_i for r = 0..n-1: two n x d/2 tables, to rotate many
// matrices (every head's Q and K) at the same positions with one set of cos/sin evaluations.
struct RopeTable {
    Eigen::MatrixXd cos;  // (n, d/2)
    Eigen::MatrixXd sin;  // (n, d/2)
};
RopeTable ropeTable(int n, const Eigen::VectorXd &invFreq);

// applyRopeRows with a precomputed table: X is (n, d) with n = table rows and d = 2 x table cols.
Eigen::MatrixXd applyRopeRows(const Eigen::MatrixXd &X, const RopeTable &table);

// cos and sin of the exact product pos * theta (not of its rounded value): the rounding error of
// the product is recovered with one fma and folded in, so rotations at far-apart positions stay
// consistent to a few ulps and RoPE logits are offset-invariant to ~1e-15 relative. Used by
// applyRope, applyRopeRows, sinusoidalRow and the RoPE sweeps.
void ropeCosSin(double pos, double theta, double &c, double &s);

// The planar rotation R(angle) = [[cos, -sin], [sin, cos]] of 218.4.4.
Eigen::Matrix2d rotation(double angle);

} // namespace fb
