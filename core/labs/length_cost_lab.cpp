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
    c.evalSequences = 1;  // the transformer's own memory check counts a training step, not evaluations
    return c;
}

// One point of the measurement: the network of one mixer at one length, its batch and workspace,
// kept from the first step to the last so that every step after the first finds warm memory.
struct StepTimer {
    explicit StepTimer(const TransformerConfig &config)
        : c(config)
        , shape(transformerShape(c, transformerVocabulary(c)))
        , net(shape, 1)
        , positions(transformerInputPositions(c, c.seqLen))
    {
        Rng rng(1);
        net.init(rng);
        batch.resize(c.batch, positions, true, false);
        const auto vocab = std::uint64_t(transformerVocabulary(c));
        for (int &t : batch.tokens) t = int(rng.below(vocab));
        for (int &t : batch.targets) t = int(rng.below(vocab));
        ws.reserve(shape, batch.columns(), positions, true);
        tables.build(c.pos, c.dModel, c.heads, c.base, positions);
    }

    // Microseconds per token of one training step (forward and backward, one thread).
    double step()
    {
        const auto t0 = std::chrono::steady_clock::now();
        net.zeroGrad();
        net.forward(ws, batch, tables, FeedbackMode::Off, 1);
        net.backward(ws, batch, tables, FeedbackMode::Off, 1);
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        return us / (double(c.batch) * positions);
    }

    TransformerConfig c;
    TransformerShape shape;
    TransformerNet<float> net;
    int positions;
    TransformerBatch batch;
    TransformerWorkspace<float> ws;
    PositionTables<float> tables;
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
        integerParam("tokens", "tokens per step", "tokens", 256, 4096, 1024,
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
    // Seconds, not minutes: a measurement is redone on every change of a value.
    if (std::string err = checkBudget("length-cost at these widths and lengths", cost(values),
                                      "lower longest, tokens, d_model or layers", kMaxRunBytes, kLengthCostMaxFlops);
        !err.empty())
        return err;
    for (Mixer m : kMixers)
        if (std::string err = checkTransformerSettings(configFor(p, m, p.longest)); !err.empty()) return err;
    return {};
}

Cost LengthCostLab::cost(const ParamValues &values)
{
    const LengthCostParams p = params(values);
    Cost all;
    for (int T : lengthsUpTo(p.longest))
        for (Mixer m : kMixers) {
            const TransformerConfig c = configFor(p, m, T);
            const TransformerShape shape = transformerShape(c, transformerVocabulary(c));
            const double bytes = 2.0 * double(TransformerLayout(shape).total) * sizeof(float)
                                 + TransformerWorkspace<float>::bytes(shape, Eigen::Index(c.batch) * T, T, true);
            all.bytes += bytes;  // every point's network is kept to the end
            all.flops += (p.repeats + 1) * transformerFlopsPerStep(c);
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
    // Every point's network is built first; then rounds over all points: the first warms each point's
    // memory, every later one times a step and keeps the fastest. A busy moment of the machine then
    // slows one step of many points instead of every step of one point.
    std::vector<std::unique_ptr<StepTimer>> points;
    for (int k = 0; k < kLengthCostMixers; ++k)
        for (int T : r.lengths) {
            if (stop.stopRequested()) return r;
            points.push_back(std::make_unique<StepTimer>(configFor(r.params, kMixers[k], T)));
        }
    std::vector<double> best(points.size(), HUGE_VAL);
    for (int round = 0; round <= r.params.repeats; ++round)
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (stop.stopRequested()) return r;
            const double us = points[i]->step();
            if (round > 0) best[i] = std::min(best[i], us);
        }
    for (std::size_t i = 0; i < points.size(); ++i) r.usPerToken[i / r.lengths.size()].push_back(best[i]);
    for (int k = 0; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        const double usPerFlop = r.usPerToken[m][0] / r.flopsPerToken[m][0];
        for (double f : r.flopsPerToken[m]) r.predictedUs[m].push_back(f * usPerFlop);
        r.crossover[m] = 0;
        for (std::size_t i = 0; i < r.lengths.size() && k > 0; ++i)
            if (r.usPerToken[m][i] <= r.usPerToken[0][i]) {
                r.crossover[m] = r.lengths[i];
                break;
            }
    }
    r.complete = true;
    return r;
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
            .endObject();
    }
    json.endArray().endObject();
}

} // namespace fb
