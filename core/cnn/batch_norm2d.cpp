#include "core/cnn/batch_norm2d.h"

#include <cmath>
#include <cstddef>

namespace fb {

void batchNorm2dForward(double *out, double *mean, double *rstd, const double *inp, const double *weight,
                        const double *bias, int N, int C, int HW, double eps)
{
    const double M = double(N) * HW;
    for (int c = 0; c < C; ++c) {
        // the mean, then the biased variance about it (two passes: no cancellation)
        double m = 0.0;
        for (int n = 0; n < N; ++n) {
            const double *x = inp + (std::size_t(n) * C + c) * HW;
            for (int p = 0; p < HW; ++p) m += x[p];
        }
        m /= M;
        double v = 0.0;
        for (int n = 0; n < N; ++n) {
            const double *x = inp + (std::size_t(n) * C + c) * HW;
            for (int p = 0; p < HW; ++p) v += (x[p] - m) * (x[p] - m);
        }
        v /= M;
        const double s = 1.0 / std::sqrt(v + eps);
        for (int n = 0; n < N; ++n) {
            const std::size_t off = (std::size_t(n) * C + c) * HW;
            for (int p = 0; p < HW; ++p) out[off + p] = (inp[off + p] - m) * s * weight[c] + bias[c];
        }
        mean[c] = m;
        rstd[c] = s;
    }
}

void batchNorm2dBackward(double *dinp, double *dweight, double *dbias, const double *dout, const double *inp,
                         const double *weight, const double *mean, const double *rstd, int N, int C, int HW)
{
    const double M = double(N) * HW;
    for (int c = 0; c < C; ++c) {
        // in the forward pass this was: out = norm * weight + bias, norm = (inp - mean) * rstd
        // first: two reductions over the channel, of dnorm = dout * weight and of dnorm * norm
        double doutSum = 0.0, doutNorm = 0.0;
        for (int n = 0; n < N; ++n) {
            const std::size_t off = (std::size_t(n) * C + c) * HW;
            for (int p = 0; p < HW; ++p) {
                const double norm = (inp[off + p] - mean[c]) * rstd[c];
                doutSum += dout[off + p];
                doutNorm += dout[off + p] * norm;
            }
        }
        const double dnormMean = weight[c] * doutSum / M;
        const double dnormNormMean = weight[c] * doutNorm / M;
        // the bias and the weight: out = norm * weight + bias
        if (dbias) dbias[c] += doutSum;
        if (dweight) dweight[c] += doutNorm;
        // the input, through norm = (inp - mean) * rstd with mean and rstd functions of inp:
        // dinp = rstd * (dnorm - mean(dnorm) - norm * mean(dnorm * norm))
        for (int n = 0; n < N; ++n) {
            const std::size_t off = (std::size_t(n) * C + c) * HW;
            for (int p = 0; p < HW; ++p) {
                const double norm = (inp[off + p] - mean[c]) * rstd[c];
                const double dnorm = dout[off + p] * weight[c];
                dinp[off + p] += rstd[c] * (dnorm - dnormMean - norm * dnormNormMean);
            }
        }
    }
}

} // namespace fb
