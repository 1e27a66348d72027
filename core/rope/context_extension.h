#pragma once
// Context extension of RoPE by rescaling its frequencies (end of 218.4.4):
// position interpolation (PI), NTK-aware base change, and YaRN's "by-parts" ramp.
#include <Eigen/Dense>
#include <string>

namespace fb {

enum class ScalingMethod { None, PI, NTK, YaRN };

// "none" | "pi" | "ntk" | "yarn" and back. parseScalingMethod returns false for other text.
std::string scalingMethodName(ScalingMethod m);
bool parseScalingMethod(const std::string &text, ScalingMethod &out);

struct ContextExtension {
    ScalingMethod method = ScalingMethod::None;
    double factor = 1.0;          // s >= 1: how many times the trained length to reach
    double trainedLength = 4096;  // L, the context the model was trained on (tokens)
    double alpha = 1.0;           // YaRN ramp: pairs with r(i) < alpha are fully interpolated
    double beta = 32.0;           // YaRN ramp: pairs with r(i) > beta are left alone
};

struct ScaledFrequencies {
    Eigen::VectorXd invFreq;       // theta_i after scaling, i = 0..d/2-1
    double base = 10000.0;         // effective base (NTK: b * s^(d/(d-2)); otherwise b)
    double attentionFactor = 1.0;  // YaRN: 0.1 ln(s) + 1 (multiplies logits' temperature); 1 otherwise
};

// PI: theta_i / s. NTK: theta_i from base b' = b s^(d/(d-2)). YaRN: with lambda_i = 2 pi / theta_i,
// r(i) = L / lambda_i, ramp gamma(r) = clamp((r - alpha) / (beta - alpha), 0, 1),
// theta_i' = (1 - gamma) theta_i / s + gamma theta_i. At s = 1 every method returns plain RoPE.
ScaledFrequencies scaledFrequencies(int d, double base, const ContextExtension &ext);

// Pieces of the above, exposed for panels and tests.
// NTK-aware base b s^(d/(d-2)) (b itself for d = 2, where theta_0 = 1 whatever the base, or s = 1).
double ntkBase(int d, double base, double factor);
// YaRN ramp gamma(r) = clamp((r - alpha) / (beta - alpha), 0, 1), r = turns over the trained length.
double yarnRamp(double r, double alpha, double beta);
// YaRN attention factor 0.1 ln(s) + 1 (1 for s <= 1).
double yarnAttentionFactor(double factor);

// Wavelength lambda_i = 2 pi / theta_i of each pair (tokens per full turn).
Eigen::VectorXd wavelengths(const Eigen::VectorXd &invFreq);

} // namespace fb
