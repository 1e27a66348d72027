#include "core/transformer/position_tables.h"

#include "core/attention/positional.h"
#include "core/transformer/masked_softmax.h"

#include <cmath>

namespace fb {

template <typename S>
void PositionTables<S>::build(PositionalScheme s, int dModel, int heads, double base, Eigen::Index n,
                              const ContextExtension &ext)
{
    scheme = s;
    length = n;
    const int dh = dModel / heads;
    double logitScale = 1.0 / std::sqrt(double(dh));
    pe.resize(0, 0);
    cos.resize(0, 0);
    sin.resize(0, 0);
    slopes.clear();
    if (s == PositionalScheme::Alibi)
        for (int h = 0; h < heads; ++h) slopes.push_back(S(nn::alibiSlope(h, heads)));
    if (s == PositionalScheme::Sinusoidal) {
        // PE(m, 2i) = sin(m b^(-2i/d)), PE(m, 2i+1) = cos(m b^(-2i/d)), as the reference's table
        pe = sinusoidalTable(int(n), dModel, base).transpose().cast<S>();
    } else if (s == PositionalScheme::Rope) {
        // theta_i = b^(-2i/dh) for the dh/2 pairs of one head (rescaled by ext), the same for every head
        const ScaledFrequencies f = scaledFrequencies(dh, base, ext);
        logitScale *= f.attentionFactor * f.attentionFactor;  // YaRN: q and k both scaled by 0.1 ln s + 1
        const int pairs = dh / 2;
        cos.resize(dModel / 2, n);
        sin.resize(dModel / 2, n);
        for (Eigen::Index m = 0; m < n; ++m) {
            for (int i = 0; i < pairs; ++i) {
                double c = 1.0, si = 0.0;
                ropeCosSin(double(m), f.invFreq[i], c, si);
                for (int h = 0; h < heads; ++h) {
                    cos(h * pairs + i, m) = S(c);
                    sin(h * pairs + i, m) = S(si);
                }
            }
        }
    }
    scale = S(logitScale);
}

template struct PositionTables<float>;
template struct PositionTables<double>;

} // namespace fb
