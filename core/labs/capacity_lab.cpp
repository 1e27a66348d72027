#include "core/labs/capacity_lab.h"

#include <cmath>

namespace fb {

const LabSpec &CapacityLab::spec()
{
    static const LabSpec spec { "capacity", "Channel capacity", {
        integerParam("d", "model width d", "coordinates", 1, 1048576, 4096, "Width of the latent carry h_t.", true),
        realParam("snr", "signal-to-noise ratio", "", 0, 1e6, 10,
                  "Usable signal-to-noise ratio per latent coordinate (not in dB).", true),
        integerParam("vocab", "vocabulary size V", "tokens", 2, 1e9, 128000,
                     "Vocabulary size; one sampled token carries at most log2(V) bits.", true),
        integerParam("vocab_min", "band: smallest V", "tokens", 2, 1e9, 32000,
                     "Lower edge of the shaded token-only band log2(V); the chapter draws 32,000", true),
        integerParam("vocab_max", "band: largest V", "tokens", 2, 1e9, 256000,
                     "Upper edge of the shaded token-only band log2(V); the chapter draws 256,000", true),
    }, "218.6.1, Figure 218.2 (left)",
        "The token channel log2(V) against the latent channel (d/2)·log2(1 + SNR), with the chapter's tables.",
        "218.6.1 Two axes, two very different bandwidths" };
    return spec;
}

std::string CapacityLab::check(const ParamValues &v)
{
    if (std::string err = checkAll(spec(), v); !err.empty()) return err;
    const double lo = v.number("vocab_min"), hi = v.number("vocab_max");
    if (lo > hi)
        return "vocab_min (tokens) must be at most vocab_max = " + formatNumber(hi) + ", got " + formatNumber(lo);
    return {};
}

CapacityLabResult CapacityLab::compute(const ParamValues &v, const RunControl &)
{
    refuseUnless(check(v));
    Result r;
    r.point = CapacityParams { v.number("d"), v.number("snr"), v.number("vocab") };
    r.vocabMin = v.number("vocab_min");
    r.vocabMax = v.number("vocab_max");
    const double d = r.point.d, snr = r.point.snr;
    r.chosen = capacity(r.point);

    // Powers of two around the chapter's 64 ... 16,384, widened to keep the chosen d inside.
    while (r.dMin > d / 2 && r.dMin > 1) r.dMin /= 2;
    while (r.dMax < d * 2) r.dMax *= 2;
    const int n = 97;
    for (int i = 0; i < n; ++i) {
        const double x = r.dMin * std::pow(r.dMax / r.dMin, double(i) / (n - 1));
        r.widths.push_back(x);
        r.latentBits.push_back(latentBits(x, snr));
        r.snrOneBits.push_back(latentBits(x, 1.0));
    }
    for (double dim : chapterDims()) {
        r.markLatentBits.push_back(latentBits(dim, snr));
        r.markSnrOneBits.push_back(latentBits(dim, 1.0));
    }
    r.bandLowBits = tokenBits(r.vocabMin);
    r.bandHighBits = tokenBits(r.vocabMax);
    r.bitsPerCoordinate = 0.5 * std::log2(1.0 + snr);
    r.bfloat16Bits = 16.0 * d;
    r.tokenRows = tokenTable(chapterVocabs());
    r.latentRows = latentTable(chapterDims(), snr, r.point.vocab);
    return r;
}

void writeJson(JsonWriter &json, const CapacityLabResult &r)
{
    json.beginObject()
        .field("token_bits", r.chosen.tokenBits)
        .field("latent_bits", r.chosen.latentBits)
        .field("ratio", r.chosen.ratio)
        .field("bits_per_coordinate", r.bitsPerCoordinate)
        .field("bfloat16_bits", r.bfloat16Bits)
        .field("band_bits", std::vector<double> { r.bandLowBits, r.bandHighBits })
        .field("widths", r.widths)
        .field("latent_curve", r.latentBits)
        .field("snr_one_curve", r.snrOneBits);
    json.key("token_table").beginArray();
    for (const TokenRow &t : r.tokenRows) json.beginObject().field("vocab", t.vocab).field("bits", t.bits).endObject();
    json.endArray();
    json.key("latent_table").beginArray();
    for (const LatentRow &l : r.latentRows)
        json.beginObject().field("d", l.d).field("bits", l.bits).field("ratio", l.ratio).endObject();
    json.endArray();
    json.endObject();
}

} // namespace fb
