#pragma once
// Lab: bits crossing one decoding-step boundary (218.6.1 and Figure 218.2, left, of
// 000_031aadcae6604a46.txt): the token channel log2(V) against the Gaussian capacity
// (d/2) log2(1 + SNR) of the latent carry, with the chapter's two tables.
#include "core/channel/capacity.h"
#include "core/lab/lab.h"

#include <vector>

namespace fb {

struct CapacityLabResult {
    CapacityParams point;                 // the chosen d, SNR and V
    double vocabMin = 32000, vocabMax = 256000;  // the token band's edges
    CapacityResult chosen;                // both channels at the chosen point, and their ratio
    double dMin = 64, dMax = 16384;       // the width range drawn: powers of two holding the chosen d
    std::vector<double> widths;           // 97 log-spaced widths over [dMin, dMax]
    std::vector<double> latentBits;       // at widths, SNR = snr
    std::vector<double> snrOneBits;       // at widths, SNR = 1
    std::vector<double> markLatentBits;   // at the chapter's widths (chapterDims()), SNR = snr
    std::vector<double> markSnrOneBits;   // the same at SNR = 1
    double bandLowBits = 0, bandHighBits = 0;  // log2 of the band's edges
    double bitsPerCoordinate = 0;         // (1/2) log2(1 + SNR)
    double bfloat16Bits = 0;              // 16 d: what h_t occupies in bfloat16
    std::vector<TokenRow> tokenRows;      // the chapter's first table
    std::vector<LatentRow> latentRows;    // its second, at the chosen SNR and V
};

class CapacityLab {
public:
    using Result = CapacityLabResult;
    // d, snr, vocab, vocab_min, vocab_max
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // vocab_min <= vocab_max too
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const CapacityLabResult &r);

} // namespace fb
