#pragma once
// The LSTM of section 218.2.1 (Hochreiter and Schmidhuber, 1997), forward and backward through time,
// written out by hand in double precision:
//   f_t = sigma(W_f [h_{t-1}, x_t] + b_f)      forget gate
//   i_t = sigma(W_i [h_{t-1}, x_t] + b_i)      input gate
//   g_t = tanh (W_c [h_{t-1}, x_t] + b_c)      candidate cell (the chapter's c~_t)
//   o_t = sigma(W_o [h_{t-1}, x_t] + b_o)      output gate
//   c_t = f_t . c_{t-1} + i_t . g_t            cell update: the "constant error carousel"
//   h_t = o_t . tanh(c_t)
// Backward, dL/dc_{t-1} picks up dL/dc_t . f_t directly: with f near 1 the cell gradient crosses
// many steps undiminished, with f near 0 it dies within a few.
#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace fb {

// Gates stacked in the chapter's order f, i, g, o: rows [0, H) of W and b belong to f, [H, 2H) to
// i, [2H, 3H) to g, [3H, 4H) to o.
struct LstmWeights {
    Eigen::MatrixXd W;  // (4H, H + D) acting on [h_{t-1}; x_t]
    Eigen::VectorXd b;  // (4H)
    int hidden() const { return int(W.rows() / 4); }
    int input() const { return int(W.cols()) - hidden(); }
};

// Random weights for the gradient study: W ~ N(0, scale^2 / (H + D)), b_f = forgetBias, other biases 0.
LstmWeights makeStudyLstm(int hidden, int input, double scale, double forgetBias, std::uint64_t seed);

// What the forward pass keeps for the backward pass. x_t is (D, B) at index t - 1.
struct LstmCache {
    std::vector<Eigen::MatrixXd> h, c;  // (H, B), t = 0..T (index 0: the initial state)
    std::vector<Eigen::MatrixXd> gates; // (4H, B) f, i, g, o after their nonlinearity, t = 1..T (index t - 1)
    std::vector<Eigen::MatrixXd> tanhC; // tanh(c_t), t = 1..T (index t - 1)
};
void lstmForward(const LstmWeights &w, const std::vector<Eigen::MatrixXd> &x, const Eigen::MatrixXd &h0,
                 const Eigen::MatrixXd &c0, LstmCache &cache);

// Gradients. dW and db accumulate (+=): zero them first (lstmZeroGrads).
struct LstmGrads {
    Eigen::MatrixXd dW;              // like W
    Eigen::VectorXd db;              // like b
    Eigen::MatrixXd dh0, dc0;        // (H, B)
    std::vector<Eigen::MatrixXd> dx; // (D, B) per step, filled only when asked for
};
void lstmZeroGrads(const LstmWeights &w, LstmGrads &g);

// ||dL/dc_k|| and ||dL/dh_k|| (Frobenius over the batch), k = 0..T. dL/dc_k is the total derivative,
// through c_{k+1} and through h_k = o_k . tanh(c_k).
struct LstmStepNorms {
    std::vector<double> cell, hidden;
};

// Backpropagates a loss whose only dependence on the sequence is through h_T: dhT = dL/dh_T (H, B).
void lstmBackward(const LstmWeights &w, const LstmCache &cache, const std::vector<Eigen::MatrixXd> &x,
                  const Eigen::MatrixXd &dhT, LstmGrads &g, bool wantDx = false, LstmStepNorms *norms = nullptr);

// The gradient study: loss L = sum of h_T from zero initial states over random inputs x.
struct LstmStudy {
    std::vector<double> cellGradNorm;   // ||dL/dc_k||, k = 0..T
    std::vector<double> hiddenGradNorm; // ||dL/dh_k||, k = 0..T
    // The carousel alone: ||dL/dc_T . f_T . f_{T-1} ... f_{k+1}||, the part of dL/dc_k that crossed
    // every cell update on the direct path c_{t-1} -> c_t (no detour through h and the gates).
    std::vector<double> carouselGradNorm;  // k = 0..T
    double meanForget = 0.0;            // mean of f_t over units, batch and steps
};
LstmStudy lstmGradientNorms(const LstmWeights &w, const std::vector<Eigen::MatrixXd> &x);

} // namespace fb
