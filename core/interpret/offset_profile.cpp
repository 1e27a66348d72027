#include "core/interpret/offset_profile.h"

#include <limits>
#include <stdexcept>

namespace fb {

OffsetProfile::OffsetProfile(int layers, int heads, int dHead, int positions)
    : L_(layers), H_(heads), dh_(dHead), pairs_(dHead / 2), P_(positions),
      sums_(std::size_t(layers) * heads * (dHead / 2) * positions, 0.0), counts_(std::size_t(positions), 0)
{
}

void OffsetProfile::add(const TransformerWorkspace<float> &ws, float scale)
{
    // (looped depth: the first loop's L blocks)
    if (ws.T != P_ || int(ws.layer.size()) < L_) throw std::logic_error("OffsetProfile: the workspace's sequences differ");
    // q in rows [0, d), k in [d, d + dkv): head h reads key head h / G (grouped-query attention)
    const Eigen::Index B = ws.B, d = Eigen::Index(H_) * dh_, ld = ws.layer[0].qkv.rows(), dkv = (ld - d) / 2;
    const int G = int(d / dkv);
    for (int l = 0; l < L_; ++l) {
        const float *qkv = ws.layer[std::size_t(l)].qkv.data();
        for (Eigen::Index b = 0; b < B; ++b)
            for (int i = 0; i < P_; ++i) {
                const float *q = qkv + (Eigen::Index(i) * B + b) * ld;  // rotated q of query i
                for (int j = 0; j <= i; ++j) {
                    const float *k = qkv + (Eigen::Index(j) * B + b) * ld + d;  // rotated k of key j
                    for (int h = 0; h < H_; ++h) {
                        const float *qh = q + h * dh_, *kh = k + (h / G) * dh_;
                        for (int p = 0; p < pairs_; ++p)
                            sum(l, h, p, i - j) += double(scale) * (double(qh[2 * p]) * kh[2 * p]
                                                                    + double(qh[2 * p + 1]) * kh[2 * p + 1]);
                    }
                }
            }
    }
    for (int i = 0; i < P_; ++i)
        for (int j = 0; j <= i; ++j) counts_[std::size_t(i - j)] += B;
}

std::vector<std::vector<std::vector<double>>> OffsetProfile::profile() const
{
    std::vector<std::vector<std::vector<double>>> out(static_cast<std::size_t>(L_));
    for (int l = 0; l < L_; ++l)
        for (int h = 0; h < H_; ++h) {
            std::vector<double> curve(std::size_t(P_), std::numeric_limits<double>::quiet_NaN());
            for (int delta = 0; delta < P_; ++delta) {
                if (!counts_[std::size_t(delta)]) continue;
                double s = 0.0;
                for (int p = 0; p < pairs_; ++p) s += sumAt(l, h, p, delta);
                curve[std::size_t(delta)] = s / double(counts_[std::size_t(delta)]);
            }
            out[std::size_t(l)].push_back(std::move(curve));
        }
    return out;
}

std::vector<std::vector<std::vector<std::vector<double>>>> OffsetProfile::pairs() const
{
    std::vector<std::vector<std::vector<std::vector<double>>>> out(static_cast<std::size_t>(L_));
    for (int l = 0; l < L_; ++l) {
        out[std::size_t(l)].resize(std::size_t(H_));
        for (int h = 0; h < H_; ++h)
            for (int p = 0; p < pairs_; ++p) {
                std::vector<double> curve(std::size_t(P_), std::numeric_limits<double>::quiet_NaN());
                for (int delta = 0; delta < P_; ++delta)
                    if (counts_[std::size_t(delta)])
                        curve[std::size_t(delta)] = sumAt(l, h, p, delta) / double(counts_[std::size_t(delta)]);
                out[std::size_t(l)][std::size_t(h)].push_back(std::move(curve));
            }
    }
    return out;
}

} // namespace fb
