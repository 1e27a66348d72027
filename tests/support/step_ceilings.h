#pragma once
// The ceilings a training step's speed is measured against (bench_transformer --peak): one core's FP32
// FMA peak, measured with a register-only loop, and the speed of a step's matrix products (and
// attention kernel) timed alone at the step's shapes.
#include "core/transformer/attention_kernel.h"
#include "core/transformer/attention_pieces.h"
#include "core/transformer/chunked_products.h"
#include "core/transformer/transformer_config.h"

#include <Eigen/Core>

#include <chrono>
#if defined(__FMA__) && defined(__AVX__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace fb::test {

// One core's FP32 FMA peak: a loop of independent FMAs on registers only (no loads or stores), long
// enough to hide their latency. GFLOP/s, 2 FLOPs per lane per FMA; the best of 5 runs. wide: with
// AVX-512's 16-lane FMAs (a build for x86-64-v4), else 8-lane AVX2 ones. On a core whose AVX-512 units
// are whole (not two 256-bit halves) the wide loop's peak is twice the narrow one's.
inline double fmaPeakGflops(bool wide)
{
    using Clock = std::chrono::steady_clock;
    constexpr long kIterations = 20'000'000;
    (void)wide;
    double best = 0.0;
    for (int run = 0; run < 5; ++run) {
        const auto start = Clock::now();
        float sink = 0.0f;
        double flops = 0.0;
#if defined(__AVX512F__)
        if (wide) {
            constexpr int kChains = 12, kLanes = 16;
            __m512 acc[kChains];
            for (int i = 0; i < kChains; ++i) acc[i] = _mm512_set1_ps(1.0f + 1e-3f * float(i));
            const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
            for (long it = 0; it < kIterations; ++it) {
                for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
                __asm__ volatile("" : "+v"(acc[0]), "+v"(acc[1]), "+v"(acc[2]), "+v"(acc[3]), "+v"(acc[4]), "+v"(acc[5]),
                                 "+v"(acc[6]), "+v"(acc[7]), "+v"(acc[8]), "+v"(acc[9]), "+v"(acc[10]), "+v"(acc[11]));
            }
            for (int i = 0; i < kChains; ++i) sink += _mm512_reduce_add_ps(acc[i]);
            flops = 2.0 * kLanes * kChains * double(kIterations);
        }
#endif
        if (flops == 0.0) {
#if defined(__FMA__) && defined(__AVX__)
            constexpr int kChains = 12, kLanes = 8;
            __m256 acc[kChains];
            for (int i = 0; i < kChains; ++i) acc[i] = _mm256_set1_ps(1.0f + 1e-3f * float(i));
            const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
            for (long it = 0; it < kIterations; ++it) {
                for (int i = 0; i < kChains; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
                // keep the chains in registers and the loop alive
                __asm__ volatile("" : "+x"(acc[0]), "+x"(acc[1]), "+x"(acc[2]), "+x"(acc[3]), "+x"(acc[4]), "+x"(acc[5]),
                                 "+x"(acc[6]), "+x"(acc[7]), "+x"(acc[8]), "+x"(acc[9]), "+x"(acc[10]), "+x"(acc[11]));
            }
            for (int i = 0; i < kChains; ++i) {
                alignas(32) float lanes[kLanes];
                _mm256_store_ps(lanes, acc[i]);
                for (float v : lanes) sink += v;
            }
            flops = 2.0 * kLanes * kChains * double(kIterations);
#else
            constexpr int kChains = 8;
            float acc[kChains];
            for (int i = 0; i < kChains; ++i) acc[i] = 1.0f + 1e-3f * float(i);
            for (long it = 0; it < kIterations; ++it)
                for (int i = 0; i < kChains; ++i) acc[i] = std::fma(acc[i], 0.999999f, 1e-7f);
            for (float v : acc) sink += v;
            flops = 2.0 * kChains * double(kIterations);
#endif
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (!std::isfinite(sink)) std::printf("(sink %g)\n", double(sink));
        best = std::max(best, flops / seconds / 1e9);
    }
    return best;
}

// Seconds per call of once(), the best of 3 runs of reps calls each
template <typename F>
double bestSecondsPerCall(F &&once, int reps)
{
    using Clock = std::chrono::steady_clock;
    double best = 1e30;
    for (int run = 0; run < 3; ++run) {
        const auto start = Clock::now();
        for (int r = 0; r < reps; ++r) once();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count() / reps);
    }
    return best;
}

// The ceiling the matrix products set: every product of one training step of c (forward, and the two
// products of each in the backward pass), with the operands stored as the step stores them, timed
// alone on one thread through nn::gemm (FullBand's kernel) at whole sizes: a layer's products over all
// B*T tokens (the step runs them in column pieces), and attention as the step runs it: one head at a
// time through the attention kernel (attention_kernel.h, softmax included; its FLOPs those of the
// visible keys, as transformerFlopsPerStep counts them), or, where the kernel does not take the head,
// its products over all T keys and queries. Their FLOPs over their time is about the most a step made
// of nothing else could reach; the rest of a step (norms, ReLU, Adam, the data) only adds time.
inline double productCeilingGflops(const TransformerConfig &c, int vocab)
{
    const int T = transformerInputPositions(c, c.seqLen), N = c.batch * T, d = c.dModel, dh = c.dModel / c.heads;
    struct Product {
        int m, k, n;
        long long count;  // per step
        bool ta = false, tb = false;  // the left operand is stored transposed / the right one
    };
    // a layer's output is (out features x tokens) = W (out x in) * X (in x tokens), its backward
    // dX = W' dY and dW = dY X'; a head's scores (keys x queries) = K' Q and its output (d_head x
    // queries) = V A, their backward dV = dY A', dA = V' dY, dQ = K dS, dK = Q dS'
    const long long heads = (long long)c.layers * c.batch * c.heads;
    std::vector<Product> all;
    const std::vector<std::array<long long, 3>> layers = {
        { 3 * d, d, c.layers }, { d, d, c.layers }, { 4 * d, d, c.layers }, { d, 4 * d, c.layers }, { vocab, d, 1 }
    };
    for (const auto &[out, in, count] : layers) {
        all.push_back({ int(out), int(in), N, count });
        all.push_back({ int(in), int(out), N, count, true, false });
        all.push_back({ int(out), N, int(in), count, false, true });
    }
    const bool kernel = nn::attention_kernel_fits(dh, T);
    if (!kernel) {
        all.push_back({ T, dh, T, heads, true, false });  // scores
        all.push_back({ dh, T, T, heads });               // weights x values
        all.push_back({ dh, T, T, heads, false, true });  // dV
        all.push_back({ T, dh, T, heads, true, false });  // dA
        all.push_back({ dh, T, T, heads });               // dQ
        all.push_back({ dh, T, T, heads, false, true });  // dK
    }
    double flops = 0.0, seconds = 0.0;
    std::printf("%-28s %10s %10s\n", "product (m x k x n)", "GFLOP/s", "per step");
    for (const Product &p : all) {
        const Eigen::MatrixXf a = p.ta ? Eigen::MatrixXf::Random(p.k, p.m) : Eigen::MatrixXf::Random(p.m, p.k);
        const Eigen::MatrixXf b = p.tb ? Eigen::MatrixXf::Random(p.n, p.k) : Eigen::MatrixXf::Random(p.k, p.n);
        Eigen::MatrixXf out(p.m, p.n);
        const double each = 2.0 * p.m * p.k * p.n;
        const int reps = std::max(20, int(4e8 / each));
        const auto once = [&] { nn::gemm<float>(nullptr, out, a, p.ta, b, p.tb, false); };
        once();
        const double best = bestSecondsPerCall(once, reps);
        if (!std::isfinite(out.sum())) std::printf("(not finite)\n");
        flops += each * double(p.count);
        seconds += best * double(p.count);
        const std::string shape = std::to_string(p.m) + " x " + std::to_string(p.k) + " x " + std::to_string(p.n) +
                                  (p.ta ? " (A')" : p.tb ? " (B')" : "");
        std::printf("%-28s %10.1f %9lldx\n", shape.c_str(), each / best / 1e9, p.count);
    }
    if (kernel) {
        // one head inside a (3 d_head, T) block of queries, keys and values, forward and backward
        const Eigen::MatrixXf qkv = Eigen::MatrixXf::Random(3 * dh, T), dy = Eigen::MatrixXf::Random(dh, T);
        Eigen::MatrixXf y(dh, T), att(nn::attentionRows(T), T), dqkv(3 * dh, T);
        const long ld = 3 * dh;
        const nn::AttentionHead head{ qkv.data(), qkv.data() + dh, qkv.data() + 2 * dh, ld, ld, ld, dh, 0, T,
                                      float(1.0 / std::sqrt(double(dh))) };
        const double each = 3.0 * 2.0 * 2.0 * dh * (double(T) * (T + 1) / 2);  // q k' and a v, three times
        const int reps = std::max(200, int(4e8 / each));
        const auto once = [&] {
            nn::attention_kernel_forward(head, y.data(), dh, att.data(), att.rows());
            nn::attention_kernel_backward(head, dy.data(), dh, att.data(), att.rows(), dqkv.data(), ld,
                                          dqkv.data() + dh, ld, dqkv.data() + 2 * dh, ld, true, true);
        };
        once();
        const double best = bestSecondsPerCall(once, reps);
        if (!std::isfinite(dqkv.sum())) std::printf("(not finite)\n");
        flops += each * double(heads);
        seconds += best * double(heads);
        const std::string shape = "attention kernel " + std::to_string(dh) + " x " + std::to_string(T);
        std::printf("%-28s %10.1f %9lldx\n", shape.c_str(), each / best / 1e9, heads);
    }
    return flops / seconds / 1e9;
}

} // namespace fb::test
