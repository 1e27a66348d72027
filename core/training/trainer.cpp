// The training loop of Figure 218.2 (000_031aadcae6604a46.txt, 218.6.5, train()): Adam on the
// mean cross entropy of freshly drawn batches, then the held-out loss and accuracy.
#include "core/training/trainer.h"

#include "core/run/budget.h"
#include "core/optim/adam.h"
#include "core/optim/guarded_step.h"
#include "core/training/step_loop.h"
#include "core/numeric/rng.h"
#include "core/training/toy_model.h"
#include "core/training/toy_task.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fb {

namespace {
constexpr int kEvalChunk = 256;             // held-out sequences per forward pass
} // namespace

std::string armName(Arm arm)
{
    return arm == Arm::TokenOnly ? "token-only" : "latent-feedback";
}

std::string trainStatusName(TrainStatus s)
{
    switch (s) {
    case TrainStatus::Finished: return "finished";
    case TrainStatus::Cancelled: return "cancelled";
    case TrainStatus::Diverged: return "diverged";
    }
    return "finished";
}

long long parameterCount(const TrainConfig &config)
{
    return ToyLayout(config.arm, toySizes(config)).total;
}

double trainFlopsPerStep(const TrainConfig &c, bool folded)
{
    const double N = double(c.batch) * c.seqLen, B = c.batch;
    const double V = c.buckets, E = c.dEmb, H = c.dHid, F = c.dFuse;
    const bool latent = c.arm == Arm::LatentFeedback;
    // one multiply-add per (output row, input row, column) of every product, 2 FLOPs each
    auto mm = [](double rows, double inner, double cols) { return 2.0 * rows * inner * cols; };
    // A linear layer reading a token embedding of width E (and rows outputs) over N columns:
    // forward, weight gradient and embedding gradient. Folded: three (rows, E, V) table products.
    auto tokenPart = [&](double rows) { return folded ? 3 * mm(rows, E, V) : 3 * mm(rows, E, N); };
    const double head = mm(V, H, N), layer2 = mm(H, H, N);
    double flops = head + 2 * head + layer2 + 2 * layer2;  // forward, then input and weight gradients
    if (!latent) return flops + tokenPart(H) + 2 * mm(H, 2, N);  // layer 1 = token part + obs part
    const int passes = std::max(1, c.passes);                 // exact: T steps of B columns = one pass of N
    const double fusionH = mm(2 * F, H, N), layer1 = mm(H, F + 2, N);
    flops += (passes - 1) * (tokenPart(2 * F) / 3 + fusionH + layer1 + layer2);  // passes without gradient
    flops += tokenPart(2 * F) + 2 * fusionH + layer1 + 2 * layer1 - mm(H, 2, N); // last pass: fwd, weights, x rows
    flops += mm(2 * F, H, c.passes == 0 || c.passes == 1 ? N : B);              // gradient into h (BPTT, or h0)
    return flops;
}

double trainWorkspaceBytes(const TrainConfig &c)
{
    // The (rows, T * max(batch, eval chunk)) workspaces of ToyNet, in float.
    const double cols = double(std::max(c.batch, std::min(kEvalChunk, c.evalSequences))) * c.seqLen;
    const double H = c.dHid, F = c.dFuse;
    double rows = 4 * H + 3 * c.buckets;  // h1, h2, dh1, dh2, logits, probs, dlogits
    rows += c.arm == Arm::LatentFeedback ? 2 * H + 2 * F + F + (F + 2) + 2 * F + F  // hp, dh0, fz, sig, in1, dfz, dx
                                         : 2;                                      // obs
    return rows * cols * sizeof(float) + cols * (2 * sizeof(double) + 2 * sizeof(int));  // + the batch
}

std::string checkTrainConfig(const TrainConfig &c)
{
    auto bad = [](const std::string &what) { return what; };
    if (c.steps < 1) return bad("steps must be at least 1");
    if (c.batch < 1) return bad("batch must be at least 1");
    if (!(c.lr > 0.0) || !std::isfinite(c.lr)) return bad("lr must be a positive number");
    if (c.seqLen < 1) return bad("seq_len must be at least 1");
    if (c.buckets < 2) return bad("buckets must be at least 2");
    if (c.dEmb < 1 || c.dHid < 1 || c.dFuse < 1) return bad("d_emb, d_hid and d_fuse must be at least 1");
    if (c.passes < 0 || c.passes > c.seqLen)
        return bad("passes must be an integer in [0, seq_len = " + std::to_string(c.seqLen) + "] (0 = exact), got "
                   + std::to_string(c.passes));
    if (!(c.clip >= 0.0)) return bad("clip must be 0 (off) or positive");
    if (c.evalSequences < 1) return bad("evalSequences must be at least 1");
    if (!(c.divergeLoss >= 0.0)) return bad("divergeLoss must be 0 (automatic) or positive");
    return checkBudget("training " + armName(c.arm) + " with batch x seq_len at these widths", trainCost(c),
                       "lower steps, batch, seq_len or d_hid");
}

Cost trainCost(const TrainConfig &c)
{
    Cost cost;
    cost.bytes = trainWorkspaceBytes(c) + 3.0 * 4.0 * double(parameterCount(c));  // + weights, gradients, Adam
    const double step = trainFlopsPerStep(c);
    // The held-out pass: forward only (a third of a step's products), per column as a training step.
    const double columns = double(c.batch);
    const double evalPasses = c.arm == Arm::LatentFeedback && c.passes >= 1 ? 2.0 : 1.0;
    cost.flops = double(c.steps) * step + evalPasses * step / 3.0 * double(c.evalSequences) / columns;
    return cost;
}

namespace {

using Clock = std::chrono::steady_clock;

// Independent random streams of one seed (the tags differ above bit 31, so no two (seed, tag)
// pairs with seeds below 2^32 share a stream).
constexpr std::uint64_t kInitStream = 0x696e697400000000ULL;  // "init"
constexpr std::uint64_t kDataStream = 0x6461746100000000ULL;  // "data"
constexpr std::uint64_t kEvalStream = 0x6576616c00000000ULL;  // "eval"

struct Eval {
    double loss = 0.0;
    double accuracy = 0.0;
};

// Held-out loss and accuracy over config.evalSequences sequences from the fixed eval seed, in
// chunks of up to kEvalChunk sequences (the set does not depend on the chunk size). passes as in
// ToyNet::forward: 0 = the exact recurrence, as the model decodes.
Eval evaluate(ToyNet<float> &net, const TrainConfig &c, int passes)
{
    Rng rng(c.evalSeed ^ kEvalStream);
    ToyBatch batch;
    double lossSum = 0.0;
    long long correct = 0, positions = 0;
    for (int done = 0; done < c.evalSequences;) {
        const int n = std::min(kEvalChunk, c.evalSequences - done);
        if (batch.batch != n) batch.resize(n, c.seqLen);
        makeToyBatch(rng, c.buckets, batch);
        const Eigen::Index cols = batch.columns();
        lossSum += net.forward(batch, passes) * double(cols);
        const auto logits = net.logits(cols);
        for (Eigen::Index j = 0; j < cols; ++j) {
            Eigen::Index best = 0;
            logits.col(j).maxCoeff(&best);
            correct += best == batch.y[std::size_t(j)];
        }
        positions += cols;
        done += n;
    }
    return { lossSum / double(positions), double(correct) / double(positions) };
}

} // namespace

TrainResult train(const TrainConfig &c, const std::function<void(const TrainProgress &)> &onStep,
                  const RunControl *control)
{
    if (const std::string err = checkTrainConfig(c); !err.empty()) throw std::invalid_argument(err);
    const Clock::time_point start = Clock::now();
    Clock::duration pausedFor {};
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start - pausedFor).count(); };

    const bool latent = c.arm == Arm::LatentFeedback;
    const int passes = latent ? c.passes : 0;
    const double divergeLoss = c.divergeLoss > 0.0 ? c.divergeLoss : 10.0 * std::log(double(c.buckets));

    TrainResult result;
    result.arm = c.arm;
    result.passes = passes;
    result.flopsPerStep = trainFlopsPerStep(c);
    result.curve.reserve(std::size_t(c.steps));

    // Everything the step loop touches is allocated here.
    ToyNet<float> net(c.arm, toySizes(c));
    result.params = net.parameterCount();
    Rng initRng(c.seed ^ kInitStream);
    net.init(initRng);
    net.reserve(std::max(c.batch, std::min(kEvalChunk, c.evalSequences)));
    Rng dataRng(c.seed ^ kDataStream);  // the same batches for both arms, as in the chapter
    ToyBatch batch;
    batch.resize(c.batch, c.seqLen);
    Adam<float> adam(net.parameterCount());
    nn::Vec<float> good = net.params;  // the weights that produced the last accepted loss

    auto diverge = [&](int step, const std::string &why) {
        net.params = good;
        result.status = TrainStatus::Diverged;
        result.message = divergedMessage(step, why, c.lr, result.curve.size());
    };

    for (int step = 1; step <= c.steps; ++step) {
        if (pauseOrStop(control, pausedFor)) {
            result.status = TrainStatus::Cancelled;
            result.message = cancelledMessage(step - 1, c.steps);
            break;
        }

        makeToyBatch(dataRng, c.buckets, batch);
        const double loss = net.forward(batch, passes);
        if (!std::isfinite(loss) || loss > divergeLoss) {
            diverge(step, "training loss " + shortNumber(loss) + " nats"
                              + (std::isfinite(loss) ? " exceeds " + shortNumber(divergeLoss) : std::string()));
            break;
        }
        net.zero_grad();
        net.backward(batch, passes);
        const GuardedStep taken = guardedStep(adam, net.params, net.grads, good, c.clip, c.lr);
        if (taken.fault == StepFault::GradientNotFinite) {
            diverge(step, "gradient norm " + shortNumber(taken.gradNorm));
            break;
        }
        result.curve.push_back(loss);
        if (taken.fault == StepFault::WeightNotFinite) {
            diverge(step, "the Adam update made a weight non-finite");
            break;
        }
        result.trainSeconds = elapsed();
        if (onStep) onStep({ step, c.steps, loss, result.trainSeconds, taken.gradNorm });
    }

    result.pausedSeconds = std::chrono::duration<double>(pausedFor).count();
    if (control && control->isAbandoned()) {
        result.heldoutLoss = result.accuracy = std::numeric_limits<double>::quiet_NaN();
        result.kpassHeldoutLoss = result.kpassAccuracy = std::numeric_limits<double>::quiet_NaN();
        result.seconds = elapsed();
        return result;
    }
    Eval held = evaluate(net, c, 0);
    // The last step's update is judged by no training loss: the held-out loss judges it, against the
    // same limit. Above it (or not finite), the run diverged on its last update; keep the weights
    // that gave the last accepted loss and measure those.
    if (result.status != TrainStatus::Diverged && !result.curve.empty()
        && (!std::isfinite(held.loss) || held.loss > divergeLoss)) {
        const int steps = int(result.curve.size());
        diverge(steps, "held-out loss " + shortNumber(held.loss) + " nats after the last update"
                           + (std::isfinite(held.loss) ? " exceeds " + shortNumber(divergeLoss) : std::string()));
        result.message = "diverged after step " + std::to_string(steps) + result.message.substr(result.message.find(':'));
        held = evaluate(net, c, 0);
    }
    result.heldoutLoss = held.loss;
    result.accuracy = held.accuracy;
    if (latent && passes >= 1) {
        const Eval kp = evaluate(net, c, passes);
        result.kpassHeldoutLoss = kp.loss;
        result.kpassAccuracy = kp.accuracy;
    }
    result.seconds = elapsed();
    return result;
}

std::vector<TrainResult> trainAll(const std::vector<TrainConfig> &configs,
                                  const std::function<void(std::size_t, const TrainProgress &)> &onStep,
                                  const RunControl *control)
{
    for (const TrainConfig &c : configs)
        if (const std::string err = checkTrainConfig(c); !err.empty()) throw std::invalid_argument(err);
    std::vector<TrainResult> results(configs.size());
    // One task per training; each is single-threaded (its products are too small to split).
    tbb::parallel_for(std::size_t(0), configs.size(), [&](std::size_t i) {
        std::function<void(const TrainProgress &)> each;
        if (onStep) each = [&onStep, i](const TrainProgress &p) { onStep(i, p); };
        results[i] = train(configs[i], each, control);
    });
    return results;
}

} // namespace fb
