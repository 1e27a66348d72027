#pragma once
// Lab: the long-term decay of RoPE's bound (Figure 218.1, right, of 000_031aadcae6604a46.txt), with
// context extension (PI, NTK-aware, YaRN) and the wavelength of each frequency pair.
#include "core/rope/decay_bound.h"
#include "core/run/budget.h"
#include "core/lab/lab.h"

#include <string>
#include <vector>

namespace fb {

struct DecayBoundLabResult {
    DecayBoundParams params;
    bool extended = false;               // a scaling other than none
    std::string extensionName;           // "YaRN, s = 8" (empty without extension)
    std::vector<double> distance;        // 1..max_distance
    std::vector<double> bound;           // plain RoPE: the chapter's curve
    std::vector<double> scaledBound;     // on the rescaled frequencies (empty without extension)
    double at1 = 0, at64 = 0, at512 = 0, atMax = 0;  // the plain bound at the chapter's marks
    double fall512 = 0;                  // at1 / at512: how far it falls over 512 tokens
    std::vector<double> wavelength;        // lambda_i = 2 pi / theta_i per pair, plain
    std::vector<double> scaledWavelength;  // rescaled (empty without extension)
    double effectiveBase = 0;            // b' (NTK-aware changes it; the others keep b)
    double attentionFactor = 1;          // YaRN's logit scale (1 otherwise)
};

class DecayBoundLab {
public:
    using Result = DecayBoundLabResult;
    // d, base, max_distance, scaling, factor, trained_length
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // also the budget of core/run/budget.h
    static Cost cost(const ParamValues &values);           // of checked values
    static DecayBoundParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const DecayBoundLabResult &r);

} // namespace fb
