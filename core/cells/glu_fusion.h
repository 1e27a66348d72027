#pragma once
// The gated fusion of section 218.6.2: the next input of a latent-feedback decoder is a gated linear
// unit of the sampled token's embedding e and the previous top-layer state h,
//
//   u = [e ; h],   x_next = (W_a u) * sigmoid(W_b u),   W_a, W_b (d_model, d_emb + d_model),
//
// (no biases, as in the chapter's cell). Its cell draws, under torch.manual_seed(3),
// W_a = torch.randn(d, d_e + d) / sqrt(d_e + d), W_b the same, e = torch.randn(4, d_e),
// h = torch.randn(4, d), and later h' = torch.randn_like(h), and prints
//   mean gate value 0.495, fraction of gates above 0.5: 0.493
//   with the h columns zeroed, sensitivity to h_t: 0.0e+00
//
// FullBand draws the same float32 numbers (core/torch/torch_generator.h; the division by sqrt(d_e + d) in
// float32 as torch does it) and computes in double. alpha scales the h columns of W_a and W_b:
// alpha = 1 is the cell's W, alpha = 0 the cell's zeroed columns, the standard decoder. Since
// [W_e, alpha W_h] u = W_e e + alpha (W_h h), the products W_e e, W_h h and W_h h' are formed once
// (GluFusion) and any alpha costs only the elementwise gate: the channel opens continuously and a
// slider on alpha stays cheap. At alpha = 0 the alpha (W_h h) terms are exactly 0, so x(h) and x(h')
// are the same bits and the sensitivity is exactly 0.
#include "core/torch/torch_generator.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct GluFusionParams {
    int dModel = 512;         // d (1..2048): the width of h and of x_next
    int dEmb = 512;           // d_e (1..2048): the width of the token embedding
    int batch = 4;            // rows of e and h (1..64)
    std::uint64_t seed = 3;   // torch.manual_seed(seed) (3: the chapter's)
    double alpha = 1.0;       // scale of the h columns of W_a and W_b (0..1)
    int layers = 32;          // L, transformer layers, for the overhead (1..1024)
    int bins = 40;            // gate histogram bins over (0, 1) (1..1000)
    int curvePoints = 51;     // alphas 0, 1/(k-1), ..., 1 for the sensitivity curve (2..1001)
    TorchCpuKernel kernel = TorchCpuKernel::Avx2;  // whose float32 draws (Debian's PyTorch: Avx2)
};

// The fusion's cost against the stack's, per the chapter's accounting (dense layers only).
struct GluFusionOverhead {
    double fusionParams = 0.0;    // 2 d (d_e + d): W_a and W_b (4 d^2 at d_e = d)
    double fusionFlops = 0.0;     // 2 x fusionParams per decoded token (8 d^2)
    double stackParams = 0.0;     // 12 d^2 L: 4 d^2 attention + 8 d^2 feed-forward per layer
    double stackFlops = 0.0;      // 24 d^2 L per decoded token
    double paramRatio = 0.0;      // fusionParams / stackParams (1/(3L) = 1.04% at L = 32, d_e = d)
    double flopRatio = 0.0;       // fusionFlops / stackFlops
};

struct GluFusionResult {
    double alpha = 0.0;
    double meanGate = 0.0;         // mean of sigmoid(W_b u) over batch x d (the chapter: 0.495)
    double fractionOpen = 0.0;     // fraction of gates > 0.5 (the chapter: 0.493)
    int gatesOpen = 0;             // their count (1009 of 2048 at the chapter's settings)
    std::vector<int> gateHistogram;  // [bins] counts of gates in [k / bins, (k + 1) / bins)
    double sensitivity = 0.0;      // max |x(h) - x(h')| at alpha (exactly 0 at alpha = 0)
    std::vector<double> curveAlpha;        // [curvePoints] 0 .. 1
    std::vector<double> curveSensitivity;  // [curvePoints] the sensitivity at each alpha
    GluFusionOverhead overhead;
};

// Empty when p is valid, otherwise one sentence naming the key and its valid range.
std::string checkGluFusionParams(const GluFusionParams &p);

// The overhead numbers for d_model, d_emb and layers of p.
GluFusionOverhead gluFusionOverhead(const GluFusionParams &p);

// The draws and products of one (d_model, d_emb, batch, seed, kernel): keep one while only alpha,
// bins, curvePoints or layers change. Immutable after construction; at() may be called from several
// threads at once.
class GluFusion {
public:
    // Throws std::invalid_argument with checkGluFusionParams' sentence for invalid p.
    explicit GluFusion(const GluFusionParams &p);

    // Whether p has the sizes, seed and kernel this object was drawn for.
    bool sameDraws(const GluFusionParams &p) const;

    // Everything at p.alpha (p's sizes and seed are not looked at: see sameDraws), with the sensitivity
    // curve over p.curvePoints alphas (kept from the constructor when curvePoints is unchanged, so a
    // change of alpha costs one elementwise pass over batch x d_model).
    GluFusionResult at(const GluFusionParams &p) const;

    // The sensitivity at points alphas k / (points - 1), k = 0 .. points - 1.
    std::vector<double> sensitivityCurve(int points) const;
    static std::vector<double> curveAlphas(int points);

    // max |x(h) - x(h')| with the h columns scaled by alpha.
    double sensitivity(double alpha) const;

    // The gates sigmoid(W_b u) at alpha, (batch, d_model).
    Eigen::MatrixXd gates(double alpha) const;

private:
    GluFusionParams draws_;
    // Each (batch, d_model): the e part and the h and h' parts of u W^T, for W_a (A) and W_b (B).
    Eigen::MatrixXd Ae_, Ah_, Ah2_, Be_, Bh_, Bh2_;
    std::vector<double> curve_;  // sensitivityCurve(draws_.curvePoints)
};

// GluFusion(p).at(p).
GluFusionResult gluFusion(const GluFusionParams &p);

} // namespace fb
