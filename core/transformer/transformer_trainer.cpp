// The training loop of the tiny transformer (core/transformer/transformer_trainer.h), after the
// reference's main(): Adam on the mean cross entropy of fresh batches, the held-out loss every
// evalEvery steps, then the final figures.
#include "core/transformer/transformer_trainer.h"

#include "core/interpret/transformer_anatomy.h"
#include "core/optim/adam.h"
#include "core/optim/guarded_step.h"
#include "core/training/step_loop.h"
#include "core/numeric/rng.h"
#include "core/transformer/text_sampler.h"
#include "core/transformer/transformer_evaluator.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_tasks.h"

#include <chrono>
#include <ctime>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fb {

namespace {
// This thread's CPU time (what its steps cost, whoever else shares the core).
double threadCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
} // namespace

namespace {

using Clock = std::chrono::steady_clock;

// Independent random streams of one seed (the tags differ above bit 31).
constexpr std::uint64_t kInitStream = 0x696e697400000000ULL;    // "init"
constexpr std::uint64_t kDataStream = 0x6461746100000000ULL;    // "data"
constexpr std::size_t kPromptChars = 16;                        // snapshot samples continue this much held-out text

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

} // namespace

TransformerResult trainTransformer(const TransformerConfig &config,
                                   const std::function<void(const TransformerProgress &)> &onStep,
                                   const std::function<void(const TransformerSnapshot &)> &onSnapshot,
                                   RunControl *control)
{
    if (const std::string err = checkTransformerConfig(config); !err.empty()) throw std::invalid_argument(err);
    const Clock::time_point start = Clock::now();
    Clock::duration pausedFor {};
    auto elapsed = [&] { return seconds(Clock::now() - start - pausedFor); };
    const TransformerConfig &c = config;

    // Everything the step loop touches is allocated here.
    std::shared_ptr<const TextCorpus> corpus;
    if (c.task == TransformerTask::Text) corpus = std::make_shared<const TextCorpus>(c.text, c.seqLen);
    const int V = corpus ? corpus->vocabSize() : transformerVocabulary(c);  // text: without decoding it again
    const TransformerShape shape = transformerShape(c, V);
    TransformerNet<float> net(shape, c.threads);
    Rng initRng(c.seed ^ kInitStream);
    net.init(initRng);
    const int longest = transformerLongestEvaluation(c);
    TransformerTasks tasks(c, corpus.get(), longest + 1);
    TransformerBatch batch;
    tasks.resize(batch, c.batch, c.seqLen, true);
    TransformerWorkspace<float> ws;
    ws.reserve(shape, batch.columns(), batch.positions, true);
    PositionTables<float> tables;
    tables.build(c.pos, c.dModel, c.heads, c.base, longest);
    TransformerEvaluator evaluator(c, net, tasks, tables);
    Adam<float> adam(net.parameterCount());
    nn::Vec<float> good = net.params;  // the weights that gave the last accepted loss
    // AdamW decays the matrices and the embedding, not the biases and LayerNorm's weights (nanoGPT's
    // split: the 2-D tensors decay): 1 for a weight that decays.
    nn::Vec<float> decay;
    if (c.weightDecay > 0.0) {
        decay = nn::Vec<float>::Zero(net.parameterCount());
        // The short convolution's taps (one column per tap) start as the identity and stay out of it:
        // decay would pull them towards 0, not towards the identity.
        net.layout().forEachSlot([&](const std::string &name, const TransformerLayout::Slot &slot) {
            const bool conv = name.size() >= 5 && name.compare(name.size() - 5, 5, ".conv") == 0;
            if (slot.cols > 1 && !conv) decay.segment(slot.offset, slot.size()).setOnes();
        });
    }
    // The text task keeps the weights of the best held-out loss (a small text is memorised: the
    // held-out loss rises again while the training loss falls).
    const bool keepBest = c.task == TransformerTask::Text && c.evalEvery > 0;
    nn::Vec<float> best;
    if (keepBest) best = net.params;
    double bestLoss = std::numeric_limits<double>::infinity();
    int bestStep = 0;
    Rng dataRng(c.seed ^ kDataStream);
    const FeedbackMode mode = c.feedback;
    const int passes = c.passes;
    const double limit = c.divergeLoss > 0.0 ? c.divergeLoss : 10.0 * std::log(double(V));

    TransformerResult result;
    result.params = net.parameterCount();
    result.vocab = V;
    result.flopsPerStep = transformerFlopsPerStep(c);
    result.curve.reserve(std::size_t(c.steps));
    if (c.evalEvery > 0) result.heldoutCurve.reserve(std::size_t(c.steps / c.evalEvery + 2));

    // Snapshots: their buffers, and for text a sampler and the prompt (the start of the held-out text).
    TransformerSnapshot snap;
    std::unique_ptr<TextSampler> sampler;
    std::vector<int> prompt;
    if (onSnapshot) evaluator.sizeSnapshot(snap);
    if (corpus && c.sampleChars > 0) {
        sampler = std::make_unique<TextSampler>(shape, c.seqLen);
        const std::size_t begin = corpus->trainEnd();
        prompt.assign(corpus->ids().begin() + std::ptrdiff_t(begin),
                      corpus->ids().begin() + std::ptrdiff_t(std::min(corpus->size(), begin + kPromptChars)));
    }
    // A copy of the weights in every snapshot, for a window that writes while the model trains.
    TrainedTransformer liveModel;
    if (corpus && c.snapshotWeights) {
        liveModel.config = c;
        liveModel.config.text.clear();
        liveModel.shape = shape;
        liveModel.corpus = corpus;
    }
    Clock::time_point lastSnapshot = Clock::now();
    int heldStep = -1;  // the last held-out evaluation
    TransformerEvaluator::Losses held;
    auto fillSnapshot = [&](int step) {
        snap.step = step;
        snap.elapsedSeconds = elapsed();
        evaluator.probe(snap, mode, passes);
        snap.heldoutStep = heldStep;
        snap.heldoutLoss = held.loss;
        snap.secondHalfLoss = held.repeat;
        snap.accuracy = held.accuracy;
        snap.trainAccuracy = held.trainAccuracy;
        if (sampler) {
            snap.sample.clear();
            corpus->appendDecoded(prompt.data(), prompt.size(), snap.sample);
            Rng sampleRng((c.seed ^ kSampleStream) + std::uint64_t(step));
            sampler->sample(net, tables, *corpus, prompt.data(), prompt.size(), c.sampleChars, c.sampleTemperature,
                            sampleRng, snap.sample);
        }
        if (liveModel.corpus) {
            auto weights = std::make_shared<TrainedTransformer>(liveModel);
            weights->params = net.params;
            snap.weights = std::move(weights);
        }
    };
    auto takeSnapshot = [&](int step) {
        fillSnapshot(step);
        onSnapshot(snap);
        lastSnapshot = Clock::now();
    };
    auto keep = [&](int step) {
        if (keepBest && held.loss < bestLoss) {
            bestLoss = held.loss;
            bestStep = step;
            best = net.params;  // same size: no allocation
        }
    };

    auto diverge = [&](int step, const std::string &why) {
        net.params = good;
        result.status = TrainStatus::Diverged;
        result.message = divergedMessage(step, why, c.lr, result.curve.size());
    };

    if (c.evalEvery > 0) {  // step 0 as well, as the reference
        held = evaluator.heldout(mode, passes);
        heldStep = 0;
        result.heldoutCurve.push_back({ 0, held.loss, held.repeat, held.accuracy, held.trainAccuracy });
        keep(0);
    }
    if (onSnapshot) takeSnapshot(0);
    const bool cpuClock = c.cpuClock && c.threads == 1;
    for (int step = 1; step <= c.steps; ++step) {
        if (pauseOrStop(control, pausedFor)) {
            result.status = TrainStatus::Cancelled;
            result.message = cancelledMessage(step - 1, c.steps);
            break;
        }
        const Clock::time_point stepStart = Clock::now();
        const double cpuStart = cpuClock ? threadCpuSeconds() : 0.0;
        tasks.drawTraining(dataRng, batch);
        const double loss = net.forward(ws, batch, tables, mode, passes);
        if (!std::isfinite(loss) || loss > limit) {
            diverge(step, "training loss " + shortNumber(loss) + " nats"
                              + (std::isfinite(loss) ? " exceeds the limit " + shortNumber(limit) : std::string()));
            break;
        }
        net.zeroGrad();
        net.backward(ws, batch, tables, mode, passes);
        const GuardedStep taken = guardedStep(adam, net.params, net.grads, good, c.clip, c.lr, c.weightDecay, decay,
                                              [&net](Eigen::Index count, Eigen::Index chunk, auto &&f) {
                                                  net.runner().forBlocks(count, chunk, f);
                                              });
        if (taken.fault == StepFault::GradientNotFinite) {
            diverge(step, "gradient norm " + shortNumber(taken.gradNorm));
            break;
        }
        result.curve.push_back(loss);
        result.seconds += cpuClock ? threadCpuSeconds() - cpuStart : seconds(Clock::now() - stepStart);
        if (taken.fault == StepFault::WeightNotFinite) {
            diverge(step, "its Adam update made a weight non-finite");
            break;
        }
        if (onStep) onStep({ step, c.steps, loss, elapsed(), result.seconds, taken.gradNorm });
        if (c.evalEvery > 0 && step % c.evalEvery == 0) {
            held = evaluator.heldout(mode, passes);
            heldStep = step;
            result.heldoutCurve.push_back({ step, held.loss, held.repeat, held.accuracy, held.trainAccuracy });
            keep(step);
        }
        if (onSnapshot
            && ((c.probeEvery > 0 && step % c.probeEvery == 0)
                || (c.probeSeconds > 0.0 && seconds(Clock::now() - lastSnapshot) >= c.probeSeconds)))
            takeSnapshot(step);
    }
    result.stepsDone = int(result.curve.size());
    result.msPerStep = result.stepsDone ? 1e3 * result.seconds / result.stepsDone : 0.0;

    auto abandoned = [&] { return control && control->isAbandoned(); };
    if (abandoned()) {
        result.wallSeconds = elapsed();
        return result;
    }
    // The final weights are judged like every step's: a held-out loss above the limit is a divergence.
    held = evaluator.heldout(mode, passes);
    if (result.status != TrainStatus::Diverged && (!std::isfinite(held.loss) || held.loss > limit)) {
        const std::string loss = shortNumber(held.loss);
        diverge(result.stepsDone + 1, "held-out loss " + loss + " nats"
                                          + (std::isfinite(held.loss) ? " exceeds the limit " + shortNumber(limit)
                                                                      : std::string()) + " after the last step");
        held = evaluator.heldout(mode, passes);
    }
    // The text task: the best held-out weights, when the last ones are worse (the held-out set is the
    // same at every evaluation, so the losses compare).
    result.bestStep = result.stepsDone;
    if (keepBest && bestLoss < held.loss) {
        net.params = best;
        held = evaluator.heldout(mode, passes);
        result.bestStep = bestStep;
    }
    result.heldoutLoss = held.loss;
    result.secondHalfLoss = held.repeat;
    result.firstHalfLoss = held.first;
    result.accuracy = held.accuracy;
    result.trainAccuracy = held.trainAccuracy;
    if (mode == FeedbackMode::KPass) result.exactHeldoutLoss = evaluator.heldout(FeedbackMode::Exact, 1).loss;
    if (abandoned()) return result;
    result.inductionScore = evaluator.inductionScores(4 * c.batch, mode, passes);
    result.lengths = evaluator.lengthTable(mode, passes);
    result.recallByPairs = evaluator.recallByPairs(mode, passes, abandoned);
    if (abandoned()) return result;
    if (abandoned()) return result;
    result.extendedLength = tasks.hasAnswers() ? 0 : transformerEvaluationLength(c, c.factor);
    const TransformerEvaluator::Losses ext = evaluator.extended(result.extendedLength, c.scaling, mode, passes);
    result.extendedLoss = tasks.hasRepeat() ? ext.repeat : ext.loss;
    if (abandoned()) return result;
    // The trained model taken apart: ablations, scores, logit lens, offset profile (its cost is
    // stated in core/interpret/transformer_anatomy.h: about 9 held-out evaluations at the defaults).
    TransformerAnatomy::compute(evaluator, mode, passes, result);

    // The final snapshot, with the final held-out figures (and the last sample).
    heldStep = result.bestStep;
    if (onSnapshot) {
        takeSnapshot(result.stepsDone);
    } else {
        evaluator.sizeSnapshot(snap);
        fillSnapshot(result.stepsDone);
    }
    result.finalSnapshot = snap;

    auto model = std::make_shared<TrainedTransformer>();
    model->config = c;
    model->config.text.clear();
    model->shape = shape;
    model->params = net.params;
    model->corpus = corpus;
    result.model = model;
    result.wallSeconds = elapsed();
    return result;
}

std::string sampleTransformerText(const TrainedTransformer &model, const std::string &prompt, int chars,
                                  double temperature, std::uint64_t seed, int topK, bool cache)
{
    if (!model.corpus) throw std::invalid_argument("sampling needs a model trained on the text task");
    const TextCorpus &corpus = *model.corpus;
    TransformerNet<float> net(model.shape);
    net.params = model.params;
    PositionTables<float> tables;
    tables.build(model.config.pos, model.shape.dModel, model.shape.heads, model.config.base, model.config.seqLen);
    std::vector<int> ids = corpus.encode(prompt);
    if (ids.empty()) {
        const int newline = corpus.idOf(U'\n');
        ids.push_back(corpus.symbols()[std::size_t(newline)] == U'\n' ? newline : 0);
    }
    TextSampler sampler(model.shape, model.config.seqLen);
    sampler.setTopK(topK);
    sampler.setCache(cache);
    std::string out;
    out.reserve(std::size_t(4 * std::max(chars, 0)));
    Rng rng(seed ^ kSampleStream);
    sampler.sample(net, tables, corpus, ids.data(), ids.size(), chars, temperature, rng, out);
    return out;
}

} // namespace fb
