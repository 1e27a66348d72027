#pragma once
// nn.Conv2d without bias, stride 1, zero padding: the convolution of section 218.1's residual block
// (3 x 3, padding 1: the output has the input's height and width). Forward and backward by hand, in
// double, in the style of llm.c: flat NCHW arrays, shapes in the comments, gradients accumulated
// with += (zeroing them is the caller's step).
namespace fb {

struct Conv2dShape {
    int N = 1;    // batch
    int C = 1;    // input channels
    int OC = 1;   // output channels
    int H = 1;    // input height
    int W = 1;    // input width
    int K = 3;    // kernel height and width
    int P = 1;    // zero padding on every side
    int outH() const { return H + 2 * P - K + 1; }
    int outW() const { return W + 2 * P - K + 1; }
};

// inp is (N, C, H, W), weight is (OC, C, K, K), out is (N, OC, outH, outW):
// out[n, o, y, x] = sum_{c, i, j} weight[o, c, i, j] * inp[n, c, y + i - P, x + j - P]  (0 outside).
// out is overwritten.
void conv2dForward(double *out, const double *inp, const double *weight, const Conv2dShape &s);

// dout is (N, OC, outH, outW); accumulates dinp (N, C, H, W) and dweight (OC, C, K, K). Either may
// be null to skip it.
void conv2dBackward(double *dinp, double *dweight, const double *dout, const double *inp, const double *weight,
                    const Conv2dShape &s);

} // namespace fb
