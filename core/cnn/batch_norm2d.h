#pragma once
// nn.BatchNorm2d in training mode (the mode of 218.1's cell: a fresh module, never .eval()):
// every channel is normalised with the mean and the biased variance of its N x H x W values in this
// batch, then scaled and shifted. The running statistics a training step also updates never enter a
// training-mode output or gradient, so they are not kept. Forward and backward by hand, in double,
// in the style of llm.c; gradients accumulate with +=.
namespace fb {

// inp and out are (N, C, HW) with HW = H * W; weight (gamma) and bias (beta) are (C).
// mean and rstd (C) are written for the backward pass:
//   mean[c] = 1/M sum_{n, p} inp[n, c, p],  var[c] = 1/M sum (inp - mean)^2,  M = N HW,
//   rstd[c] = 1 / sqrt(var[c] + eps),
//   out[n, c, p] = (inp[n, c, p] - mean[c]) * rstd[c] * weight[c] + bias[c].
void batchNorm2dForward(double *out, double *mean, double *rstd, const double *inp, const double *weight,
                        const double *bias, int N, int C, int HW, double eps = 1e-5);

// dout is (N, C, HW); accumulates dinp (N, C, HW), dweight and dbias (C). dweight and dbias may be
// null to skip them.
void batchNorm2dBackward(double *dinp, double *dweight, double *dbias, const double *dout, const double *inp,
                         const double *weight, const double *mean, const double *rstd, int N, int C, int HW);

} // namespace fb
