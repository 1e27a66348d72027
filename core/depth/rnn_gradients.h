#pragma once
// Section 218.2 of the chapter: vanishing gradients through time in the vanilla RNN
//   h_t = tanh(W_h h_{t-1} + W_x x_t + b),   t = 1..T,
// where dL/dh_k = dL/dh_T prod_{t=k+1..T} diag(tanh'(a_t)) W_h (transposed, going backward).
// W_h is rho Q with Q a random orthogonal matrix: every eigenvalue of Q lies on the unit circle, so
// rho Q has spectral radius exactly rho and every singular value rho as well, and each backward step
// multiplies the gradient norm by about rho * rms(tanh'(a_t)). All in double precision.
#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace fb {

struct RnnParams {
    int hidden = 32;          // d (the chapter's hidden_dim)
    int input = 16;           // m (the chapter's embed_dim)
    int seqLen = 100;         // T
    int batch = 8;            // independent sequences, x_t ~ N(0, I)
    double radius = 0.9;      // rho, the spectral radius of W_h
    double inputScale = 1.0;  // W_x ~ N(0, inputScale^2 / m)
    std::uint64_t seed = 0;
};

struct RnnWeights {
    Eigen::MatrixXd Wh;  // (d, d)
    Eigen::MatrixXd Wx;  // (d, m)
    Eigen::VectorXd b;   // (d)
};

// A Haar-random orthogonal n x n matrix (QR of a Gaussian matrix, signs fixed by R's diagonal).
Eigen::MatrixXd randomOrthogonal(int n, std::uint64_t seed);

// W_h = rho Q, W_x ~ N(0, inputScale^2 / m), b = 0.
RnnWeights makeRnn(const RnnParams &p);

// T inputs x_t (m, B) ~ N(0, 1), t = 1..T (stored at index t - 1).
std::vector<Eigen::MatrixXd> randomSequence(int input, int seqLen, int batch, std::uint64_t seed);

struct RnnGrads {
    Eigen::MatrixXd dWh, dWx;
    Eigen::VectorXd db;
    Eigen::MatrixXd dh0;
};

struct RnnPass {
    double loss = 0.0;               // sum of the entries of R . h_T (R = dL/dh_T)
    std::vector<double> gradNorm;    // ||dL/dh_k|| (Frobenius over the batch), k = 0..T
    std::vector<double> derivRms;    // rms of tanh'(a_t) over units and batch, t = 1..T (index t - 1)
    double meanDeriv = 0.0;          // mean of tanh'(a_t) over everything
};

// Runs h_1..h_T from h0 (d, B) and backpropagates the loss L = sum(R . h_T), i.e. dL/dh_T = R
// ((d, B); an empty R means all ones: L = sum of h_T).
RnnPass rnnPass(const RnnWeights &w, const std::vector<Eigen::MatrixXd> &x, const Eigen::MatrixXd &h0,
                const Eigen::MatrixXd &R = Eigen::MatrixXd(), RnnGrads *grads = nullptr);

// Least-squares slope of log(norms[k]) against k over the entries that are positive and finite
// (0 when fewer than two are).
double logSlope(const std::vector<double> &norms);

} // namespace fb
