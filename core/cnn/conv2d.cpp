#include "core/cnn/conv2d.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>

namespace fb {

namespace {

// The output columns x whose input column x + j - P lies inside [0, W): [x0, x1).
void validColumns(int j, const Conv2dShape &s, int &x0, int &x1)
{
    x0 = std::max(0, s.P - j);
    x1 = std::min(s.outW(), s.W + s.P - j);
}

// Pairs (a, b) per parallel task: at least ~64k multiply-adds each, so the chapter's sizes stay on
// one thread. Every output entry is summed by one task in a fixed order: results do not depend on
// the number of threads.
std::size_t grainFor(const Conv2dShape &s, int inner)
{
    const long long work = (long long)inner * s.K * s.K * s.outH() * s.outW();
    return std::size_t(std::max(1LL, 65536LL / std::max(1LL, work)));
}

// For one (input plane, output plane) pair and one kernel tap (i, j): calls f(inputRow, outputRow,
// x0, x1, shift) for every output row y whose input row y + i - P exists.
template <class F>
void forEachRow(const Conv2dShape &s, int i, int j, F &&f)
{
    int x0, x1;
    validColumns(j, s, x0, x1);
    for (int y = 0; y < s.outH(); ++y) {
        const int iy = y + i - s.P;
        if (iy < 0 || iy >= s.H) continue;
        f(std::size_t(iy) * s.W, std::size_t(y) * s.outW(), x0, x1, j - s.P);
    }
}

} // namespace

void conv2dForward(double *out, const double *inp, const double *weight, const Conv2dShape &s)
{
    const std::size_t inPlane = std::size_t(s.H) * s.W, outPlane = std::size_t(s.outH()) * s.outW();
    const int pairs = s.N * s.OC;
    tbb::parallel_for(tbb::blocked_range<int>(0, pairs, grainFor(s, s.C)), [&](const tbb::blocked_range<int> &r) {
        for (int no = r.begin(); no < r.end(); ++no) {
            const int n = no / s.OC, o = no % s.OC;
            double *outp = out + std::size_t(no) * outPlane;
            std::fill(outp, outp + outPlane, 0.0);
            for (int c = 0; c < s.C; ++c) {
                const double *inpp = inp + (std::size_t(n) * s.C + c) * inPlane;
                const double *w = weight + (std::size_t(o) * s.C + c) * s.K * s.K;
                for (int i = 0; i < s.K; ++i)
                    for (int j = 0; j < s.K; ++j) {
                        const double wij = w[i * s.K + j];
                        forEachRow(s, i, j, [&](std::size_t inRow, std::size_t outRow, int x0, int x1, int shift) {
                            const double *row = inpp + inRow;
                            double *orow = outp + outRow;
                            for (int x = x0; x < x1; ++x) orow[x] += wij * row[x + shift];
                        });
                    }
            }
        }
    });
}

void conv2dBackward(double *dinp, double *dweight, const double *dout, const double *inp, const double *weight,
                    const Conv2dShape &s)
{
    // in the forward pass this was: out[n, o, y, x] += weight[o, c, i, j] * inp[n, c, y + i - P, x + j - P]
    const std::size_t inPlane = std::size_t(s.H) * s.W, outPlane = std::size_t(s.outH()) * s.outW();
    if (dinp) {
        // so d(inp)[n, c, y + i - P, x + j - P] += weight[o, c, i, j] * dout[n, o, y, x]; one task per (n, c)
        const int pairs = s.N * s.C;
        tbb::parallel_for(tbb::blocked_range<int>(0, pairs, grainFor(s, s.OC)), [&](const tbb::blocked_range<int> &r) {
            for (int nc = r.begin(); nc < r.end(); ++nc) {
                const int n = nc / s.C, c = nc % s.C;
                double *dinpp = dinp + std::size_t(nc) * inPlane;
                for (int o = 0; o < s.OC; ++o) {
                    const double *doutp = dout + (std::size_t(n) * s.OC + o) * outPlane;
                    const double *w = weight + (std::size_t(o) * s.C + c) * s.K * s.K;
                    for (int i = 0; i < s.K; ++i)
                        for (int j = 0; j < s.K; ++j) {
                            const double wij = w[i * s.K + j];
                            forEachRow(s, i, j, [&](std::size_t inRow, std::size_t outRow, int x0, int x1, int shift) {
                                double *dirow = dinpp + inRow;
                                const double *drow = doutp + outRow;
                                for (int x = x0; x < x1; ++x) dirow[x + shift] += wij * drow[x];
                            });
                        }
                }
            }
        });
    }
    if (dweight) {
        // and d(weight)[o, c, i, j] += inp[n, c, y + i - P, x + j - P] * dout[n, o, y, x]; one task per (o, c)
        const int pairs = s.OC * s.C;
        tbb::parallel_for(tbb::blocked_range<int>(0, pairs, grainFor(s, s.N)), [&](const tbb::blocked_range<int> &r) {
            for (int oc = r.begin(); oc < r.end(); ++oc) {
                const int o = oc / s.C, c = oc % s.C;
                double *dw = dweight + std::size_t(oc) * s.K * s.K;
                for (int i = 0; i < s.K; ++i)
                    for (int j = 0; j < s.K; ++j) {
                        double sum = 0.0;
                        for (int n = 0; n < s.N; ++n) {
                            const double *inpp = inp + (std::size_t(n) * s.C + c) * inPlane;
                            const double *doutp = dout + (std::size_t(n) * s.OC + o) * outPlane;
                            forEachRow(s, i, j, [&](std::size_t inRow, std::size_t outRow, int x0, int x1, int shift) {
                                const double *row = inpp + inRow;
                                const double *drow = doutp + outRow;
                                for (int x = x0; x < x1; ++x) sum += row[x + shift] * drow[x];
                            });
                        }
                        dw[i * s.K + j] += sum;
                    }
            }
        });
    }
}

} // namespace fb
