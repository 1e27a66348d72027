// Names, checks and sizes of a transformer training (core/transformer/transformer_config.h).
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_report.h"

#include "core/costs/costs.h"
#include "core/interpret/ablation.h"
#include "core/transformer/attention_kernel.h"
#include "core/transformer/attention_pieces.h"
#include "core/transformer/text_corpus.h"
#include "core/transformer/transformer_layout.h"
#include "core/transformer/transformer_workspace.h"
#include "core/labs/transformer_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fb {

namespace {

constexpr double kMaxWorkspaceGiB = 2.0;

// The vocabulary without decoding a text (the budget does not need the exact figure).
int vocabularyBound(const TransformerConfig &c)
{
    if (c.task == TransformerTask::Accumulator) return c.buckets;
    if (c.task == TransformerTask::Text) return TextCorpus::kDefaultMaxVocab;
    if (c.task == TransformerTask::Parity) return 3;
    if (c.task == TransformerTask::ModularAddition) return c.modulus + 1;
    if (transformerHasAnswers(c.task)) return c.vocab + 1;
    return c.vocab;
}

// The answer tasks' keys together: the sequence fits seq_len's range and is what seq_len says, the
// vocabulary holds the keys, the split leaves pairs on both sides.
std::string checkAnswerTask(const TransformerConfig &c)
{
    const LabSpec &spec = transformerSpec();
    const std::string task = transformerTaskName(c.task);
    if (c.task == TransformerTask::ModularAddition) {
        if (std::string err = checkNumber(*spec.find("p"), c.modulus); !err.empty()) return err;
        if (std::string err = checkNumber(*spec.find("train_fraction"), c.trainFraction); !err.empty()) return err;
        const long long all = (long long)c.modulus * c.modulus, train = std::llround(c.trainFraction * double(all));
        if (train < 1 || train >= all)
            return "train_fraction must leave at least one training and one held-out pair of the p^2 = "
                   + std::to_string(all) + " pairs, got " + formatNumber(c.trainFraction);
    } else if (c.task == TransformerTask::Mqar) {
        if (std::string err = checkNumber(*spec.find("pairs"), c.pairs); !err.empty()) return err;
        if (c.vocab < 2 * c.pairs)
            return "vocab must be at least 2 pairs = " + std::to_string(2 * c.pairs)
                   + " for task mqar (distinct keys from its lower half, values from its upper), got "
                   + std::to_string(c.vocab);
        if (std::string err = checkNumber(*spec.find("pairs_min"), c.pairsMin); !err.empty()) return err;
        if (c.pairsMin > c.pairs)
            return "pairs_min must be at most pairs = " + std::to_string(c.pairs) + " (0 = always pairs), got "
                   + std::to_string(c.pairsMin);
    } else {
        if (std::string err = checkNumber(*spec.find("items"), c.items); !err.empty()) return err;
    }
    const int n = answerSequenceLength(c);
    const ParamSpec &seqLen = *spec.find("seq_len");
    if (n > seqLen.max)
        return (c.task == TransformerTask::Mqar ? "pairs must be at most " + std::to_string(int(seqLen.max - 1) / 4)
                                                : "items must be at most " + std::to_string(int(seqLen.max - 1) / 2))
               + " for task " + task + " (its sequence must fit seq_len's " + formatNumber(seqLen.max) + " tokens)";
    if (c.seqLen != n)
        return "seq_len must be " + std::to_string(n) + " for task " + task + " (it follows from "
               + (c.task == TransformerTask::ModularAddition ? std::string("the task: a b = c")
                  : c.task == TransformerTask::Mqar         ? std::string("pairs: 4 pairs + 1")
                                                            : std::string("items: 2 items + 1"))
               + "), got " + std::to_string(c.seqLen);
    return {};
}

} // namespace

std::string transformerTaskName(TransformerTask t)
{
    switch (t) {
    case TransformerTask::InductionFixed: return "induction-fixed";
    case TransformerTask::Induction: return "induction";
    case TransformerTask::Accumulator: return "accumulator";
    case TransformerTask::Text: return "text";
    case TransformerTask::Copy: return "copy";
    case TransformerTask::Reverse: return "reverse";
    case TransformerTask::Sort: return "sort";
    case TransformerTask::ModularAddition: return "modular-addition";
    case TransformerTask::Mqar: return "mqar";
    case TransformerTask::Parity: return "parity";
    }
    return "induction-fixed";
}

bool parseTransformerTask(const std::string &text, TransformerTask &out)
{
    for (TransformerTask t : { TransformerTask::InductionFixed, TransformerTask::Induction, TransformerTask::Accumulator,
                               TransformerTask::Text, TransformerTask::Copy, TransformerTask::Reverse,
                               TransformerTask::Sort, TransformerTask::ModularAddition, TransformerTask::Mqar,
                               TransformerTask::Parity })
        if (text == transformerTaskName(t)) return out = t, true;
    return false;
}

std::string feedbackModeName(FeedbackMode m)
{
    switch (m) {
    case FeedbackMode::Off: return "off";
    case FeedbackMode::KPass: return "kpass";
    case FeedbackMode::Exact: return "exact";
    }
    return "off";
}

bool parseFeedbackMode(const std::string &text, FeedbackMode &out)
{
    for (FeedbackMode m : { FeedbackMode::Off, FeedbackMode::KPass, FeedbackMode::Exact })
        if (text == feedbackModeName(m)) return out = m, true;
    return false;
}

bool transformerHasRepeat(TransformerTask t)
{
    return t == TransformerTask::InductionFixed || t == TransformerTask::Induction;
}

bool transformerHasAnswers(TransformerTask t)
{
    switch (t) {
    case TransformerTask::Copy:
    case TransformerTask::Reverse:
    case TransformerTask::Sort:
    case TransformerTask::ModularAddition:
    case TransformerTask::Mqar:
    case TransformerTask::Parity: return true;
    default: return false;
    }
}

std::vector<int> recallPairCounts(const TransformerConfig &c)
{
    std::vector<int> out;
    if (c.task != TransformerTask::Mqar) return out;
    if (c.pairs <= 16) {
        for (int p = 1; p <= c.pairs; ++p) out.push_back(p);
        return out;
    }
    for (int p : { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48 })
        if (p < c.pairs) out.push_back(p);
    out.push_back(c.pairs);
    return out;
}

int answerSequenceLength(const TransformerConfig &c)
{
    if (!transformerHasAnswers(c.task)) return 0;
    if (c.task == TransformerTask::ModularAddition) return 4;
    if (c.task == TransformerTask::Mqar) return 4 * c.pairs + 1;
    return 2 * c.items + 1;
}

int transformerInputPositions(const TransformerConfig &c, int seqLen)
{
    return transformerHasRepeat(c.task) || transformerHasAnswers(c.task) ? seqLen - 1 : seqLen;
}

int transformerEvaluationLength(const TransformerConfig &c, double factor)
{
    if (transformerHasAnswers(c.task)) return c.seqLen;
    int n = int(std::lround(factor * c.seqLen));
    if (transformerHasRepeat(c.task) && n % 2) ++n;
    return std::max(n, c.seqLen);
}

int transformerLongestEvaluation(const TransformerConfig &c)
{
    if (transformerHasAnswers(c.task)) return c.seqLen;
    // the length table's 4T stops at the longest sequence attention accepts
    return std::max(std::min(4 * c.seqLen, kMaxTransformerTokens), transformerEvaluationLength(c, c.factor));
}

long long transformerEvaluationColumns(const TransformerConfig &c)
{
    // the training batch's size, the longest evaluation sequence, and the probe's 8 sequences
    // (TransformerEvaluator::kProbeSequences), whichever is largest
    return std::max<long long>({ (long long)c.batch * c.seqLen, transformerLongestEvaluation(c), 8LL * c.seqLen });
}

TransformerShape transformerShape(const TransformerConfig &c, int vocab)
{
    TransformerShape s;
    s.vocab = vocab;
    s.dModel = c.dModel;
    s.layers = c.layers;
    s.heads = c.heads;
    s.obsInputs = c.task == TransformerTask::Accumulator ? 2 : 0;
    s.feedback = c.feedback != FeedbackMode::Off;
    s.embedScale = c.embedScale;
    s.window = c.window;
    s.kvHeads = c.kvHeads;
    s.rmsNorm = c.rmsNorm;
    s.qkNorm = c.qkNorm;
    s.attnGate = c.attnGate;
    s.loops = c.loop;
    s.shortConv = c.shortConv;
    if (parseMixers(c.mixer, c.layers, s.mixers).empty()
        && std::all_of(s.mixers.begin(), s.mixers.end(), [](Mixer m) { return m == Mixer::Softmax; }))
        s.mixers.clear();
    return s;
}

int transformerVocabulary(const TransformerConfig &c)
{
    if (c.task != TransformerTask::Text) return vocabularyBound(c);
    if (!TextCorpus::check(c.text, c.seqLen).empty()) return 0;
    return TextCorpus(c.text, c.seqLen).vocabSize();
}

long long transformerParameterCount(const TransformerConfig &c)
{
    return TransformerLayout(transformerShape(c, transformerVocabulary(c))).total;
}

double transformerFlopsPerStep(const TransformerConfig &c)
{
    const double V = c.task == TransformerTask::Text ? std::max(transformerVocabulary(c), 1) : vocabularyBound(c);
    const double T = transformerInputPositions(c, c.seqLen), N = double(c.batch) * T, d = c.dModel, f = 4.0 * d;
    const bool feedback = c.feedback != FeedbackMode::Off, exact = c.feedback == FeedbackMode::Exact;
    auto mm = [](double rows, double inner, double cols) { return 2.0 * rows * inner * cols; };
    // keys each query multiplies against: the visible ones, (T + 1) / 2 on average, where the float
    // attention kernel runs (attention_kernel.h: causal softmax attention up to its longest sequence;
    // the masked keys it also multiplies, up to a packet of 16, are not counted), and when positions
    // run one by one. Otherwise the products run over the queries' pieces (nn::AttentionPieces: at
    // T = 256 the first 128 queries against the first 128 keys, the others against all 256; dense, the
    // mask applied after them), the work a step's time is budgeted by. The count is the model's, not the
    // build's: what runs the products at T <= 128 (a head width the build's kernel does not take, such
    // as 8 with AVX-512; a sliding window's or ALiBi's forward pass) is counted as the kernel, which
    // only lowers a fraction of the peak.
    double keys = (T + 1) / 2;
    if (!exact && T > nn::kAttentionKernelMostKeys) {
        const nn::AttentionPieces pieces{ Eigen::Index(T) };
        keys = 0.0;
        for (Eigen::Index i = 0; i < pieces.count; ++i)
            keys += double(pieces.size[i]) * double(pieces.first[i] + pieces.size[i]) / T;
    }
    // q, k, v: d + 2 kv_heads d_head rows (3d without grouped-query attention)
    const double qkv = d + 2.0 * (c.kvHeads > 0 ? c.kvHeads : c.heads) * (d / c.heads);
    const double gate = c.attnGate ? mm(d, d, N) : 0.0;  // gated attention: W_theta ln1
    const TransformerShape shape = transformerShape(c, int(V));
    const double dh = d / c.heads;
    double stack = 0.0;
    for (int l = 0; l < c.layers; ++l) {
        // softmax: q k' and att v over the keys; the linear mixers per position and head: S_t's update
        // and S_t q (linear attention: 2 products of dh^2), the delta rule's S_{t-1} k too (3), and
        // beta (alpha) from ln1
        const Mixer m = shape.mixer(l);
        double mix = 2 * mm(d, keys, N);
        if (m == Mixer::Linear) mix = 2 * mm(d, dh, N);
        if (m == Mixer::DeltaNet) mix = 3 * mm(d, dh, N) + mm(c.heads, d, N);
        if (m == Mixer::GatedDeltaNet) mix = 3 * mm(d, dh, N) + 2 * mm(c.heads, d, N);
        const double conv = c.shortConv * 2.0 * qkv * N;  // the short convolution, a multiply-add per tap and row
        stack += c.loop * (mm(qkv, d, N) + conv + gate + mm(d, d, N) + mm(f, d, N) + mm(d, f, N) + mix);  // looped: every application
    }
    const double head = mm(V, d, N);
    const double fusionE = feedback ? mm(2 * d, d, N) : 0.0, fusionH = fusionE;  // [W_a; W_b] on e, on h
    const int passes = c.feedback == FeedbackMode::KPass ? c.passes : 1;
    // forward: the e part of the fusion once, every pass's h part and stack, the head
    double flops = fusionE + passes * (fusionH + stack) + head;
    // backward of the last pass: input and weight gradients of every product (twice its forward),
    // except the fusion's h part, which has an input gradient only in the exact recurrence
    flops += 2 * (fusionE + stack + head) + (exact ? 2 : 1) * fusionH;
    return flops;
}

double transformerWorkspaceBytes(const TransformerConfig &c)
{
    const TransformerShape s = transformerShape(c, vocabularyBound(c));
    const double P = double(TransformerLayout(s).total);
    const double T = transformerInputPositions(c, c.seqLen), longest = transformerLongestEvaluation(c);
    double bytes = 5 * P * sizeof(float);  // params, grads, Adam's two moments, the last good weights
    bytes += TransformerWorkspace<float>::bytes(s, Eigen::Index(c.batch * T), Eigen::Index(T), true);
    bytes += TransformerWorkspace<float>::bytes(s, Eigen::Index(transformerEvaluationColumns(c)),
                                                Eigen::Index(longest), false);
    const double evalSequences = c.evalSequences > 0 ? c.evalSequences : 4.0 * c.batch;
    bytes += (evalSequences + c.batch) * c.seqLen * (2 * sizeof(int) + 2 * sizeof(float));  // the batches
    bytes += double(c.layers) * c.heads * c.seqLen * c.seqLen * sizeof(float);             // a snapshot's maps (first loop)
    if (c.task == TransformerTask::Text) bytes += 9.0 * double(c.text.size());            // decoded and encoded text
    return bytes;
}

namespace {
// The mixer of layer l, softmax for a bad list or layer (the checks refuse those).
Mixer layerMixer(const TransformerConfig &c, int layer)
{
    std::vector<Mixer> mixers;
    if (!parseMixers(c.mixer, c.layers, mixers).empty() || layer < 0 || layer >= c.layers) return Mixer::Softmax;
    return mixers[std::size_t(layer)];
}
} // namespace

bool transformerLayerIsSoftmax(const TransformerConfig &c, int layer)
{
    return layerMixer(c, layer) == Mixer::Softmax;
}

double transformerConvStateBytes(const TransformerConfig &c, int length)
{
    // the short convolution keeps the raw q, k, v of the last taps - 1 positions
    if (c.shortConv <= 0 || c.heads <= 0) return 0.0;
    const double dh = double(c.dModel) / c.heads, kvRows = 2.0 * (c.kvHeads > 0 ? c.kvHeads : c.heads) * dh;
    return std::max(1, c.loop) * std::min(c.shortConv - 1, std::max(length, 0)) * (c.dModel + kvRows) * sizeof(float);
}

double transformerStateBytes(const TransformerConfig &c, int layer, int length)
{
    if (layer < 0 || layer >= c.layers) return 0.0;
    const Mixer m = layerMixer(c, layer);
    const double dh = double(c.dModel) / c.heads, loops = std::max(1, c.loop);
    const double conv = transformerConvStateBytes(c, length);
    if (m == Mixer::Softmax) {
        // the costs lab's formula for one layer (core/costs/costs.h), the window's tokens at most
        KvCacheParams p;
        p.layers = loops;
        p.kvHeads = c.kvHeads > 0 ? c.kvHeads : c.heads;
        p.headDim = dh;
        p.tokens = c.window > 0 ? std::min(c.window, length) : length;
        p.bytesPerValue = sizeof(float);
        return kvCache(p).bytes + conv;
    }
    return loops * mixerStateValues(m, c.heads, dh) * sizeof(float) + conv;
}

std::string checkTransformerConfig(const TransformerConfig &c)
{
    if (std::string err = checkTransformerSettings(c); !err.empty()) return err;
    if (c.task == TransformerTask::Text) return TextCorpus::check(c.text, c.seqLen);
    return {};
}

std::string checkTransformerSettings(const TransformerConfig &c)
{
    const LabSpec &spec = transformerSpec();
    auto number = [&](const char *key, double value) { return checkNumber(*spec.find(key), value); };
    const std::pair<const char *, double> numbers[] = {
        { "vocab", c.vocab }, { "buckets", c.buckets }, { "seq_len", c.seqLen }, { "batch", c.batch },
        { "layers", c.layers }, { "heads", c.heads }, { "d_model", c.dModel }, { "base", c.base },
        { "factor", c.factor }, { "passes", c.passes }, { "lr", c.lr }, { "weight_decay", c.weightDecay }, { "steps", c.steps },
        { "seed", double(c.seed) }, { "eval_every", c.evalEvery }, { "clip", c.clip }, { "threads", c.threads },
    };
    for (const auto &[key, value] : numbers)
        if (std::string err = number(key, value); !err.empty()) return err;
    const LabSpec &options = transformerCommandSpec();
    if (std::string err = checkNumber(*options.find("window"), c.window); !err.empty()) return err;
    if (std::string err = checkNumber(*options.find("kv_heads"), c.kvHeads); !err.empty()) return err;
    if (std::string err = checkNumber(*options.find("loop"), c.loop); !err.empty()) return err;
    if (std::string err = checkNumber(*options.find("short_conv"), c.shortConv); !err.empty()) return err;
    if (c.shortConv == 1)
        return "short_conv must be 0 (off) or an integer in [2, 8] (taps over the current and earlier positions), got 1";
    const std::string T = std::to_string(c.seqLen);
    if (transformerHasAnswers(c.task))
        if (std::string err = checkAnswerTask(c); !err.empty()) return err;
    if (transformerHasRepeat(c.task) && (c.seqLen % 2 || c.seqLen < 4))
        return "seq_len must be an even integer in [4, 2048] for task " + transformerTaskName(c.task) + ", got " + T;
    if (c.dModel % c.heads || (c.dModel / c.heads) % 2)
        return "heads must divide d_model = " + std::to_string(c.dModel) + " with an even d_head = d_model / heads, got "
               + std::to_string(c.heads);
    if (c.kvHeads > 0 && c.heads % c.kvHeads)
        return "kv_heads must divide heads = " + std::to_string(c.heads) + " (0 = heads, 1 = multi-query), got "
               + std::to_string(c.kvHeads);
    if (!c.ablate.empty()) {
        Ablation parts;
        if (std::string err = parseAblation(c.ablate, c.layers, c.heads, c.feedback != FeedbackMode::Off, parts);
            !err.empty())
            return err;
    }
    std::vector<Mixer> mixers;
    if (std::string err = parseMixers(c.mixer, c.layers, mixers); !err.empty()) return err;
    for (Mixer m : mixers) {
        if (m == Mixer::Softmax) continue;
        if (c.window > 0)
            return "window must be 0 with mixer " + mixerName(m) + " (its state keeps the whole past; a window is "
                   "softmax attention's), got " + std::to_string(c.window);
        if (c.pos == PositionalScheme::Alibi)
            return "pos must be none, sinusoidal or rope with mixer " + mixerName(m)
                   + " (ALiBi biases softmax attention's scores, which a linear mixer has not), got alibi";
    }
    if (c.feedback == FeedbackMode::KPass && c.passes > c.seqLen)
        return "passes must be an integer in [1, seq_len = " + T + "], got " + std::to_string(c.passes);
    if (transformerEvaluationLength(c, c.factor) > kMaxTransformerTokens)
        return "factor x seq_len must be at most " + std::to_string(kMaxTransformerTokens) + " tokens (seq_len = " + T
               + "), got factor " + formatNumber(c.factor);
    if (c.scaling != ScalingMethod::None && c.pos != PositionalScheme::Rope)
        return "scaling must be none unless pos is rope (it rescales RoPE's frequencies), got scaling = "
               + scalingMethodName(c.scaling) + " with pos = " + positionalSchemeName(c.pos);
    if (c.evalSequences < 0 || c.evalSequences > 4096)
        return "evalSequences must be an integer in [0, 4096] (0 = 4 x batch), got " + std::to_string(c.evalSequences);
    if (c.probeEvery < 0) return "probeEvery must be 0 (off) or a positive number of steps";
    if (!(c.probeSeconds >= 0.0)) return "probeSeconds must be 0 (off) or a positive number of seconds";
    if (!(c.divergeLoss >= 0.0)) return "divergeLoss must be 0 (10 ln V) or a positive number of nats";
    if (c.sampleChars < 0 || c.sampleChars > 1000) return "sampleChars must be an integer in [0, 1000]";
    if (!(c.sampleTemperature >= 0.0) || !std::isfinite(c.sampleTemperature))
        return "sampleTemperature must be 0 (the most likely character) or positive";
    const double gib = transformerWorkspaceBytes(c) / double(1ULL << 30);
    if (gib > kMaxWorkspaceGiB) {
        // rounded up to one decimal, so that "needs" is never printed as the limit itself
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", std::ceil(gib * 10.0) / 10.0);
        return "batch x seq_len at these sizes needs " + std::string(buf) + " GiB, at most "
               + formatNumber(kMaxWorkspaceGiB) + " GiB; lower batch, seq_len, d_model or layers";
    }
    return {};
}

std::vector<LengthRow> transformerLengthRows(const TransformerConfig &c)
{
    std::vector<LengthRow> rows;
    if (transformerHasAnswers(c.task)) return rows;  // one sequence length
    std::vector<ScalingMethod> methods { ScalingMethod::None };
    if (c.pos == PositionalScheme::Rope)
        methods = { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN };
    std::vector<int> lengths;
    for (int factor : kLengthFactors) {
        const int n = transformerEvaluationLength(c, factor);
        if (n > kMaxTransformerTokens) break;  // the table stops at the longest sequence attention accepts
        lengths.push_back(n);
    }
    for (ScalingMethod m : methods) {
        LengthRow row;
        row.scaling = m;
        row.label = positionalSchemeName(c.pos);
        if (m != ScalingMethod::None) row.label.append("+").append(scalingMethodName(m));  // (no operator+: GCC 12's false stringop warning)
        row.lengths = lengths;
        rows.push_back(row);
    }
    return rows;
}

} // namespace fb
