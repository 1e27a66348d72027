// Benchmark of the transformer trainer (core/transformer/transformer_trainer.h) at the PyTorch
// reference's defaults, and the runs behind the lab's table.
//
//   bench_transformer [--steps N] [--speed] [--kpass] [--trajectory] [--table] [--all] [--peak [--cpu-clock]] [--lengths]
//                     [--attention] [--text FILE]
//
// --speed (the default): ms per step with one thread and with two (TBB over column blocks and
//   (sequence, head) pairs), the GFLOP/s achieved against the matrix-product FLOPs of a step, and the
//   resident memory's high-water mark (VmHWM) after the one-thread run. Compare with the reference
//   in the same command, under the shared lock:
//     OMP_NUM_THREADS=1 /usr/bin/python3 baselines/torch_tiny_transformer.py steps=300 eval_every=0 &&
//       build-core/tests/bench_transformer --steps 300
// --peak: this core's FP32 FMA peak, measured with a register-only loop (12 independent 8-wide FMA
//   chains, as the 117 GFLOP/s on Zen 4; in a build for AVX-512 also 16-wide ones, and the
//   larger is the peak), then ms/step and GFLOP/s as a fraction of that peak
//   at the text size (task text, 4 layers, 4 heads, d 128, T 64, batch 12, on FILE: --text, default
//   the checkout's README.md) and at the induction defaults, with 1 and 2 threads. Prints a JSON line
//   {"peak_gflops", "text_ms_per_step", "text_ms_per_step_2_threads", ...} for fullband.sh baselines.
//   --cpu-clock: the one-thread runs timed by the thread's CPU time instead of the wall clock (steadier
//   on a shared host, for comparing two builds; the torch comparison stays on the wall clock).
// --kpass: the step cost of the k-pass objective (k = 1..4) and of the exact recurrence against
//   feedback off, beside the chapter's (k + 2) / 3.
// --trajectory: held-out second-half loss at steps 0, 100, 200, 300, 600 of the defaults for seeds
//   0..3 (the reference's seed 3: 0.71 at step 100, 0.042 at 200, 0.005 at 600).
// --attention: the attention kernel over all heads of one layer in the step's own layout (a column per
//   token, position-major: token t of sequence b at column t B + b, q, k and v of every head in one
//   column of 3 d rows), forward and backward apart, best of many repetitions: microseconds per layer
//   and GFLOP/s of the visible keys' products, at the induction defaults and the text size.
// --lengths: softmax attention against the linear mixers, microseconds per token of a training step at
//   T = 64 .. 2048 and the bytes a sequence keeps at inference (see lengths() below).
// --table: what the trainings learn: pos x task x feedback, held-out loss, repeat loss, best
//   induction score and the length generalisation at 2T / 4T (1500 steps each; minutes).
#include "core/io/bounded_read.h"
#include "core/labs/length_cost_lab.h"
#include "core/transformer/attention_kernel.h"
#include "core/transformer/attention_pieces.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_trainer.h"
#include "support/step_ceilings.h"

#include <chrono>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace fb;
using test::fmaPeakGflops;
using test::productCeilingGflops;

namespace {

double vmHwmMegabytes()
{
    std::FILE *f = std::fopen("/proc/self/status", "r");
    if (!f) return NAN;
    char line[256];
    double kb = NAN;
    while (std::fgets(line, sizeof line, f))
        if (!std::strncmp(line, "VmHWM:", 6)) kb = std::atof(line + 6);
    std::fclose(f);
    return kb / 1024.0;
}

void loadAverage()
{
    if (std::FILE *f = std::fopen("/proc/loadavg", "r")) {
        char buf[128] = {};
        if (std::fgets(buf, sizeof buf, f)) std::printf("load average: %s", buf);
        std::fclose(f);
    }
}

TransformerConfig defaults(int steps)
{
    TransformerConfig c;
    c.steps = steps;
    c.evalEvery = 0;  // as the reference's eval_every=0 run: the training steps alone
    return c;
}

double bestScore(const TransformerResult &r)
{
    double best = NAN;
    for (const auto &layer : r.inductionScore)
        for (double s : layer) best = std::isnan(best) ? s : std::max(best, s);
    return best;
}

void speed(int steps)
{
    loadAverage();
    std::printf("== speed at the reference's defaults (induction-fixed, V 16, T 32, batch 32, L 2, H 4, d 64, rope; "
                "%d steps) ==\n", steps);
    const TransformerResult one = trainTransformer(defaults(steps));
    const double rss = vmHwmMegabytes();
    TransformerConfig c = defaults(steps);
    c.threads = 2;
    const TransformerResult two = trainTransformer(c);
    const double gflops1 = one.flopsPerStep / (one.msPerStep * 1e-3) / 1e9;
    const double gflops2 = two.flopsPerStep / (two.msPerStep * 1e-3) / 1e9;
    std::printf("params %lld, matrix-product FLOPs per step %.1fM\n", one.params, one.flopsPerStep / 1e6);
    std::printf("1 thread:  %.3f ms/step, %.1f GFLOP/s, repeat loss %.4f\n", one.msPerStep, gflops1, one.secondHalfLoss);
    std::printf("2 threads: %.3f ms/step, %.1f GFLOP/s (x%.2f), repeat loss %.4f\n", two.msPerStep, gflops2,
                one.msPerStep / two.msPerStep, two.secondHalfLoss);
    std::printf("resident memory high-water mark after the 1-thread run (VmHWM): %.1f MB\n", rss);
    std::printf("{\"ms_per_step\": %.3f, \"ms_per_step_2_threads\": %.3f, \"gflops\": %.2f, \"vmhwm_mb\": %.1f}\n",
                one.msPerStep, two.msPerStep, gflops1, rss);
}

void kpass(int steps)
{
    std::printf("\n== cost of latent feedback (defaults, %d steps, 1 thread) ==\n", steps);
    TransformerConfig off = defaults(steps);
    const double base = trainTransformer(off).msPerStep;
    std::printf("%-10s %10s %10s %12s\n", "feedback", "ms/step", "x off", "(k + 2) / 3");
    std::printf("%-10s %10.3f %10.3f %12s\n", "off", base, 1.0, "-");
    for (int k : { 1, 2, 3, 4 }) {
        TransformerConfig c = defaults(steps);
        c.feedback = FeedbackMode::KPass;
        c.passes = k;
        const double ms = trainTransformer(c).msPerStep;
        std::printf("kpass k=%-2d %10.3f %10.3f %12.3f\n", k, ms, ms / base, (k + 2) / 3.0);
    }
    TransformerConfig e = defaults(steps);
    e.feedback = FeedbackMode::Exact;
    const double ms = trainTransformer(e).msPerStep;
    std::printf("%-10s %10.3f %10.3f %12s\n", "exact", ms, ms / base, "(T+1)/3 = 11");
}

void trajectory()
{
    std::printf("\n== held-out second-half loss against step (defaults; reference seed 3: 0.71 @100, 0.042 @200, "
                "0.005 @600) ==\n");
    std::printf("%-6s %8s %8s %8s %8s %8s %8s\n", "seed", "0", "100", "200", "300", "600", "1500");
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        TransformerConfig c = defaults(1500);
        c.seed = seed;
        c.evalEvery = 100;
        const TransformerResult r = trainTransformer(c);
        std::printf("%-6llu", static_cast<unsigned long long>(seed));
        for (int step : { 0, 100, 200, 300, 600, 1500 })
            for (const auto &p : r.heldoutCurve)
                if (p.step == step) std::printf(" %8.4f", p.secondHalfLoss);
        std::printf("   (%.2f ms/step, best induction score %.3f)\n", r.msPerStep, bestScore(r));
    }
}

void table(int steps)
{
    std::printf("\n== what the trainings learn (%d steps, seed 0; repeat = second-half loss, ln 16 = 2.773) ==\n", steps);
    std::printf("%-16s %-11s %-8s %8s %8s %8s %7s %9s %9s %9s %9s\n", "task", "pos", "feedback", "held-out", "repeat",
                "first", "score", "rep@2T", "rep@4T", "best@2T", "best@4T");
    struct Row {
        TransformerTask task;
        PositionalScheme pos;
        FeedbackMode feedback;
        bool embedScale;
    };
    std::vector<Row> rows;
    for (TransformerTask task : { TransformerTask::InductionFixed, TransformerTask::Induction })
        for (PositionalScheme pos : { PositionalScheme::None, PositionalScheme::Sinusoidal, PositionalScheme::Rope })
            for (FeedbackMode f : { FeedbackMode::Off, FeedbackMode::KPass })
                rows.push_back({ task, pos, f, false });
    rows.push_back({ TransformerTask::InductionFixed, PositionalScheme::Sinusoidal, FeedbackMode::Off, true });
    rows.push_back({ TransformerTask::InductionFixed, PositionalScheme::Rope, FeedbackMode::Exact, false });
    for (const Row &row : rows) {
        TransformerConfig c = defaults(steps);
        c.task = row.task;
        c.pos = row.pos;
        c.feedback = row.feedback;
        c.embedScale = row.embedScale;
        const TransformerResult r = trainTransformer(c);
        // the best rescaling at 2T and 4T (RoPE), by repeat loss
        double best2 = NAN, best4 = NAN;
        std::string label2, label4;
        for (const LengthRow &l : r.lengths) {
            if (std::isnan(best2) || l.repeatLoss[1] < best2) best2 = l.repeatLoss[1], label2 = l.label;
            if (std::isnan(best4) || l.repeatLoss[2] < best4) best4 = l.repeatLoss[2], label4 = l.label;
        }
        std::printf("%-16s %-11s %-8s %8.4f %8.4f %8.4f %7.3f %9.4f %9.4f %9.4f %9.4f  %s%s\n",
                    transformerTaskName(c.task).c_str(),
                    (positionalSchemeName(c.pos) + (c.embedScale ? "*" : "")).c_str(), feedbackModeName(c.feedback).c_str(),
                    r.heldoutLoss, r.secondHalfLoss, r.firstHalfLoss, bestScore(r), r.lengths[0].repeatLoss[1],
                    r.lengths[0].repeatLoss[2], best2, best4, r.lengths.size() > 1 ? (label2 + " / " + label4).c_str() : "",
                    r.status == TrainStatus::Finished ? "" : (" " + r.message).c_str());
    }
    std::printf("(* = embed_scale: sqrt(d) E[tok]; rep@nT: repeat loss at n T tokens with the trained scheme; best@nT: "
                "the best RoPE rescaling, named at the end)\n");
    // the accumulator: does a transformer get under the token-only toy's 0.5-nat floor?
    std::printf("\n== accumulator (218.6.5), V_b 4, T 32, %d steps: held-out loss (Bayes floor of the token-only toy: "
                "0.5 nats) ==\n", steps);
    for (FeedbackMode f : { FeedbackMode::Off, FeedbackMode::KPass, FeedbackMode::Exact }) {
        TransformerConfig c = defaults(steps);
        c.task = TransformerTask::Accumulator;
        c.feedback = f;
        const TransformerResult r = trainTransformer(c);
        std::printf("%-8s held-out %.4f  (exact decoding %.4f)  at 2T %.4f  4T %.4f  %.2f ms/step\n",
                    feedbackModeName(f).c_str(), r.heldoutLoss, r.exactHeldoutLoss, r.lengths[0].loss[1],
                    r.lengths[0].loss[2], r.msPerStep);
    }
}

void peak(int steps, const std::string &textPath, bool cpuClock)
{
    loadAverage();
#if !(defined(__FMA__) && defined(__AVX__))
    std::printf("(built without AVX/FMA: the peak below is of scalar FMAs)\n");
#endif
    // the core's peak is the widest FMA's: with AVX-512 in the build both widths are measured
    const double narrow = fmaPeakGflops(false);
#if defined(__AVX512F__)
    const double wide = fmaPeakGflops(true);
    std::printf("(built for AVX-512: 8-lane FMAs %.1f GFLOP/s, 16-lane %.1f)\n", narrow, wide);
    const double peakGflops = std::max(narrow, wide);
#else
    const double peakGflops = narrow;
#endif
    std::printf("== FP32 FMA peak of one core (register-only loop): %.1f GFLOP/s ==\n", peakGflops);
    TransformerConfig text = defaults(steps);
    text.task = TransformerTask::Text;
    if (const std::string err = readRegularFile(textPath, TextCorpus::kMaxBytes, text.text); !err.empty()) {
        std::fprintf(stderr, "bench_transformer: %s\n", err.c_str());
        std::exit(2);
    }
    text.layers = 4;
    text.heads = 4;
    text.dModel = 128;
    text.seqLen = 64;
    text.batch = 12;
    text.weightDecay = 0.1;
    text.sampleChars = 0;
    struct Size {
        const char *name;
        TransformerConfig config;
    };
    double ms[2][2] = {};
    double gf[2] = {};  // GFLOP/s with one thread
    double flops[2] = {};  // the matrix-product FLOPs of a step
    const Size sizes[] = { { "text (4L, 4H, d 128, T 64, batch 12)", text }, { "induction defaults (2L, 4H, d 64, T 32, batch 32)", defaults(steps) } };
    std::printf("%-52s %8s %10s %10s %9s\n", "size", "threads", "ms/step", "GFLOP/s", "of peak");
    for (int s = 0; s < 2; ++s)
        for (int threads = 1; threads <= 2; ++threads) {
            TransformerConfig c = sizes[s].config;
            c.threads = threads;
            c.cpuClock = cpuClock;  // one thread: its CPU time, which a busy host's steal leaves out
            const TransformerResult r = trainTransformer(c);
            const double gflops = r.flopsPerStep / (r.msPerStep * 1e-3) / 1e9;
            ms[s][threads - 1] = r.msPerStep;
            flops[s] = r.flopsPerStep;
            if (threads == 1) gf[s] = gflops;
            std::printf("%-52s %8d %10.2f %10.1f %8.0f%%", sizes[s].name, threads, r.msPerStep, gflops,
                        100.0 * gflops / peakGflops);
            if (threads == 2) std::printf("  (x%.2f of 1 thread)", ms[s][0] / r.msPerStep);
            std::printf("\n");
        }
    std::printf("== the text size's matrix products alone (one thread): the ceiling of a step ==\n");
    const double ceiling = productCeilingGflops(text, TextCorpus(text.text, text.seqLen).vocabSize());
    std::printf("products alone: %.1f GFLOP/s, %.0f%% of peak (the whole step, one thread: %.0f%%)\n", ceiling,
                100.0 * ceiling / peakGflops, 100.0 * gf[0] / peakGflops);
    std::printf("== the induction defaults' matrix products alone (one thread) ==\n");
    const TransformerConfig induction = defaults(steps);
    const double inductionCeiling = productCeilingGflops(induction, transformerVocabulary(induction));
    std::printf("products alone: %.1f GFLOP/s, %.0f%% of peak (the whole step, one thread: %.0f%%)\n", inductionCeiling,
                100.0 * inductionCeiling / peakGflops, 100.0 * gf[1] / peakGflops);
    std::printf("{\"peak_gflops\": %.2f, \"text_ms_per_step\": %.3f, \"text_ms_per_step_2_threads\": %.3f, "
                "\"induction_ms_per_step\": %.3f, \"induction_ms_per_step_2_threads\": %.3f, \"products_gflops\": %.2f, "
                "\"text_gflop_per_step\": %.4f, \"induction_gflop_per_step\": %.4f, \"induction_products_gflops\": %.2f}\n",
                peakGflops, ms[0][0], ms[0][1], ms[1][0], ms[1][1], ceiling, flops[0] / 1e9, flops[1] / 1e9,
                inductionCeiling);
}

// --lengths: one training step (forward and backward, the optimiser aside) of softmax attention and
// of each linear mixer at T = 64 .. 2048, 4096 tokens per step (batch 4096 / T), at the induction
// defaults otherwise (2 layers, 4 heads, d 64, RoPE), one thread; per token, and the bytes each
// sequence keeps at inference (KV cache or state), summed over the layers.
void lengths(int steps)
{
    loadAverage();
    // The cost-against-length lab's measurement (core/labs/length_cost_lab.h) at the tiny
    // transformer's defaults, up to T = 2048 with 2048 tokens a step.
    ParamValues v = LengthCostLab::spec().defaults();
    v.texts["longest"] = "2048";
    v.numbers["tokens"] = 2048;
    v.numbers["repeats"] = std::clamp(steps, 1, 3);
    if (const std::string err = LengthCostLab::check(v); !err.empty()) {
        std::printf("length-cost refused: %s\n", err.c_str());
        return;
    }
    const LengthCostLabResult r = LengthCostLab().compute(v, RunControl());
    std::printf("== cost against length: one step (forward + backward), 2048 tokens per step, 1 thread, "
                "best of %d ==\n", int(v.number("repeats")));
    std::string names[kLengthCostMixers];
    for (int m = 0; m < kLengthCostMixers; ++m) names[m] = mixerName(Mixer(m));
    std::printf("%6s %6s", "T", "batch");
    for (const std::string &n : names) std::printf(" %16s", (n + " us/tok").c_str());
    for (const std::string &n : names) std::printf(" %12s", n == "softmax" ? "KV bytes" : "state bytes");
    std::printf("\n");
    for (std::size_t i = 0; i < r.lengths.size(); ++i) {
        std::printf("%6d %6d", r.lengths[i], r.batches[i]);
        for (int m = 0; m < kLengthCostMixers; ++m) std::printf(" %16.3f", r.usPerToken[std::size_t(m)][i]);
        for (int m = 0; m < kLengthCostMixers; ++m) std::printf(" %12.0f", r.stateBytes[std::size_t(m)][i]);
        std::printf("\n");
    }
    for (int m = 1; m < kLengthCostMixers; ++m)
        std::printf("%s: no slower than softmax from T = %d on (0: slower at 2048); softmax / it at 2048: %.2fx\n", names[m].c_str(),
                    r.crossover[std::size_t(m)], r.timesSoftmax[std::size_t(m)]);
    JsonWriter json;
    writeJson(json, r);
    std::printf("%s\n", json.str().c_str());
}


// --attention: a layer's heads through the attention kernel where the step keeps them (see the top)
void attentionLayer()
{
    std::printf("== attention kernel, all heads of a layer in the step's layout (1 thread, best of 3 x 200) ==\n");
    std::printf("%-44s %12s %10s %12s %10s\n", "size", "forward us", "GFLOP/s", "backward us", "GFLOP/s");
    struct Size {
        const char *name;
        long d, heads, T, B;
    };
    for (const Size &z : { Size { "induction defaults (d 64, 4 heads, T 32, B 32)", 64, 4, 32, 32 },
                           Size { "text (d 128, 4 heads, T 64, B 12)", 128, 4, 64, 12 } }) {
        const long dh = z.d / z.heads, ld = 3 * z.d, N = z.T * z.B, ldAtt = nn::attentionRows(z.T);
        const Eigen::MatrixXf qkv = Eigen::MatrixXf::Random(ld, N), dy = Eigen::MatrixXf::Random(z.d, N);
        Eigen::MatrixXf y(z.d, N), dqkv(ld, N), att(ldAtt, z.T * z.B * z.heads);
        const float scale = float(1.0 / std::sqrt(double(dh)));
        const auto run = [&](bool forward) {
            for (long b = 0; b < z.B; ++b)
                for (long h = 0; h < z.heads; ++h) {
                    const float *at = qkv.data() + b * ld + h * dh;
                    const nn::AttentionHead head { at, at + z.d, at + 2 * z.d, z.B * ld, z.B * ld, z.B * ld, dh, 0, z.T, scale };
                    float *a = att.data() + (b * z.heads + h) * ldAtt * z.T;
                    float *dq = dqkv.data() + b * ld + h * dh;
                    if (forward) nn::attention_kernel_forward(head, y.data() + b * z.d + h * dh, z.B * z.d, a, ldAtt);
                    else
                        nn::attention_kernel_backward(head, dy.data() + b * z.d + h * dh, z.B * z.d, a, ldAtt, dq, z.B * ld,
                                                      dq + z.d, z.B * ld, dq + 2 * z.d, z.B * ld, true, true);
                }
        };
        run(true);
        const double product = 2.0 * dh * (double(z.T) * (z.T + 1) / 2) * z.B * z.heads;  // one of the visible keys' products
        const double fwd = test::bestSecondsPerCall([&] { run(true); }, 200);
        const double bwd = test::bestSecondsPerCall([&] { run(false); }, 200);
        if (!std::isfinite(dqkv.sum()) || !std::isfinite(y.sum())) std::printf("(not finite)\n");
        std::printf("%-44s %12.1f %10.1f %12.1f %10.1f\n", z.name, fwd * 1e6, 2 * product / fwd / 1e9, bwd * 1e6,
                    4 * product / bwd / 1e9);
    }
}

} // namespace

int main(int argc, char **argv)
{
    int steps = 300;
    bool cpuClock = false;
    bool doSpeed = false, doKpass = false, doTrajectory = false, doTable = false, doPeak = false, doLengths = false;
    bool doAttention = false;
    std::string textPath = FULLBAND_SOURCE_DIR "/README.md";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--speed")) doSpeed = true;
        else if (!std::strcmp(argv[i], "--kpass")) doKpass = true;
        else if (!std::strcmp(argv[i], "--trajectory")) doTrajectory = true;
        else if (!std::strcmp(argv[i], "--table")) doTable = true;
        else if (!std::strcmp(argv[i], "--all")) doSpeed = doKpass = doTrajectory = doTable = doPeak = true;
        else if (!std::strcmp(argv[i], "--peak")) doPeak = true;
        else if (!std::strcmp(argv[i], "--cpu-clock")) cpuClock = true;
        else if (!std::strcmp(argv[i], "--lengths")) doLengths = true;
        else if (!std::strcmp(argv[i], "--attention")) doAttention = true;
        else if (!std::strcmp(argv[i], "--text") && i + 1 < argc) textPath = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_transformer [--steps N] [--speed] [--kpass] [--trajectory] [--table] [--all] "
                                 "[--peak [--cpu-clock]] [--lengths] [--attention] [--text FILE]\n");
            return 2;
        }
    }
    if (!doKpass && !doTrajectory && !doTable && !doPeak && !doLengths && !doAttention) doSpeed = true;
    if (doSpeed) speed(steps);
    if (doKpass) kpass(steps);
    if (doTrajectory) trajectory();
    if (doTable) table(std::max(steps, 1500));
    if (doPeak) peak(steps, textPath, cpuClock);
    if (doLengths) lengths(std::min(steps, 10));
    if (doAttention) attentionLayer();
    return 0;
}
