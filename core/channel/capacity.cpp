#include "core/channel/capacity.h"

#include <cmath>

namespace fb {

double tokenBits(double vocab)
{
    // H(y) <= log2 V bits, equality for a uniform prediction.
    return std::log2(vocab);
}

double latentBits(double d, double snr)
{
    // Shannon capacity of d independent Gaussian coordinates: (d / 2) log2(1 + SNR) bits.
    return 0.5 * d * std::log2(1.0 + snr);
}

CapacityResult capacity(const CapacityParams &p)
{
    CapacityResult r;
    r.tokenBits = tokenBits(p.vocab);
    r.latentBits = latentBits(p.d, p.snr);
    // V >= 2 gives tokenBits >= 1; a smaller V has no channel to compare against.
    r.ratio = r.tokenBits > 0.0 ? r.latentBits / r.tokenBits : 0.0;
    return r;
}

std::vector<TokenRow> tokenTable(const std::vector<double> &vocabs)
{
    std::vector<TokenRow> rows;
    rows.reserve(vocabs.size());
    for (double v : vocabs) rows.push_back({ v, tokenBits(v) });
    return rows;
}

std::vector<LatentRow> latentTable(const std::vector<double> &dims, double snr, double referenceVocab)
{
    const double ref = tokenBits(referenceVocab);
    std::vector<LatentRow> rows;
    rows.reserve(dims.size());
    for (double d : dims) {
        const double bits = latentBits(d, snr);
        rows.push_back({ d, bits, ref > 0.0 ? bits / ref : 0.0 });
    }
    return rows;
}

const std::vector<double> &chapterVocabs()
{
    static const std::vector<double> v { 32000, 50257, 128000, 256000 };
    return v;
}

const std::vector<double> &chapterDims()
{
    static const std::vector<double> d { 512, 1024, 2048, 4096, 8192 };
    return d;
}

} // namespace fb
