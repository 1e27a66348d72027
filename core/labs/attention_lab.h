#pragma once
// Lab: multi-head self-attention (218.4.1 - 218.4.4 of 000_031aadcae6604a46.txt). softmax(QK^T/sqrt(d_k))
// per head over none, sinusoidal or RoPE positions, each head's entropy against the uniform ln n, and
// how far the pre-softmax logits are from Toeplitz (RoPE on a repeated token: a function of j - i).
#include "core/attention.h"
#include "core/lab.h"
#include "core/matrix_pool.h"
#include "core/toeplitz.h"

#include <memory>
#include <string>
#include <vector>

namespace fb {

struct AttentionLabResult {
    AttentionParams params;
    int n = 0, heads = 0, dk = 0;
    std::shared_ptr<std::vector<Eigen::MatrixXd>> weights;  // [heads], each n x n, rows = queries
    double maxWeight = 0;                 // the largest weight over every head (the colour scale's top)
    std::vector<double> entropy;          // [heads], mean row entropy in nats
    std::vector<std::string> tokens;      // [n] word or "t0", "t1", ...
    double meanEntropy = 0;               // over heads
    double uniformEntropy = 0;            // ln n: attending equally to every key
    double causalUniformEntropy = 0;      // mean over queries of ln(i + 1): uniform over visible keys
    double meanOverUniform = 0;           // meanEntropy / (causal ? causalUniform : uniform)
    ToeplitzDeviation toeplitz;           // the worst head's logits
    bool toeplitzHolds = false;           // toeplitz.relative() <= kToeplitzTolerance
};

class AttentionLab {
public:
    using Result = AttentionLabResult;
    // Relative deviation below which the logits count as Toeplitz (rounding is ~1e-15).
    static constexpr double kToeplitzTolerance = 1e-10;
    // n, d_model, heads, positional, base, causal, scaled, seed, content, sentence
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // heads | d_model, even RoPE heads, 1-512 words
    static AttentionParams params(const ParamValues &values);  // checked values
    // Reuses the memory of results nobody holds any more (a live lab recomputes at the same sizes).
    Result compute(const ParamValues &values, const RunControl &stop);

private:
    MatrixPool pool_;
};

void writeJson(JsonWriter &json, const AttentionLabResult &r);

} // namespace fb
