// Does the chunked form of the linear mixers pay on this core? FullBand's two training forms of one
// head (core/transformer/linear_mixer.h: the recurrent kernels, every position's state written and
// read back; core/transformer/chunked_mixer.h: chunks of nn::kMixerChunk positions, one state per
// chunk, the rest recomputed in the backward pass), one thread, float: a forward pass over a whole
// sequence, and a forward and backward pass (a training step's share of one head).
//
//   bench_chunked_mixer [--length T] [--repeats N] [--model]
//
// --model: the same two forms inside a training step of the whole model at the text size (4 layers,
// d 128, T 64, batch 12; every layer the mixer) with 8, 4 and 2 heads (d_head 16, 32, 64): ms per
// forward and backward pass, one thread. The bench gives the workspace the chunked form's scratch
// itself, so both forms are timed at every d_head, whichever training takes. "grad diff" is the
// relative difference of the two forms' gradients in float.
//
// Both forms are first run on the same inputs and compared (outputs and gradients; the run stops if
// the relative difference exceeds 1e-3). The table prints ns per token (best of N) and the ratio
// chunked / recurrent (below 1: the chunked form is faster). Training takes the chunked form from
// d_head nn::kChunkedFromHead.
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/linear_mixer.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_workspace.h"
#include "support/mixer_head_inputs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace fb;

namespace {

using MatF = Eigen::MatrixXf;
using VecF = Eigen::VectorXf;

// One head's tensors, and a pass of either form over them.
struct Head {
    Eigen::Index dh, T;
    MatF q, k, v, dy, y, dq, dk, dv;
    VecF beta, alpha;
    test::HeadBuffers<float> buf;
    nn::MixerHead<float> m;

    Head(Mixer kind, const test::HeadInputs &in, bool chunked)
        : dh(in.q.rows()), T(in.q.cols()), q(in.q.cast<float>()), k(in.k.cast<float>()), v(in.v.cast<float>()),
          dy(in.v.cast<float>().reverse()), y(dh, T), dq(dh, T), dk(dh, T), dv(dh, T), beta(in.beta.cast<float>()),
          alpha(in.alpha.cast<float>()), buf(dh, T), m(buf.head(kind, dh, beta.data(), alpha.data(), chunked))
    {
    }
    void forward() { nn::linear_mixer_forward<float>(m, y, q, k, v, 0, nullptr, 0); }
    void step()
    {
        forward();
        dq.setZero();
        dk.setZero();
        dv.setZero();
        nn::linear_mixer_backward<float>(m, dq, dk, dv, dy, q, k, v, 0, true);
    }
};

template <typename F>
double bestNsPerToken(F &&f, Eigen::Index T, int repeats)
{
    double best = 1e300;
    for (int r = 0; r <= repeats; ++r) {  // the first is a warm-up
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        if (r > 0) best = std::min(best, ns / double(T));
    }
    return best;
}

double relativeError(const MatF &a, const MatF &b)
{
    return (a - b).norm() / std::max(1e-30f, b.norm());
}

// --model: ms per forward and backward pass of the whole model, recurrent and chunked.
int model(int repeats)
{
    constexpr int kB = 12, kT = 64;
    std::printf("The whole model, one thread, float: 4 layers, d 128, T %d, batch %d; ms per forward + backward "
                "(best of %d)\n", kT, kB, repeats);
    std::printf("%-15s %5s %4s | %10s %10s %6s | %8s\n", "mixer", "heads", "d_h", "recurrent", "chunked", "ratio",
                "grad diff");
    for (const Mixer kind : { Mixer::Linear, Mixer::DeltaNet, Mixer::GatedDeltaNet }) {
        for (const int heads : { 8, 4, 2 }) {
            TransformerShape shape;
            shape.vocab = 80;
            shape.dModel = 128;
            shape.layers = 4;
            shape.heads = heads;
            shape.mixers.assign(4, kind);
            TransformerNet<float> net(shape);
            Rng rng(1);
            net.init(rng);
            TransformerBatch batch;
            batch.resize(kB, kT, true, false);
            for (int &t : batch.tokens) t = int(rng.below(80));
            for (int &t : batch.targets) t = int(rng.below(80));
            PositionTables<float> pos;
            pos.build(PositionalScheme::Rope, shape.dModel, shape.heads, 10000.0, kT);
            TransformerWorkspace<float> ws;
            ws.reserve(shape, kB * kT, kT, true);
            const Eigen::Index work = kB * heads * nn::chunkedMixerWork(shape.dHead());
            double ms[2] = {};
            Eigen::VectorXf grads[2];
            for (int chunked = 0; chunked < 2; ++chunked) {
                for (auto &l : ws.layer) l.chunkWork.setZero(chunked ? work : 0);
                auto step = [&] {
                    net.zeroGrad();
                    net.forward(ws, batch, pos, FeedbackMode::Off, 1);
                    net.backward(ws, batch, pos, FeedbackMode::Off, 1);
                };
                ms[chunked] = bestNsPerToken(step, 1, repeats) * 1e-6;
                grads[chunked] = net.grads;
            }
            const double err = (grads[1] - grads[0]).norm() / std::max(1e-30f, grads[0].norm());
            // float: the two forms round differently (the tests compare them in double, within 1e-11)
            if (!(err < 1e-2)) {
                std::fprintf(stderr, "the chunked form's gradients differ: relative error %.3g\n", err);
                return 1;
            }
            std::printf("%-15s %5d %4ld | %10.2f %10.2f %6.2f | %8.1e\n", mixerName(kind).c_str(), heads,
                        long(shape.dHead()), ms[0], ms[1], ms[1] / ms[0], err);
        }
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Eigen::Index T = 1024;
    int repeats = 20;
    bool doModel = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--model")) doModel = true;
        else if (!std::strcmp(argv[i], "--length") && i + 1 < argc) T = std::clamp(std::atol(argv[++i]), 64L, 16384L);
        else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::clamp(std::atoi(argv[++i]), 1, 1000);
        else {
            std::fprintf(stderr, "usage: bench_chunked_mixer [--length T (64..16384)] [--repeats N (1..1000)] [--model]\n");
            return 2;
        }
    }
    if (doModel) return model(repeats);
    std::printf("One head, one thread, float, T = %ld positions, chunks of %ld; ns per token (best of %d)\n", long(T),
                long(nn::kMixerChunk), repeats);
    std::printf("%-15s %4s | %10s %10s %6s | %10s %10s %6s\n", "", "", "forward", "", "", "fwd + bwd", "", "");
    std::printf("%-15s %4s | %10s %10s %6s | %10s %10s %6s\n", "mixer", "d_h", "recurrent", "chunked", "ratio",
                "recurrent", "chunked", "ratio");
    for (const Mixer kind : { Mixer::Linear, Mixer::DeltaNet, Mixer::GatedDeltaNet }) {
        for (const Eigen::Index dh : { 16, 32, 64 }) {
            const test::HeadInputs in(dh, T, 7);  // the mixer tests' inputs
            Head rec(kind, in, false), chu(kind, in, true);
            rec.step();
            chu.step();
            const double err = std::max({ relativeError(chu.y, rec.y), relativeError(chu.dq, rec.dq),
                                          relativeError(chu.dk, rec.dk), relativeError(chu.dv, rec.dv) });
            if (!(err < 1e-3)) {
                std::fprintf(stderr, "the chunked form differs from the recurrent kernel: relative error %.3g at %s, "
                                     "d_h %ld\n", err, mixerName(kind).c_str(), long(dh));
                return 1;
            }
            const double rf = bestNsPerToken([&] { rec.forward(); }, T, repeats);
            const double cf = bestNsPerToken([&] { chu.forward(); }, T, repeats);
            const double rs = bestNsPerToken([&] { rec.step(); }, T, repeats);
            const double cs = bestNsPerToken([&] { chu.step(); }, T, repeats);
            std::printf("%-15s %4ld | %10.1f %10.1f %6.2f | %10.1f %10.1f %6.2f\n", mixerName(kind).c_str(), long(dh), rf,
                        cf, cf / rf, rs, cs, cs / rs);
        }
    }
    return 0;
}
