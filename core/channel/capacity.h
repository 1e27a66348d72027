#pragma once
// Section 218.6.1: bits that cross one decoding-step boundary.
#include <vector>

namespace fb {

// Token channel: log2(V) bits, the entropy ceiling of one sampled token.
double tokenBits(double vocab);

// Latent channel: Gaussian capacity (d/2) log2(1 + SNR) bits of a d-dimensional carry.
double latentBits(double d, double snr);

struct CapacityParams {
    double d = 4096;       // model width
    double snr = 10.0;     // per-coordinate signal-to-noise ratio
    double vocab = 128000; // vocabulary size V
};

struct CapacityResult {
    double tokenBits = 0.0;
    double latentBits = 0.0;
    double ratio = 0.0;    // latentBits / tokenBits
};

// Both channels in bits per decoding step and their ratio (0 when V < 2 leaves no token channel).
CapacityResult capacity(const CapacityParams &p);

// The chapter's two tables (Part A of the cell in 218.6.5).
struct TokenRow { double vocab; double bits; };
struct LatentRow { double d; double bits; double ratio; };  // ratio to log2(referenceVocab)
std::vector<TokenRow> tokenTable(const std::vector<double> &vocabs);
std::vector<LatentRow> latentTable(const std::vector<double> &dims, double snr, double referenceVocab);

// The chapter's rows: V = 32,000 / 50,257 / 128,000 / 256,000 and d = 512 ... 8,192.
const std::vector<double> &chapterVocabs();
const std::vector<double> &chapterDims();

} // namespace fb
