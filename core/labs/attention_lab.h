#pragma once
// Lab: multi-head self-attention (218.4.1 - 218.4.4 of 000_031aadcae6604a46.txt). softmax(QK^T/sqrt(d_k))
// per head over none, sinusoidal or RoPE positions, each head's entropy against the uniform ln n, and
// how far the pre-softmax logits are from Toeplitz (RoPE on a repeated token: a function of j - i);
// with sinusoidal positions the table PE(pos, i) the lab adds and each pair's wavelength; and the
// chapter's multi-head attention cell (218.4.5, core/cells/mha_cell.h) at the lab's sizes and seed.
#include "core/attention/attention.h"
#include "core/run/budget.h"
#include "core/cells/mha_cell.h"
#include "core/lab/lab.h"
#include "core/numeric/matrix_pool.h"
#include "core/attention/toeplitz.h"

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

    // positional = sinusoidal: the table added to the embeddings, (n, d_model), PE(pos, 2i) =
    // sin(pos b^(-2i/d)), PE(pos, 2i+1) = cos(...), and the wavelength 2 pi b^(2i/d) of each pair i
    // (d_model / 2); null and empty otherwise.
    std::shared_ptr<const Eigen::MatrixXd> pe;
    std::vector<double> peWavelength;

    // The chapter's cell (218.4.5) at the lab's n, d_model, heads and seed, with its sinusoidal table
    // (base 10000) or none: x = torch.randn(3, n, d_model), its own projections (PyTorch's init).
    bool cellRun = false;
    std::string cellNote;                 // why the cell did not run (RoPE, or sizes beyond its range)
    std::shared_ptr<const MhaCell> cell;  // null unless cellRun
};

class AttentionLab {
public:
    using Result = AttentionLabResult;
    // Relative deviation below which the logits count as Toeplitz (rounding is ~1e-15).
    static constexpr double kToeplitzTolerance = 1e-10;
    // n, d_model, heads, positional, base, causal, scaled, seed, content, sentence
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // heads | d_model, even RoPE heads, 1-512 words
    static Cost cost(const ParamValues &values);  // of checked values (core/run/budget.h; check applies it)
    static AttentionParams params(const ParamValues &values);  // checked values
    // Reuses the memory of results nobody holds any more (a live lab recomputes at the same sizes).
    Result compute(const ParamValues &values, const RunControl &stop);

private:
    MatrixPool pool_;
};

void writeJson(JsonWriter &json, const AttentionLabResult &r);

} // namespace fb
