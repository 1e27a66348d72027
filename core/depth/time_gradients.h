#pragma once
// The gradient-through-time study of section 218.2: the same random input sequence through a vanilla
// RNN (W_h with spectral radius rho) and an LSTM (forget-gate bias b_f), the loss sum(h_T) at the
// last step, and how much of its gradient reaches every earlier step.
#include <cstdint>
#include <vector>

namespace fb {

struct TimeGradientParams {
    int seqLen = 100;         // T
    int hidden = 32;          // d = H (the chapter's hidden_dim)
    int input = 16;           // m = D (the chapter's embed_dim)
    int batch = 8;
    double radius = 0.9;      // spectral radius of the RNN's W_h
    double forgetBias = 1.0;  // the LSTM's b_f
    std::uint64_t seed = 0;
};

struct TimeGradients {
    std::vector<double> rnn;         // ||dL/dh_k||, k = 0..T
    std::vector<double> lstmCell;    // ||dL/dc_k||, k = 0..T
    std::vector<double> lstmHidden;  // ||dL/dh_k||, k = 0..T
    std::vector<double> lstmCarousel;// the direct cell path alone, ||dL/dc_T . prod f||, k = 0..T
    // Decay rates, per step going back in time (log of the factor per step; negative = vanishing),
    // fitted by least squares to log ||.|| over all steps.
    double rnnRate = 0.0;
    // What the chapter's product predicts for the RNN: log rho + mean_t log rms(tanh'(a_t))
    // (every singular value of W_h is rho; diag(tanh') scales a gradient in general position by
    // its rms).
    double rnnPredictedRate = 0.0;
    double rnnMeanDeriv = 0.0;       // E[tanh'(a_t)]
    double rnnRatio = 0.0;           // ||dL/dh_0|| / ||dL/dh_T||
    double lstmCellRate = 0.0;
    double lstmCellRatio = 0.0;      // ||dL/dc_0|| / ||dL/dc_T||
    double lstmHiddenRatio = 0.0;    // ||dL/dh_0|| / ||dL/dh_T||
    double lstmCarouselRatio = 0.0;  // carousel at k = 0 over dL/dc_T
    double meanForget = 0.0;         // mean forget-gate value
};

// The RNN and the LSTM run in parallel.
TimeGradients timeGradients(const TimeGradientParams &p);

} // namespace fb
