#include "core/transformer/transformer_evaluator.h"

#include "core/interpret/head_scores.h"
#include "core/transformer/transformer_layers.h"

#include <algorithm>
#include <cmath>

namespace fb {

namespace {
// Independent random streams of one seed (the tags differ above bit 31).
constexpr std::uint64_t kHeldoutStream = 0x6576616c00000000ULL;  // "eval", seeded with seed + 1
constexpr std::uint64_t kProbeStream = 0x70726f6200000000ULL;    // "prob"
constexpr std::uint64_t kRecallStream = 0x7265636100000000ULL;   // "reca": recall by pair count
} // namespace

TransformerEvaluator::TransformerEvaluator(const TransformerConfig &config, const TransformerNet<float> &net,
                                           TransformerTasks &tasks, const PositionTables<float> &tables)
    : c_(config), net_(net), tasks_(tasks), tables_(tables), rng_((config.seed + 1) ^ kHeldoutStream)
{
    c_.text.clear();
    ws_.reserve(net.shape(), Eigen::Index(transformerEvaluationColumns(config)),
                Eigen::Index(transformerLongestEvaluation(config)), false);
    int sequences = config.evalSequences > 0 ? config.evalSequences : 4 * config.batch;
    if (tasks_.pairCount(false) > 0 && config.evalSequences == 0) sequences = tasks_.pairCount(false);
    heldout_ = drawBatches(sequences, config.seqLen, true);
    if (const int train = tasks_.pairCount(true); train > 0) {
        // every training pair once, in chunks like the held-out set's
        const int chunk = int(std::max<Eigen::Index>(
            1, std::min<Eigen::Index>(ws_.capacity / tasks_.positions(config.seqLen, true), config.batch)));
        for (int first = 0; first < train; first += chunk) {
            TransformerBatch b;
            tasks_.resize(b, std::min(chunk, train - first), config.seqLen, true);
            tasks_.drawTrainingPairs(b, first);
            trainSet_.push_back(std::move(b));
        }
    }
    // the probe: held-out sequences of their own stream, every token an input
    Rng probeRng((config.seed + 1) ^ kProbeStream);
    tasks_.resize(probe_, kProbeSequences, config.seqLen, false);
    tasks_.drawHeldout(probeRng, probe_, 0, kProbeSequences);
    scoreSums_.assign(std::size_t(config.layers * config.heads), 0.0);
    scoreCounts_.assign(scoreSums_.size(), 0);
}

std::vector<TransformerBatch> TransformerEvaluator::drawBatches(int sequences, int n, bool withTargets, Rng *rng)
{
    const int positions = tasks_.positions(n, withTargets);
    const int chunk = int(std::max<Eigen::Index>(1, std::min<Eigen::Index>(ws_.capacity / positions, c_.batch)));
    std::vector<TransformerBatch> out;
    for (int first = 0; first < sequences; first += chunk) {
        TransformerBatch b;
        tasks_.resize(b, std::min(chunk, sequences - first), n, withTargets);
        if (!tasks_.drawHeldout(rng ? *rng : rng_, b, first, sequences)) return {};
        out.push_back(std::move(b));
    }
    return out;
}

void TransformerEvaluator::accumulate(const TransformerBatch &batch, double sums[3], long long counts[3]) const
{
    const Eigen::Index B = batch.batch;
    for (Eigen::Index n = 0; n < batch.columns(); ++n) {
        if (batch.targets[std::size_t(n)] < 0) continue;  // not an answer
        const double nll = net_.columnLoss(ws_, n, batch.targets[std::size_t(n)]);
        sums[0] += nll;
        ++counts[0];
        if (!tasks_.hasRepeat()) continue;
        // the reference's masks: the repeat's predictions a+s .. a+2s-2, the first copy's a .. a+s-2
        const int t = int(n / B), b = int(n % B), a = batch.offset[std::size_t(b)], s = batch.span[std::size_t(b)];
        if (t >= a + s && t <= a + 2 * s - 2) sums[1] += nll, ++counts[1];
        if (t >= a && t <= a + s - 2) sums[2] += nll, ++counts[2];
    }
}

TransformerEvaluator::Losses TransformerEvaluator::lossesOn(std::vector<TransformerBatch> &batches,
                                                            const PositionTables<float> &pos, FeedbackMode mode,
                                                            int passes, const Ablation *ablation)
{
    double sums[3] = { 0, 0, 0 };
    long long counts[3] = { 0, 0, 0 };
    long long correct = 0;
    for (TransformerBatch &b : batches) {
        net_.forward(ws_, b, pos, mode, passes, ablation);
        accumulate(b, sums, counts);
        if (tasks_.hasAnswers()) correct += nn::correct_predictions<float>(ws_.logits.leftCols(b.columns()), b.targets.data());
    }
    Losses out;
    if (tasks_.hasAnswers() && counts[0]) out.accuracy = double(correct) / double(counts[0]);
    if (counts[0]) out.loss = sums[0] / double(counts[0]);
    if (counts[1]) out.repeat = sums[1] / double(counts[1]);
    if (counts[2]) out.first = sums[2] / double(counts[2]);
    return out;
}

TransformerEvaluator::Losses TransformerEvaluator::heldout(FeedbackMode mode, int passes, const Ablation *ablation)
{
    Losses out = lossesOn(heldout_, tables_, mode, passes, ablation);
    if (!trainSet_.empty() && !ablation) out.trainAccuracy = lossesOn(trainSet_, tables_, mode, passes).accuracy;
    return out;
}

void TransformerEvaluator::forEachHeldout(FeedbackMode mode, int passes, const Ablation *ablation, const Visit &visit)
{
    for (const TransformerBatch &b : heldout_) {
        net_.forward(ws_, b, tables_, mode, passes, ablation);
        visit(b, ws_);
    }
}

void TransformerEvaluator::sizeSnapshot(TransformerSnapshot &out) const
{
    const int T = c_.seqLen;
    out.seqLen = T;
    out.layers = c_.layers;
    out.heads = c_.heads;
    out.probeTokens.assign(std::size_t(T), 0);
    out.attention.assign(std::size_t(c_.layers * c_.heads), Eigen::MatrixXf::Zero(T, T));
    out.inductionScore.clear();
    if (tasks_.hasRepeat())
        out.inductionScore.assign(std::size_t(c_.layers), std::vector<double>(std::size_t(c_.heads), 0.0));
    out.sample.reserve(std::size_t(4 * (c_.sampleChars + 32)));
    out.statePositions.clear();
    out.states.clear();
    const TransformerShape &shape = net_.shape();
    bool anyLinear = false;
    for (int l = 0; l < c_.layers; ++l) anyLinear = anyLinear || shape.linear(l);
    if (!anyLinear) return;
    const int kept = std::min(T, TransformerSnapshot::kStatePositions), dh = shape.dHead();
    for (int i = 0; i < kept; ++i)
        out.statePositions.push_back(int((long long)(i + 1) * T / kept) - 1);  // ascending, ends at T - 1
    out.states.resize(std::size_t(c_.layers * c_.heads));
    for (int l = 0; l < c_.layers; ++l)
        if (shape.linear(l))
            for (int h = 0; h < c_.heads; ++h)
                out.states[std::size_t(l * c_.heads + h)].assign(std::size_t(kept), Eigen::MatrixXf::Zero(dh, dh));
}

void TransformerEvaluator::addScores(const TransformerBatch &batch, std::vector<double> &sums,
                                     std::vector<long long> &counts) const
{
    const Eigen::Index B = batch.batch, T = batch.positions, H = c_.heads, R = nn::attentionRows(T);
    for (int l = 0; l < c_.layers; ++l)
        for (Eigen::Index b = 0; b < B; ++b) {
            const int a = batch.offset[std::size_t(b)], s = batch.span[std::size_t(b)];
            for (Eigen::Index h = 0; h < H; ++h) {
                // att(key j, query i) of (sequence b, head h)
                const float *att = ws_.layer[std::size_t(l)].att.data() + (b * H + h) * R * T;
                const std::size_t k = std::size_t(l * H + h);
                HeadScores::addInduction(att, R, T, a, s, sums[k], counts[k]);
            }
        }
}

void TransformerEvaluator::probe(TransformerSnapshot &out, FeedbackMode mode, int passes)
{
    net_.forward(ws_, probe_, tables_, mode, passes);
    const Eigen::Index T = probe_.positions, B = probe_.batch, H = c_.heads, R = nn::attentionRows(T);
    for (Eigen::Index t = 0; t < T; ++t) out.probeTokens[std::size_t(t)] = probe_.tokens[std::size_t(t * B)];
    for (int l = 0; l < c_.layers; ++l)
        for (Eigen::Index h = 0; h < H; ++h) {
            // sequence 0: the stored (key, query) block transposed to (query, key)
            const Eigen::Map<const Eigen::MatrixXf, 0, Eigen::OuterStride<>> att(
                ws_.layer[std::size_t(l)].att.data() + h * R * T, T, T, Eigen::OuterStride<>(R));
            out.attention[std::size_t(l * H + h)] = att.transpose();
        }
    // the linear mixers' states of sequence 0, kept per position by the forward pass
    const Eigen::Index dd = Eigen::Index(net_.shape().dHead()) * net_.shape().dHead();
    for (int l = 0; l < c_.layers; ++l) {
        if (!net_.shape().linear(l)) continue;
        for (Eigen::Index h = 0; h < H; ++h) {
            std::vector<Eigen::MatrixXf> &kept = out.states[std::size_t(l * H + h)];
            for (std::size_t i = 0; i < kept.size(); ++i) {
                const Eigen::Index t = out.statePositions[i];
                kept[i] = Eigen::Map<const Eigen::MatrixXf>(ws_.layer[std::size_t(l)].state.data() + (h * ws_.T + t) * dd,
                                                            kept[i].rows(), kept[i].cols());
            }
        }
    }
    if (tasks_.hasRepeat()) {
        std::fill(scoreSums_.begin(), scoreSums_.end(), 0.0);
        std::fill(scoreCounts_.begin(), scoreCounts_.end(), 0);
        addScores(probe_, scoreSums_, scoreCounts_);
        for (int l = 0; l < c_.layers; ++l)
            for (int h = 0; h < c_.heads; ++h) {
                const std::size_t k = std::size_t(l * c_.heads + h);
                out.inductionScore[std::size_t(l)][std::size_t(h)] =
                    scoreCounts_[k] ? scoreSums_[k] / double(scoreCounts_[k]) : TransformerResult::nan;
            }
    }
    if (net_.shape().feedback && mode != FeedbackMode::Off) {
        // sequence 0's columns t*B
        double sum = 0.0;
        for (Eigen::Index t = 0; t < T; ++t) sum += double(ws_.gate.col(t * B).sum());
        out.gateMean = sum / double(T * c_.dModel);
    }
}

std::vector<std::vector<double>> TransformerEvaluator::inductionScores(int sequences, FeedbackMode mode, int passes)
{
    if (!tasks_.hasRepeat()) return {};
    std::vector<TransformerBatch> batches = drawBatches(sequences, c_.seqLen, false);
    std::vector<double> sums(std::size_t(c_.layers * c_.heads), 0.0);
    std::vector<long long> counts(sums.size(), 0);
    for (const TransformerBatch &b : batches) {
        net_.forward(ws_, b, tables_, mode, passes);
        addScores(b, sums, counts);
    }
    std::vector<std::vector<double>> out(std::size_t(c_.layers), std::vector<double>(std::size_t(c_.heads)));
    for (int l = 0; l < c_.layers; ++l)
        for (int h = 0; h < c_.heads; ++h) {
            const std::size_t k = std::size_t(l * c_.heads + h);
            out[std::size_t(l)][std::size_t(h)] = counts[k] ? sums[k] / double(counts[k]) : TransformerResult::nan;
        }
    return out;
}

PositionTables<float> TransformerEvaluator::rescaled(int length, ScalingMethod scaling) const
{
    ContextExtension ext;
    ext.method = scaling;
    ext.factor = double(length) / double(c_.seqLen);
    ext.trainedLength = double(c_.seqLen);
    PositionTables<float> pos;
    pos.build(c_.pos, c_.dModel, c_.heads, c_.base, std::max<Eigen::Index>(length, tables_.length), ext);
    return pos;
}

std::vector<LengthRow> TransformerEvaluator::lengthTable(FeedbackMode mode, int passes)
{
    std::vector<LengthRow> rows = transformerLengthRows(c_);
    if (rows.empty()) return rows;
    const int sequences = c_.evalSequences > 0 ? c_.evalSequences : 4 * c_.batch;
    for (std::size_t column = 0; column < rows.front().lengths.size(); ++column) {
        const int factor = kLengthFactors[column], n = rows.front().lengths[column];
        // Every column averages about as many predictions: 1/factor of the sequences, each factor
        // times as long (the whole count cost 4 + 8 + 16 held-out sets at 4 rows, most of a short
        // run's end). The same sequences for every rescaling.
        std::vector<TransformerBatch> batches = drawBatches((sequences + factor - 1) / factor, n, true);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            LengthRow &row = rows[r];
            Losses l;
            if (factor == 1 && r > 0) {
                // at the trained length every rescaling (factor 1) is the plain table
                l.loss = rows[0].loss.back();
                l.repeat = rows[0].repeatLoss.back();
            } else if (!batches.empty()) {
                l = row.scaling == ScalingMethod::None ? lossesOn(batches, tables_, mode, passes)
                                                       : lossesOn(batches, rescaled(n, row.scaling), mode, passes);
            }
            row.loss.push_back(l.loss);
            row.repeatLoss.push_back(l.repeat);
        }
    }
    return rows;
}

TransformerEvaluator::Losses TransformerEvaluator::extended(int length, ScalingMethod scaling, FeedbackMode mode,
                                                            int passes)
{
    if (tasks_.hasAnswers()) return {};  // one sequence length
    const int sequences = c_.evalSequences > 0 ? c_.evalSequences : 4 * c_.batch;
    std::vector<TransformerBatch> batches = drawBatches(sequences, length, true);
    if (batches.empty()) return {};
    if (scaling == ScalingMethod::None || c_.pos != PositionalScheme::Rope)
        return lossesOn(batches, tables_, mode, passes);
    return lossesOn(batches, rescaled(length, scaling), mode, passes);
}

std::vector<TransformerResult::RecallPoint> TransformerEvaluator::recallByPairs(FeedbackMode mode, int passes,
                                                                                const std::function<bool()> &stop)
{
    std::vector<TransformerResult::RecallPoint> out;
    if (c_.task != TransformerTask::Mqar) return out;
    const int sequences = c_.evalSequences > 0 ? c_.evalSequences : 4 * c_.batch;
    // the tasks' count goes back to the configuration's on every way out
    struct Restore {
        TransformerTasks &tasks;
        ~Restore() { tasks.setMqarPairs(0); }
    } restore { tasks_ };
    for (int pairs : recallPairCounts(c_)) {
        if (stop && stop()) break;
        // a stream per count (the tag's bits 40-47 hold it, clear of any seed below 2^40): the
        // sequences of P pairs are the same whatever else is measured
        Rng rng((c_.seed + 1) ^ kRecallStream ^ (std::uint64_t(pairs) << 40));
        tasks_.setMqarPairs(pairs);
        std::vector<TransformerBatch> batches = drawBatches(sequences, c_.seqLen, true, &rng);
        out.push_back({ pairs, lossesOn(batches, tables_, mode, passes).accuracy });
    }
    return out;
}

} // namespace fb
