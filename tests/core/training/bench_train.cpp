// Benchmark of the trainer of Figure 218.2 at the chapter's defaults, and FullBand's answer to
// "the held-out loss against k" for the toy.
//
//   bench_train [--runs N] [--seeds N] [--no-sweep] [--no-speed]
//
// Speed: seconds per arm (median of N runs, each arm alone on one thread, and both arms at once as
// `fullband train` runs them), matrix-product FLOPs per step and the GFLOP/s achieved in the step
// loop. Compare with the PyTorch baseline run in the same command:
//   /usr/bin/python3 baselines/torch_toy.py && build/tests/bench_train --no-sweep
// The machine's load average is printed first: on a shared machine (and with Linux's session
// autogroups) "both at once" only gains when a second core is actually free.
// k-sweep: held-out loss and accuracy of the latent arm trained exactly (BPTT) and with k passes,
// for several seeds, measured with the exact recurrence (how the model decodes) and with the
// k-pass forward it was trained on.
#include "core/training/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace fb;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TrainConfig config(Arm arm, int passes = 0, std::uint64_t seed = 0)
{
    TrainConfig c;
    c.arm = arm;
    c.passes = passes;
    c.seed = seed;
    return c;
}

void speed(int runs)
{
    if (std::FILE *f = std::fopen("/proc/loadavg", "r")) {
        char buf[128] = {};
        if (std::fgets(buf, sizeof buf, f)) std::printf("load average: %s", buf);
        std::fclose(f);
    }
    std::printf("== speed at the defaults (T=16, batch 128, 220 steps; median of %d runs) ==\n", runs);
    double totalAlone = 0.0;
    for (Arm arm : { Arm::TokenOnly, Arm::LatentFeedback }) {
        std::vector<double> seconds, loop;
        TrainResult last;
        for (int i = 0; i < runs; ++i) {
            last = train(config(arm));
            seconds.push_back(last.seconds);
            loop.push_back(last.trainSeconds);
        }
        const double flops = last.flopsPerStep;                          // as performed (folded)
        const double dense = trainFlopsPerStep(config(arm), false);        // as the PyTorch modules do it
        const double s = median(seconds), l = median(loop);
        totalAlone += s;
        std::printf("%-16s params %5lld  seconds %.3f (step loop %.3f, held-out %.3f)  %.2f ms/step\n"
                    "%-16s FLOPs/step %.1fM performed (%.1fM unfolded): %.1f GFLOP/s (%.1f unfolded-equivalent)"
                    "  held-out %.4f acc %.4f\n",
                    armName(arm).c_str(), last.params, s, l, s - l, 1e3 * l / 220, "", flops / 1e6, dense / 1e6,
                    flops * 220 / l / 1e9, dense * 220 / l / 1e9, last.heldoutLoss, last.accuracy);
    }
    std::vector<double> together;
    for (int i = 0; i < runs; ++i) {
        const double t0 = now();
        trainAll({ config(Arm::TokenOnly), config(Arm::LatentFeedback) });
        together.push_back(now() - t0);
    }
    std::printf("both arms, one after the other: %.3f s\n", totalAlone);
    std::printf("both arms at once (trainAll, as fullband train): %.3f s\n", median(together));
    std::printf("{\"alone_seconds\": %.4f, \"together_seconds\": %.4f}\n", totalAlone, median(together));
}

struct Row {
    const char *label;
    int passes;
};

void sweep(int seeds)
{
    const Row rows[] = { { "exact", 0 }, { "k=1", 1 }, { "k=2", 2 }, { "k=3", 3 }, { "k=4", 4 }, { "k=8", 8 },
                         { "k=16", 16 } };
    std::printf("\n== held-out loss against k (latent arm, defaults, seeds 0..%d; mean [min, max]) ==\n", seeds - 1);
    std::printf("%-6s %-27s %-27s %-27s %-10s %s\n", "mode", "held-out, exact decode", "accuracy",
                "held-out, k-pass forward", "step (ms)", "FLOPs/step");
    std::vector<TrainConfig> configs;
    for (const Row &row : rows)
        for (int s = 0; s < seeds; ++s) configs.push_back(config(Arm::LatentFeedback, row.passes, std::uint64_t(s)));
    for (int s = 0; s < seeds; ++s) configs.push_back(config(Arm::TokenOnly, 0, std::uint64_t(s)));
    const std::vector<TrainResult> results = trainAll(configs);  // two at a time on two cores
    auto stats = [](const std::vector<double> &v) {
        double sum = 0.0;
        for (double x : v) sum += x;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.4f [%.4f, %.4f]", sum / double(v.size()), *std::min_element(v.begin(), v.end()),
                      *std::max_element(v.begin(), v.end()));
        return std::string(buf);
    };
    std::size_t i = 0;
    auto print = [&](const char *label, bool kpass) {
        std::vector<double> held, acc, kheld, secs;
        double flops = 0.0;
        for (int s = 0; s < seeds; ++s, ++i) {
            held.push_back(results[i].heldoutLoss);
            acc.push_back(results[i].accuracy);
            kheld.push_back(results[i].kpassHeldoutLoss);
            secs.push_back(1e3 * results[i].trainSeconds / 220.0);
            flops = results[i].flopsPerStep;
        }
        std::printf("%-6s %-27s %-27s %-27s %-10.2f %.0fM\n", label, stats(held).c_str(), stats(acc).c_str(),
                    kpass ? stats(kheld).c_str() : "-", median(secs), flops / 1e6);
    };
    for (const Row &row : rows) print(row.label, row.passes > 0);
    print("token", false);
    std::printf("(token = the token-only arm for reference; its Bayes floor is 0.5 nats, accuracy 0.75.\n"
                " Step times are medians over seeds, two trainings running at once.)\n");
}

} // namespace

int main(int argc, char **argv)
{
    int runs = 5, seeds = 3;
    bool doSweep = true, doSpeed = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc) seeds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-sweep")) doSweep = false;
        else if (!std::strcmp(argv[i], "--no-speed")) doSpeed = false;
        else {
            std::fprintf(stderr, "usage: bench_train [--runs N] [--seeds N] [--no-sweep] [--no-speed]\n");
            return 2;
        }
    }
    if (doSpeed) speed(runs);
    if (doSweep) sweep(seeds);
    return 0;
}
