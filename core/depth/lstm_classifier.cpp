#include "core/depth/lstm_classifier.h"

#include "core/depth/depth_random.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace fb {

using Eigen::MatrixXd;
using Eigen::VectorXd;

std::string classifierArmName(ClassifierArm arm)
{
    return arm == ClassifierArm::Lstm ? "lstm" : "mean-pooling";
}

std::string classifierStatusName(TrainStatus s)
{
    switch (s) {
    case TrainStatus::Finished: return "finished";
    case TrainStatus::Cancelled: return "cancelled";
    case TrainStatus::Diverged: return "diverged";
    }
    return "finished";
}

SequenceSet makeMeanThresholdSet(int count, int seqLen, int vocab, std::uint64_t seed)
{
    Rng rng(seed);
    SequenceSet s;
    s.tokens.resize(seqLen, count);
    s.labels.resize(std::size_t(count));
    for (int n = 0; n < count; ++n) {
        long long sum = 0;
        for (int t = 0; t < seqLen; ++t) {
            s.tokens(t, n) = int(rng.below(std::uint64_t(vocab)));
            sum += s.tokens(t, n);
        }
        // mean > vocab / 2  <=>  2 sum > T vocab, in integers
        s.labels[std::size_t(n)] = 2 * sum > (long long)seqLen * vocab ? 1 : 0;
    }
    return s;
}

double majorityRate(const SequenceSet &set)
{
    if (set.labels.empty()) return 0.0;
    long long ones = 0;
    for (int l : set.labels) ones += l;
    const double p = double(ones) / double(set.labels.size());
    return std::max(p, 1.0 - p);
}

std::vector<ParamSpan<double>> ClassifierModel::slices()
{
    std::vector<ParamSpan<double>> s { { embedding.data(), embedding.size() } };
    if (arm == ClassifierArm::Lstm) {
        s.push_back({ lstm.W.data(), lstm.W.size() });
        s.push_back({ lstm.b.data(), lstm.b.size() });
    }
    s.push_back({ Wc.data(), Wc.size() });
    s.push_back({ bc.data(), bc.size() });
    return s;
}

long long ClassifierModel::parameterCount() const
{
    long long n = embedding.size() + Wc.size() + bc.size();
    if (arm == ClassifierArm::Lstm) n += lstm.W.size() + lstm.b.size();
    return n;
}

void ClassifierModel::setZero()
{
    embedding.setZero();
    lstm.W.setZero();
    lstm.b.setZero();
    Wc.setZero();
    bc.setZero();
}

ClassifierModel makeClassifier(const ClassifierConfig &c, ClassifierArm arm)
{
    ClassifierModel m;
    m.arm = arm;
    {
        Rng rng(streamSeed(c.seed, 1));  // the same starting embedding for both arms
        m.embedding = gaussianMatrix(rng, c.embed, c.vocab, 1.0);
    }
    int features = c.embed;
    if (arm == ClassifierArm::Lstm) {
        Rng rng(streamSeed(c.seed, 2));
        const double k = 1.0 / std::sqrt(double(c.hidden));
        m.lstm.W = uniformMatrix(rng, 4 * c.hidden, c.hidden + c.embed, -k, k);
        m.lstm.b = uniformMatrix(rng, 4 * c.hidden, 1, -k, k);
        features = c.hidden;
    }
    Rng rng(streamSeed(c.seed, arm == ClassifierArm::Lstm ? 3 : 4));
    const double k = 1.0 / std::sqrt(double(features));
    m.Wc = uniformMatrix(rng, 2, features, -k, k);
    m.bc = uniformMatrix(rng, 2, 1, -k, k);
    return m;
}

ClassifierEval classifierLoss(const ClassifierModel &model, const SequenceSet &set, ClassifierModel *grads)
{
    const int T = int(set.tokens.rows()), N = set.count();
    const Eigen::Index E = model.embedding.rows();
    // x_t (E, N): the embedding of token t of every sequence
    std::vector<MatrixXd> x(static_cast<std::size_t>(T), MatrixXd(E, N));
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n) x[std::size_t(t)].col(n) = model.embedding.col(set.tokens(t, n));

    // features (F, N): h_T of the LSTM, or the mean embedding
    MatrixXd features;
    LstmCache cache;
    if (model.arm == ClassifierArm::Lstm) {
        const int H = model.lstm.hidden();
        lstmForward(model.lstm, x, MatrixXd::Zero(H, N), MatrixXd::Zero(H, N), cache);
        features = cache.h.back();
    } else {
        features = MatrixXd::Zero(E, N);
        for (const MatrixXd &xt : x) features += xt;
        features /= double(T);
    }
    // logits (2, N) = Wc features + bc; softmax cross entropy averaged over the N sequences
    MatrixXd logits = model.Wc * features;
    logits.colwise() += model.bc;
    ClassifierEval ev;
    MatrixXd dlogits(2, N);
    for (int n = 0; n < N; ++n) {
        const double mx = logits.col(n).maxCoeff();
        const double e0 = std::exp(logits(0, n) - mx), e1 = std::exp(logits(1, n) - mx);
        const double logZ = mx + std::log(e0 + e1);
        const int y = set.labels[std::size_t(n)];
        ev.loss += logZ - logits(y, n);
        const int predicted = logits(1, n) > logits(0, n) ? 1 : 0;
        ev.accuracy += predicted == y ? 1.0 : 0.0;
        // dL/dlogits = (softmax - onehot) / N
        dlogits(0, n) = (e0 / (e0 + e1) - (y == 0 ? 1.0 : 0.0)) / double(N);
        dlogits(1, n) = (e1 / (e0 + e1) - (y == 1 ? 1.0 : 0.0)) / double(N);
    }
    ev.loss /= double(N);
    ev.accuracy /= double(N);
    if (!grads) return ev;

    // ---- backward
    grads->arm = model.arm;
    grads->embedding = MatrixXd::Zero(model.embedding.rows(), model.embedding.cols());
    // in the forward pass this was: logits = Wc features + bc
    grads->Wc.noalias() = dlogits * features.transpose();
    grads->bc = dlogits.rowwise().sum();
    const MatrixXd dfeatures = model.Wc.transpose() * dlogits;
    if (model.arm == ClassifierArm::Lstm) {
        // in the forward pass this was: features = h_T of the LSTM over x_1..x_T
        LstmGrads lg;
        lstmZeroGrads(model.lstm, lg);
        lstmBackward(model.lstm, cache, x, dfeatures, lg, true);
        grads->lstm.W = std::move(lg.dW);
        grads->lstm.b = std::move(lg.db);
        // in the forward pass this was: x_t[:, n] = embedding[:, tokens(t, n)]
        for (int t = 0; t < T; ++t)
            for (int n = 0; n < N; ++n) grads->embedding.col(set.tokens(t, n)) += lg.dx[std::size_t(t)].col(n);
    } else {
        // in the forward pass this was: features[:, n] = mean over t of embedding[:, tokens(t, n)]
        for (int t = 0; t < T; ++t)
            for (int n = 0; n < N; ++n) grads->embedding.col(set.tokens(t, n)) += dfeatures.col(n) / double(T);
    }
    return ev;
}

Cost classifierCost(const ClassifierConfig &c, ClassifierArm arm)
{
    const double T = c.seqLen, N = c.batch, Nh = c.heldout, H = c.hidden, E = c.embed;
    const bool lstm = arm == ClassifierArm::Lstm;
    // One forward pass over n sequences keeps x_t (E, n) and, for the LSTM, h, c, tanh c (H, n) and
    // the gates (4H, n) at every step; the backward pass adds dx_t (E, n). In double.
    auto pass = [&](double n, bool backward) {
        const double rows = E * (backward ? 2.0 : 1.0) + (lstm ? 7.0 * H : 0.0);
        return 8.0 * T * n * rows;
    };
    Cost cost;
    cost.bytes = 4.0 * T * (N + Nh) + std::max(pass(N, true), pass(Nh, false));
    // The gate product 4H x (H + E) per sequence and step, or the mean over E; the backward pass costs
    // about twice the forward one.
    const double perSequenceStep = lstm ? 2.0 * 4.0 * H * (H + E) : 2.0 * E;
    const double evals = c.evalEvery > 0 ? double(c.steps) / c.evalEvery + 2.0 : 1.0;
    cost.flops = perSequenceStep * T * (3.0 * N * double(c.steps) + N + Nh * evals);
    return cost;
}

std::string checkClassifierConfig(const ClassifierConfig &c, const std::vector<ClassifierArm> &arms)
{
    if (c.vocab < 2 || c.seqLen < 1 || c.embed < 1 || c.hidden < 1 || c.batch < 1 || c.steps < 1 || c.heldout < 1)
        return "vocab must be at least 2, and seq_len, embed, hidden, batch, steps and heldout at least 1";
    if (!(c.lr > 0.0) || !std::isfinite(c.lr)) return "lr must be a positive number";
    if (!(c.divergeLoss >= 0.0) || !(c.heldoutDivergeLoss >= 0.0))
        return "divergeLoss and heldoutDivergeLoss must be 0 (automatic) or positive";
    // The arms train one after the other: the larger one's memory, both arms' work.
    Cost cost;
    for (ClassifierArm arm : arms) {
        const Cost one = classifierCost(c, arm);
        cost.bytes = std::max(cost.bytes, one.bytes);
        cost.flops += one.flops;
    }
    return checkBudget("training with batch x seq_len x hidden and heldout x seq_len at these sizes", cost,
                       "lower batch, heldout, seq_len, hidden, embed or steps");
}

namespace {
bool allFinite(ClassifierModel &m)
{
    for (const ParamSpan<double> &s : m.slices())
        if (!Eigen::Map<const Eigen::ArrayXd>(s.data, s.size).isFinite().all()) return false;
    return true;
}
} // namespace

ClassifierResult trainClassifier(const ClassifierConfig &c, ClassifierArm arm,
                                 const std::function<void(const ClassifierProgress &)> &onStep, const RunControl *control)
{
    if (std::string err = checkClassifierConfig(c, { arm }); !err.empty()) throw std::invalid_argument(err);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const double divergeLoss = c.divergeLoss > 0.0 ? c.divergeLoss : 10.0 * std::log(2.0);
    const double heldoutLimit = c.heldoutDivergeLoss > 0.0 ? c.heldoutDivergeLoss : 100.0 * std::log(2.0);
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

    ClassifierResult r;
    r.arm = arm;
    ClassifierModel model = makeClassifier(c, arm);
    r.params = model.parameterCount();
    const SequenceSet train = makeMeanThresholdSet(c.batch, c.seqLen, c.vocab, streamSeed(c.seed, 10));
    const SequenceSet heldout = makeMeanThresholdSet(c.heldout, c.seqLen, c.vocab, streamSeed(c.seed, 11));
    r.heldoutMajority = majorityRate(heldout);
    if (c.evalEvery > 0) r.heldoutCurve.emplace_back(0, classifierLoss(model, heldout).accuracy);

    Adam<double> adam;
    ClassifierModel grads = model;
    ClassifierModel lastGood = model;
    r.curve.reserve(std::size_t(c.steps));
    for (int step = 1; step <= c.steps; ++step) {
        if (control) {
            control->waitWhilePaused();
            if (control->stopRequested()) {
                r.status = TrainStatus::Cancelled;
                r.message = "cancelled after " + std::to_string(step - 1) + " of " + std::to_string(c.steps) + " steps";
                break;
            }
        }
        const ClassifierEval ev = classifierLoss(model, train, &grads);
        if (!std::isfinite(ev.loss) || !allFinite(grads) || ev.loss > divergeLoss) {
            r.status = TrainStatus::Diverged;
            r.message = (std::isfinite(ev.loss) && ev.loss > divergeLoss
                             ? "the training loss " + shortNumber(ev.loss) + " nats exceeded " + shortNumber(divergeLoss)
                             : std::string("the loss or a gradient became non-finite"))
                + " at step " + std::to_string(step) + " (lr " + formatNumber(c.lr) + "); kept the weights of step "
                + std::to_string(step - 1) + "; try a smaller learning rate";
            model = lastGood;
            break;
        }
        lastGood = model;
        adam.step(model.slices(), grads.slices(), c.lr);
        r.curve.push_back(ev.loss);
        r.accuracyCurve.push_back(ev.accuracy);
        if (c.evalEvery > 0 && (step % c.evalEvery == 0 || step == c.steps))
            r.heldoutCurve.emplace_back(step, classifierLoss(model, heldout).accuracy);
        if (onStep) onStep({ arm, step, c.steps, ev.loss, ev.accuracy, elapsed() });
    }
    if (!allFinite(model)) model = lastGood;
    ClassifierEval held = classifierLoss(model, heldout);
    // The last update is judged by no training loss: the held-out loss judges it; above its limit,
    // keep the weights that gave the last accepted training loss.
    if (r.status != TrainStatus::Diverged && !r.curve.empty() && !(held.loss <= heldoutLimit)) {
        r.status = TrainStatus::Diverged;
        r.message = "the held-out loss " + shortNumber(held.loss) + " nats after the last update exceeded "
            + shortNumber(heldoutLimit) + " (lr " + formatNumber(c.lr) + "); kept the weights of step "
            + std::to_string(r.curve.size()) + "; try a smaller learning rate";
        model = lastGood;
        held = classifierLoss(model, heldout);
    }
    r.accuracy = classifierLoss(model, train).accuracy;
    r.heldoutAccuracy = held.accuracy;
    r.heldoutLoss = held.loss;
    r.seconds = elapsed();
    return r;
}

} // namespace fb
