#include "core/interpret/transformer_anatomy.h"

#include "core/interpret/ablation.h"
#include "core/interpret/head_scores.h"
#include "core/interpret/offset_profile.h"
#include "core/interpret/phase_change.h"
#include "core/rope/decay_bound.h"
#include "core/transformer/transformer_layers.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <memory>
#include <limits>

namespace fb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Grid = std::vector<std::vector<double>>;

Grid grid(int layers, int heads, double value = kNaN)
{
    return Grid(std::size_t(layers), std::vector<double>(std::size_t(heads), value));
}

// The atty sums of one forward pass, per layer (d values), and the columns they cover. Looped depth:
// the L layers' weights run several times; a layer's mean is over all its applications.
struct MeanSums {
    explicit MeanSums(int l) : layers(std::size_t(l)) {}
    std::size_t layers;
    std::vector<std::vector<double>> sums;
    long long columns = 0;

    void add(const TransformerWorkspace<float> &ws)
    {
        const Eigen::Index N = ws.columns();
        if (sums.empty()) sums.assign(layers, std::vector<double>(std::size_t(ws.layer[0].atty.rows()), 0.0));
        for (std::size_t l = 0; l < ws.layer.size(); ++l) {
            Eigen::Map<Eigen::VectorXd> s(sums[l % layers].data(), Eigen::Index(sums[l % layers].size()));
            s += ws.layer[l].atty.leftCols(N).cast<double>().rowwise().sum();
        }
        columns += N * Eigen::Index(ws.layer.size() / layers);
    }
    std::vector<std::vector<double>> means() const
    {
        std::vector<std::vector<double>> out = sums;
        for (auto &layer : out)
            for (double &v : layer) v = columns ? v / double(columns) : 0.0;
        return out;
    }
};

// Scores' sums over [layer * heads + head] as TransformerEvaluator::addScores fills them -> [layer][head].
Grid averaged(const std::vector<double> &sums, const std::vector<long long> &counts, int layers, int heads)
{
    Grid out = grid(layers, heads);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const std::size_t k = std::size_t(l * heads + h);
            if (counts[k]) out[std::size_t(l)][std::size_t(h)] = sums[k] / double(counts[k]);
        }
    return out;
}

} // namespace

std::vector<std::vector<double>> TransformerAnatomy::headMeans(TransformerEvaluator &evaluator, FeedbackMode mode,
                                                              int passes)
{
    MeanSums m(evaluator.config().layers);
    evaluator.forEachHeldout(mode, passes, nullptr,
                             [&](const TransformerBatch &, TransformerWorkspace<float> &ws) { m.add(ws); });
    return m.means();
}

void TransformerAnatomy::compute(TransformerEvaluator &evaluator, FeedbackMode mode, int passes, TransformerResult &r)
{
    const auto start = std::chrono::steady_clock::now();
    const TransformerConfig &c = evaluator.config();
    const int L = c.layers, H = c.heads, LH = L * H;
    const bool repeat = evaluator.hasRepeat();
    const TransformerNet<float> &net = evaluator.net();
    const float scale = evaluator.tables().scale;

    // 1. The unablated pass: means, previous-token and induction scores, offset profile, logit lens.
    MeanSums means(L);
    std::vector<double> prevSums(std::size_t(LH), 0.0), indSums(std::size_t(LH), 0.0), sinkSums(std::size_t(LH), 0.0);
    std::vector<long long> prevCounts(std::size_t(LH), 0), indCounts(std::size_t(LH), 0), sinkCounts(std::size_t(LH), 0);
    std::vector<std::array<double, 3>> lensSums(std::size_t(L), { 0, 0, 0 });
    std::vector<std::array<long long, 3>> lensCounts(std::size_t(L), { 0, 0, 0 });
    std::vector<std::vector<double>> posSums(static_cast<std::size_t>(L));  // [layer][position t]
    std::vector<long long> posCounts;                          // [position t], the same for every layer
    std::unique_ptr<OffsetProfile> profile;
    evaluator.forEachHeldout(mode, passes, nullptr, [&](const TransformerBatch &b, TransformerWorkspace<float> &ws) {
        means.add(ws);
        const Eigen::Index T = ws.T, R = nn::attentionRows(T);
        for (int l = 0; l < L; ++l)
            for (Eigen::Index s = 0; s < ws.B; ++s)
                for (int h = 0; h < H; ++h) {
                    const std::size_t k = std::size_t(l * H + h);
                    const float *att = ws.layer[std::size_t(l)].att.data() + (s * H + h) * R * T;
                    HeadScores::addPreviousToken(att, R, T, prevSums[k], prevCounts[k]);
                    // a share of the softmax's weights: a linear mixer's map is no distribution (its
                    // weights may be negative) and has no sink
                    if (net.shape().mixer(l) == Mixer::Softmax) HeadScores::addSink(att, R, T, sinkSums[k], sinkCounts[k]);
                }
        if (repeat) evaluator.addScores(b, indSums, indCounts);
        if (!profile) profile = std::make_unique<OffsetProfile>(L, H, c.dModel / H, ws.T);
        profile->add(ws, scale);
        if (posCounts.empty()) {
            posCounts.assign(std::size_t(b.positions), 0);
            for (auto &row : posSums) row.assign(std::size_t(b.positions), 0.0);
        }
        for (int l = 0; l < L; ++l) {  // last: the readout overwrites the logits
            net.readLayer(ws, b, l);
            evaluator.accumulate(b, lensSums[std::size_t(l)].data(), lensCounts[std::size_t(l)].data());
            std::vector<double> &row = posSums[std::size_t(l)];
            for (Eigen::Index n = 0; n < b.columns() && b.hasTargets(); ++n) {  // column n = t B + sequence
                const std::size_t t = std::size_t(n / b.batch);
                if (t < row.size() && b.targets[std::size_t(n)] >= 0)  // answer tasks: answers only
                    row[t] += net.columnLoss(ws, n, b.targets[std::size_t(n)]);
            }
        }
        for (Eigen::Index n = 0; n < b.columns() && b.hasTargets(); ++n) {
            const std::size_t t = std::size_t(n / b.batch);
            if (t < posCounts.size() && b.targets[std::size_t(n)] >= 0) ++posCounts[t];
        }
    });
    r.prevTokenScore = averaged(prevSums, prevCounts, L, H);
    r.sinkShareByHead = averaged(sinkSums, sinkCounts, L, H);
    double sinkSum = 0.0;
    long long sinkCount = 0;
    for (int k = 0; k < LH; ++k) sinkSum += sinkSums[std::size_t(k)], sinkCount += sinkCounts[std::size_t(k)];
    r.sinkShare = sinkCount ? sinkSum / double(sinkCount) : kNaN;
    if (repeat) r.heldoutInductionScore = averaged(indSums, indCounts, L, H);
    r.logitLens.assign(std::size_t(L), kNaN);
    if (repeat) r.logitLensSecondHalf.assign(std::size_t(L), kNaN);
    for (int l = 0; l < L; ++l) {
        const auto &s = lensSums[std::size_t(l)];
        const auto &n = lensCounts[std::size_t(l)];
        if (n[0]) r.logitLens[std::size_t(l)] = s[0] / double(n[0]);
        if (repeat && n[1]) r.logitLensSecondHalf[std::size_t(l)] = s[1] / double(n[1]);
    }
    r.logitLensPositions.assign(std::size_t(L), std::vector<double>(posCounts.size(), kNaN));
    for (int l = 0; l < L; ++l)
        for (std::size_t t = 0; t < posCounts.size(); ++t)
            if (posCounts[t]) r.logitLensPositions[std::size_t(l)][t] = posSums[std::size_t(l)][t] / double(posCounts[t]);
    if (profile) {
        r.offsetProfile = profile->profile();
        if (c.pos == PositionalScheme::Rope) {
            r.offsetPairs = profile->pairs();
            const std::size_t P = r.offsetProfile.empty() || r.offsetProfile[0].empty() ? 0 : r.offsetProfile[0][0].size();
            std::vector<double> distances;
            for (std::size_t delta = 1; delta < P; ++delta) distances.push_back(double(delta));
            DecayBoundParams bound;
            bound.d = c.dModel / H;
            bound.base = c.base;
            bound.maxDistance = int(std::max<std::size_t>(P, 2));
            r.offsetDecayBound = decayBoundAt(bound, distances);
            r.offsetDecayBound.insert(r.offsetDecayBound.begin(), kNaN);
            double top = 0.0;
            for (double b : r.offsetDecayBound)
                if (std::isfinite(b)) top = std::max(top, b);
            r.offsetDecayBoundScaled.assign(std::size_t(L), {});
            for (int l = 0; l < L; ++l)
                for (const std::vector<double> &head : r.offsetProfile[std::size_t(l)]) {
                    double largest = 0.0;
                    for (double v : head)
                        if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
                    std::vector<double> scaled = r.offsetDecayBound;
                    for (double &b : scaled) b = top > 0.0 ? b * largest / top : kNaN;
                    r.offsetDecayBoundScaled[std::size_t(l)].push_back(std::move(scaled));
                }
        }
    }

    // 2. Each head ablated alone: the table, and (induction) the later layers' induction scores.
    Ablation one;
    one.kind = c.meanAblation ? AblationKind::Mean : AblationKind::Zero;
    if (c.meanAblation) one.means = means.means();
    r.meanAblation = c.meanAblation;
    r.ablationHeldoutLoss = grid(L, H);
    if (repeat) r.ablationSecondHalfLoss = grid(L, H), r.composition = grid(L, H);
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            one.heads = { { l, h } };
            double sums[3] = { 0, 0, 0 };
            long long counts[3] = { 0, 0, 0 };
            std::fill(indSums.begin(), indSums.end(), 0.0);
            std::fill(indCounts.begin(), indCounts.end(), 0);
            evaluator.forEachHeldout(mode, passes, &one, [&](const TransformerBatch &b, TransformerWorkspace<float> &) {
                evaluator.accumulate(b, sums, counts);
                if (repeat && l + 1 < L) evaluator.addScores(b, indSums, indCounts);
            });
            if (counts[0]) r.ablationHeldoutLoss[std::size_t(l)][std::size_t(h)] = sums[0] / double(counts[0]);
            if (!repeat) continue;
            if (counts[1]) r.ablationSecondHalfLoss[std::size_t(l)][std::size_t(h)] = sums[1] / double(counts[1]);
            if (l + 1 < L) {
                const Grid scores = averaged(indSums, indCounts, L, H);
                double best = kNaN;
                for (int l2 = l + 1; l2 < L; ++l2)
                    for (double s : scores[std::size_t(l2)])
                        if (std::isfinite(s) && !(best >= s)) best = s;
                r.composition[std::size_t(l)][std::size_t(h)] = best;
            }
        }

    // Each layer's FFN switched off alone, and the feedback gate shut (the full-bandwidth model).
    r.ablationFfnHeldoutLoss.assign(std::size_t(L), kNaN);
    r.ablationFfnSecondHalfLoss.assign(repeat ? std::size_t(L) : 0, kNaN);
    for (int l = 0; l < L; ++l) {
        Ablation ffn;
        ffn.ffnOff = { l };
        const TransformerEvaluator::Losses losses = evaluator.heldout(mode, passes, &ffn);
        r.ablationFfnHeldoutLoss[std::size_t(l)] = losses.loss;
        if (repeat) r.ablationFfnSecondHalfLoss[std::size_t(l)] = losses.repeat;
    }
    r.ablationFeedbackHeldoutLoss = r.ablationFeedbackSecondHalfLoss = kNaN;
    if (mode != FeedbackMode::Off) {
        Ablation shut;
        shut.feedbackShut = true;
        const TransformerEvaluator::Losses losses = evaluator.heldout(mode, passes, &shut);
        r.ablationFeedbackHeldoutLoss = losses.loss;
        if (repeat) r.ablationFeedbackSecondHalfLoss = losses.repeat;
    }

    // 3. The phase change, from the curve the run recorded.
    r.phaseChangeStep = -1;
    if (repeat) {
        std::vector<int> steps;
        std::vector<double> losses;
        steps.reserve(r.heldoutCurve.size());  // one allocation each, whatever the run's length
        losses.reserve(r.heldoutCurve.size());
        for (const auto &p : r.heldoutCurve) {
            steps.push_back(p.step);
            losses.push_back(p.secondHalfLoss);
        }
        r.phaseChangeStep = PhaseChange::step(steps, losses);
    }

    // 4. The heads the configuration names, switched off together.
    r.ablated = {};
    if (!c.ablate.empty()) {
        Ablation chosen = one;
        if (parseAblation(c.ablate, L, H, mode != FeedbackMode::Off, chosen).empty()) {
            const TransformerEvaluator::Losses l = evaluator.heldout(mode, passes, &chosen);
            r.ablated.heads = ablationNames(chosen);
            r.ablated.heldoutLoss = l.loss;
            r.ablated.secondHalfLoss = l.repeat;
        }
    }
    r.anatomySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace fb
