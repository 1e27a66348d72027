#include "core/transformer/transformer_estimate.h"

#include "core/run/budget.h"
#include "core/run/time_left.h"
#include "core/transformer/parallel_runner.h"

#include <Eigen/Core>

#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

namespace fb {

int availableCores()
{
    return std::max(1, int(tbb::info::default_concurrency()));
}

double measuredFlopsPerSecond(int dModel)
{
    static std::mutex mutex;
    static std::map<int, double> measured;
    const int d = std::clamp(dModel, 4, 2048);
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = measured.find(d); it != measured.end()) return it->second;
    // The trainer's typical product: a (4d x d) weight times a piece of activations at its widest
    // (kColumnChunk columns).
    const Eigen::Index rows = 4 * d, inner = d, cols = ParallelRunner::kColumnChunk;
    const Eigen::MatrixXf w = Eigen::MatrixXf::Constant(rows, inner, 0.01f);
    const Eigen::MatrixXf x = Eigen::MatrixXf::Constant(inner, cols, 0.02f);
    Eigen::MatrixXf y(rows, cols);
    const double perProduct = 2.0 * double(rows) * double(inner) * double(cols);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    long long products = 0;
    double seconds = 0.0;
    // At least 3 products and 0.1 s: long enough for the clock, short enough to go unnoticed.
    while (products < 3 || seconds < 0.1) {
        y.noalias() = w * x;
        ++products;
        seconds = std::chrono::duration<double>(Clock::now() - start).count();
    }
    const double speed = y(0, 0) == 0.0f ? 0.0 : perProduct * double(products) / seconds;  // y read: not optimised away
    measured[d] = speed;
    return speed;
}

double transformerExpectedSeconds(const TransformerConfig &config, double flopsPerSecond)
{
    const int threads = std::clamp(config.threads, 1, availableCores());
    return double(config.steps) * transformerFlopsPerStep(config) / (flopsPerSecond * threads);
}

std::string transformerExpectedText(const TransformerConfig &config)
{
    const double speed = measuredFlopsPerSecond(config.dModel);
    const std::string about = aboutText(transformerExpectedSeconds(config, speed));
    if (about.empty()) return {};
    const int threads = std::clamp(config.threads, 1, availableCores());
    std::string text = about + " (" + std::to_string(config.steps) + " steps of "
                       + flopsText(transformerFlopsPerStep(config)) + " floating-point operations at " + flopsText(speed)
                       + " per second";
    if (threads > 1) text += " per thread, " + std::to_string(threads) + " threads";
    return text + ")";
}

} // namespace fb
