#include "core/labs/length_cost_lab.h"

#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layout.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_workspace.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

namespace fb {

namespace {

constexpr Mixer kMixers[kLengthCostMixers] = { Mixer::Softmax, Mixer::Linear, Mixer::DeltaNet, Mixer::GatedDeltaNet };

std::vector<int> lengthsUpTo(int longest)
{
    std::vector<int> out;
    for (int T = 64; T <= longest; T *= 2) out.push_back(T);
    return out;
}

int batchAt(const LengthCostParams &p, int T)
{
    return std::max(1, p.tokens / T);
}

// The tiny transformer of these widths with one mixer in every layer, at length T.
TransformerConfig configFor(const LengthCostParams &p, Mixer m, int T)
{
    TransformerConfig c;
    c.dModel = p.dModel;
    c.heads = p.heads;
    c.layers = p.layers;
    c.seqLen = T;
    c.batch = batchAt(p, T);
    c.mixer = mixerName(m);
    return c;
}

// One mixer's network, shared by its points (the weights do not depend on the length).
struct MixerTimer {
    MixerTimer(const LengthCostParams &p, Mixer m)
        : c(configFor(p, m, 64))
        , shape(transformerShape(c, transformerVocabulary(c)))
        , net(shape, 1)
    {
        Rng rng(1);
        net.init(rng);
    }

    TransformerConfig c;
    TransformerShape shape;
    TransformerNet<float> net;
};

// One point: a mixer at one length, its batch of random tokens, its position tables and its
// workspace, kept from the first step to the last so that every step after the first finds warm
// memory. (One workspace per mixer for every length would need room for the most sequences at the
// longest length: the linear mixers' carry holds capacity / longest sequences.)
struct StepTimer {
    StepTimer(MixerTimer &mixer, const TransformerConfig &config)
        : m(mixer)
        , batchSize(config.batch)
        , positions(transformerInputPositions(config, config.seqLen))
    {
        ws.reserve(m.shape, Eigen::Index(batchSize) * positions, positions, true);
        Rng rng(std::uint64_t(config.seqLen));
        batch.resize(batchSize, positions, true, false);
        const auto vocab = std::uint64_t(transformerVocabulary(config));
        for (int &t : batch.tokens) t = int(rng.below(vocab));
        for (int &t : batch.targets) t = int(rng.below(vocab));
        tables.build(config.pos, config.dModel, config.heads, config.base, positions);
    }

    // Microseconds per token of one training step (forward and backward, one thread).
    double step()
    {
        const auto t0 = std::chrono::steady_clock::now();
        m.net.zeroGrad();
        m.net.forward(ws, batch, tables, FeedbackMode::Off, 1);
        m.net.backward(ws, batch, tables, FeedbackMode::Off, 1);
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        return us / (double(batchSize) * positions);
    }

    MixerTimer &m;
    int batchSize, positions;
    TransformerBatch batch;
    PositionTables<float> tables;
    TransformerWorkspace<float> ws;
};

} // namespace

const LabSpec &LengthCostLab::spec()
{
    static const LabSpec spec { "length-cost", "Cost against length", {
        integerParam("d_model", "width d", "", 16, 128, 64,
                     "Model width d of the tiny transformer measured (a multiple of heads).", false, 8),
        integerParam("heads", "heads", "", 1, 8, 4, "Heads per layer: d_head = d / heads, the size of a linear mixer's state."),
        integerParam("layers", "layers", "", 1, 4, 2, "Blocks of the transformer; every layer has the same mixer."),
        choiceParam("longest", "longest T", { "128", "256", "512", "1024", "2048" }, "512",
                    "The longest sequence measured: T = 64, 128, ... up to it."),
        integerParam("tokens", "tokens per step", "tokens", 256, 4096, 512,
                     "Tokens of one training step: batch = tokens / T sequences (at least one).", true),
        integerParam("repeats", "timed steps", "", 1, 3, 3,
                     "Steps timed at each point after one that warms the caches; the fastest is kept."),
    }, "the encyclopedia page on the Transformer, hybrid linear-attention models",
        "A training step's time and a sequence's memory against its length: softmax attention grows with T, the linear mixers do not.",
        "The encyclopedia page on the Transformer: recent developments, hybrid linear-attention models" };
    return spec;
}

LengthCostParams LengthCostLab::params(const ParamValues &v)
{
    LengthCostParams p;
    p.dModel = int(v.integer("d_model"));
    p.heads = int(v.integer("heads"));
    p.layers = int(v.integer("layers"));
    p.longest = std::stoi(v.text("longest"));
    p.tokens = int(v.integer("tokens"));
    p.repeats = int(v.integer("repeats"));
    return p;
}

std::string LengthCostLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    const LengthCostParams p = params(values);
    if (p.dModel % p.heads || (p.dModel / p.heads) % 2)
        return "heads must divide d_model = " + std::to_string(p.dModel) + " with an even d_head = d_model / heads, got "
               + std::to_string(p.heads);
    // Seconds, not minutes: a measurement is redone on every change of a value, and a stop waits for
    // the step under way (the longest softmax step), so that step is held to a fraction of a second.
    if (std::string err = checkBudget("length-cost at these widths and lengths", cost(values),
                                      "lower longest, tokens, d_model, layers or repeats", kMaxRunBytes, kLengthCostMaxFlops);
        !err.empty())
        return err;
    return checkBudget("one step of length-cost at T = " + std::to_string(p.longest),
                       Cost { 0.0, transformerFlopsPerStep(configFor(p, Mixer::Softmax, p.longest)) },
                       "lower longest, tokens, d_model or layers", kMaxRunBytes, kLengthCostMaxStepFlops);
}

Cost LengthCostLab::cost(const ParamValues &values)
{
    const LengthCostParams p = params(values);
    Cost all;
    const std::vector<int> lengths = lengthsUpTo(p.longest);
    for (Mixer m : kMixers) {
        // a network (weights and gradients) per mixer, a workspace and a batch per point, all kept to the end
        const TransformerConfig first = configFor(p, m, 64);
        const TransformerShape shape = transformerShape(first, transformerVocabulary(first));
        all.bytes += 2.0 * double(TransformerLayout(shape).total) * sizeof(float);
        for (int T : lengths) {
            const TransformerConfig c = configFor(p, m, T);
            const int n = transformerInputPositions(c, T);
            all.bytes += TransformerWorkspace<float>::bytes(shape, Eigen::Index(c.batch) * n, n, true)
                         + double(c.batch) * n * 2.0 * sizeof(int);
            all.flops += (p.repeats + 1) * transformerFlopsPerStep(c);
        }
    }
    return all;
}

LengthCostLabResult LengthCostLab::compute(const ParamValues &values, const RunControl &stop)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    r.lengths = lengthsUpTo(r.params.longest);
    for (int T : r.lengths) r.batches.push_back(batchAt(r.params, T));
    for (int k = 0; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        for (int T : r.lengths) {
            const TransformerConfig c = configFor(r.params, kMixers[k], T);
            r.flopsPerToken[m].push_back(transformerFlopsPerStep(c) / (double(c.batch) * transformerInputPositions(c, T)));
            double bytes = 0.0;
            for (int l = 0; l < c.layers; ++l) bytes += transformerStateBytes(c, l, T);
            r.stateBytes[m].push_back(bytes);
        }
    }
    // Every mixer's network and every point are built first; then rounds over all points: the first
    // warms each point's memory, every later one times a step and keeps the fastest. A busy moment of
    // the machine then slows one step of many points instead of every step of one point.
    std::vector<std::unique_ptr<MixerTimer>> mixers;
    std::vector<std::unique_ptr<StepTimer>> points;  // [mixer * lengths + length]
    for (int k = 0; k < kLengthCostMixers; ++k) {
        if (stop.stopRequested()) return r;
        mixers.push_back(std::make_unique<MixerTimer>(r.params, kMixers[k]));
        for (int T : r.lengths) points.push_back(std::make_unique<StepTimer>(*mixers.back(), configFor(r.params, kMixers[k], T)));
    }
    std::vector<double> best(points.size(), HUGE_VAL);
    for (int round = 0; round <= r.params.repeats; ++round)
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (stop.stopRequested()) return r;
            const double us = points[i]->step();
            if (round > 0) best[i] = std::min(best[i], us);
        }
    const std::size_t n = r.lengths.size();
    for (std::size_t m = 0; m < std::size_t(kLengthCostMixers); ++m) {
        r.usPerToken[m].assign(best.begin() + std::ptrdiff_t(m * n), best.begin() + std::ptrdiff_t((m + 1) * n));
        const double usPerFlop = r.usPerToken[m][0] / r.flopsPerToken[m][0];
        for (double f : r.flopsPerToken[m]) r.predictedUs[m].push_back(f * usPerFlop);
        r.crossover[m] = m == 0 ? 0 : lengthCrossover(r.lengths, r.usPerToken[0], r.usPerToken[m]);
        r.timesSoftmax[m] = r.usPerToken[m][n - 1] > 0.0 ? r.usPerToken[0][n - 1] / r.usPerToken[m][n - 1] : 0.0;
    }
    r.complete = true;
    return r;
}

int lengthCrossover(const std::vector<int> &lengths, const std::vector<double> &softmaxUs, const std::vector<double> &mixerUs)
{
    const std::size_t n = std::min({ lengths.size(), softmaxUs.size(), mixerUs.size() });
    std::size_t from = n;  // one past the last length where the mixer is slower
    for (std::size_t i = n; i-- > 0;) {
        if (mixerUs[i] > softmaxUs[i]) break;
        from = i;
    }
    return from < n ? lengths[from] : 0;
}

void writeJson(JsonWriter &json, const LengthCostLabResult &r)
{
    json.beginObject().field("lengths", r.lengths).field("batches", r.batches).field("complete", r.complete);
    json.key("mixers").beginArray();
    for (int k = 0; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        json.beginObject()
            .field("mixer", mixerName(kMixers[k]))
            .field("us_per_token", r.usPerToken[m])
            .field("predicted_us_per_token", r.predictedUs[m])
            .field("flops_per_token", r.flopsPerToken[m])
            .field("state_bytes", r.stateBytes[m])
            .field("crossover", r.crossover[m])
            .field("softmax_over_this_at_longest", r.timesSoftmax[m])
            .endObject();
    }
    json.endArray().endObject();
}

} // namespace fb
