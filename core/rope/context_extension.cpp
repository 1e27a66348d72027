#include "core/rope/context_extension.h"

#include "core/attention/positional.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fb {

std::string scalingMethodName(ScalingMethod m)
{
    switch (m) {
    case ScalingMethod::None: return "none";
    case ScalingMethod::PI: return "pi";
    case ScalingMethod::NTK: return "ntk";
    case ScalingMethod::YaRN: return "yarn";
    }
    return "none";
}

bool parseScalingMethod(const std::string &text, ScalingMethod &out)
{
    for (ScalingMethod m : { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN }) {
        if (text == scalingMethodName(m)) {
            out = m;
            return true;
        }
    }
    return false;
}

double ntkBase(int d, double base, double factor)
{
    // b' = b s^(d / (d - 2)). With d = 2 the only pair has theta_0 = b^0 = 1 for every base, so the
    // exponent's pole is never reached: the base is returned unchanged.
    if (d <= 2 || factor == 1.0) return base;
    return base * std::pow(factor, double(d) / double(d - 2));
}

double yarnRamp(double r, double alpha, double beta)
{
    // gamma(r) = clamp((r - alpha) / (beta - alpha), 0, 1); a degenerate ramp (beta <= alpha) is a step.
    if (beta <= alpha) return r < alpha ? 0.0 : 1.0;
    return std::clamp((r - alpha) / (beta - alpha), 0.0, 1.0);
}

double yarnAttentionFactor(double factor)
{
    // 0.1 ln(s) + 1 (YaRN's temperature for the logits); s <= 1 needs no correction.
    return factor > 1.0 ? 0.1 * std::log(factor) + 1.0 : 1.0;
}

ScaledFrequencies scaledFrequencies(int d, double base, const ContextExtension &ext)
{
    ScaledFrequencies out;
    out.base = base;
    const double s = ext.factor;
    switch (ext.method) {
    case ScalingMethod::None:
        out.invFreq = ropeInvFreq(d, base);
        break;
    case ScalingMethod::PI:
        // Position interpolation: every pair slowed by s (positions squeezed into the trained range).
        out.invFreq = ropeInvFreq(d, base) / s;
        break;
    case ScalingMethod::NTK:
        // NTK-aware: a larger base stretches the low frequencies most and leaves theta_0 = 1 alone.
        out.base = ntkBase(d, base, s);
        out.invFreq = ropeInvFreq(d, out.base);
        break;
    case ScalingMethod::YaRN: {
        // By parts: pairs turning fewer than alpha times over the trained length L are interpolated
        // (theta / s), pairs turning more than beta times are kept, a linear ramp in between.
        const Eigen::VectorXd theta = ropeInvFreq(d, base);
        const Eigen::VectorXd lambda = wavelengths(theta);
        out.invFreq.resize(theta.size());
        for (Eigen::Index i = 0; i < theta.size(); ++i) {
            const double r = ext.trainedLength / lambda[i];  // turns over the trained context
            const double gamma = yarnRamp(r, ext.alpha, ext.beta);
            const double interpolated = theta[i] / s;
            // (1 - gamma) theta / s + gamma theta, written by cases so that gamma = 1 returns theta and
            // gamma = 0 returns theta / s bit for bit, and as theta/s + gamma (theta - theta/s) so that
            // s = 1 returns theta bit for bit too.
            if (gamma >= 1.0) out.invFreq[i] = theta[i];
            else if (gamma <= 0.0) out.invFreq[i] = interpolated;
            else out.invFreq[i] = interpolated + gamma * (theta[i] - interpolated);
        }
        out.attentionFactor = yarnAttentionFactor(s);
        break;
    }
    }
    return out;
}

Eigen::VectorXd wavelengths(const Eigen::VectorXd &invFreq)
{
    // lambda_i = 2 pi / theta_i, in tokens.
    return (2.0 * std::numbers::pi) * invFreq.cwiseInverse();
}

} // namespace fb
