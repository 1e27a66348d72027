// Taking the trained transformer apart (core/interpret/): the ablation hooks of the forward pass, the
// head scores, the logit lens and the offset profile, each against a computation that does not use
// them:
//   - ablating nothing (a null or an empty Ablation) reproduces the held-out loss exactly (==);
//   - zero-ablating every head equals the model with W_O zeroed, every FFN off equals W2 and b2
//     zeroed, the feedback shut equals the fusion's h-columns zeroed (all within 1e-6 nats; exact
//     in practice, as x + 0 is x);
//   - the table's entries equal a direct evaluation with that head ablated (==);
//   - the logit lens' last layer equals the held-out loss (1e-9 nats), and so does the mean over
//     positions of its per-position form's last layer (1e-9 nats);
//   - the offset profile's decay bound is the decay-bound lab's bound at d_head and base, and on each
//     head's scale proportional to it with the head's largest |logit| as its top (1e-12 relative);
//   - the lab's HeadAblator, rebuilt from the trained model, gives the run's own losses (==);
//   - the offset profile of an untrained RoPE model equals a direct double loop over (query, key)
//     from each block's input (LayerNorm, W_Q, W_K, the rotation by m theta_p written out), within
//     1e-4 of the profile's largest magnitude (float activations); the pairs sum to the profile (1e-9).
// Models are tiny (d 16, T 8): each test runs well under a second in Release. The checks on hand-made
// inputs (the ablate keys, head scores, the phase change, the run history) are tst_interpret_hand_made's.
#include "core/interpret/ablation.h"
#include "core/interpret/head_ablator.h"
#include "core/interpret/offset_profile.h"
#include "core/interpret/transformer_anatomy.h"
#include "core/rope/decay_bound.h"
#include "core/transformer/transformer_evaluator.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_trainer.h"

#include "support/weights_evaluator.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

using namespace fb;

namespace {

TransformerConfig tinyConfig(TransformerTask task = TransformerTask::InductionFixed)
{
    TransformerConfig c;
    c.task = task;
    c.seqLen = 8;
    c.batch = 8;
    c.layers = 2;
    c.heads = 2;
    c.dModel = 16;
    c.steps = 40;
    c.evalEvery = 10;
    c.probeEvery = 0;
    c.probeSeconds = 0.0;
    c.lr = 3e-3;
    return c;
}

using Bench = test::WeightsEvaluator;

} // namespace

class TestInterpret : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Training is untouched: a forward with an empty Ablation gives the very logits of one without.
    void emptyAblationChangesNothing()
    {
        const TransformerResult r = trainTransformer(tinyConfig());
        Bench b(tinyConfig(), r.model->params);
        const double plain = b.loss();
        QVERIFY(plain == r.heldoutLoss);  // exactly: the trainer's own evaluation
        Ablation none;
        QVERIFY(b.loss(&none) == plain);
        none.kind = AblationKind::Mean;  // mean-ablation of no head needs no means
        QVERIFY(b.loss(&none) == plain);
        QVERIFY(r.logitLens.size() == 2);
        QVERIFY(std::abs(r.logitLens.back() - r.heldoutLoss) <= 1e-9);
        QVERIFY(std::abs(r.logitLensSecondHalf.back() - r.secondHalfLoss) <= 1e-9);
    }

    // The per-position logit lens: one value per layer and input position, finite, and the last
    // layer's mean over the positions is the held-out loss (every position has as many sequences).
    void logitLensPositions()
    {
        const TransformerConfig c = tinyConfig();
        const TransformerResult r = trainTransformer(c);
        QCOMPARE(int(r.logitLensPositions.size()), c.layers);
        for (int l = 0; l < c.layers; ++l) {
            const std::vector<double> &row = r.logitLensPositions[std::size_t(l)];
            QCOMPARE(int(row.size()), c.seqLen - 1);  // induction: T tokens give T - 1 predictions
            double mean = 0.0;
            for (double v : row) {
                QVERIFY(std::isfinite(v) && v >= 0.0);
                mean += v / double(row.size());
            }
            QVERIFY(std::abs(mean - r.logitLens[std::size_t(l)]) <= 1e-9);
        }
        double last = 0.0;
        for (double v : r.logitLensPositions.back()) last += v;
        QVERIFY(std::abs(last / double(c.seqLen - 1) - r.heldoutLoss) <= 1e-9);

        // the offset profile's envelope: the decay-bound lab's function at d_head and base (==)
        QVERIFY(c.pos == PositionalScheme::Rope);
        QCOMPARE(int(r.offsetDecayBound.size()), c.seqLen - 1);
        QVERIFY(std::isnan(r.offsetDecayBound[0]));
        DecayBoundParams bound;
        bound.d = c.dModel / c.heads;
        bound.base = c.base;
        const DecayBoundResult all = decayBound(bound);
        for (std::size_t delta = 1; delta < r.offsetDecayBound.size(); ++delta)
            QVERIFY(std::abs(r.offsetDecayBound[delta] - all.bound[delta - 1]) <= 1e-12 * all.bound[delta - 1]);
        // on each head's scale: proportional to the bound, its largest value the head's largest |logit|
        const double top = *std::max_element(all.bound.begin(), all.bound.begin() + (c.seqLen - 2));
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                const auto &profile = r.offsetProfile[std::size_t(l)][std::size_t(h)];
                const auto &scaled = r.offsetDecayBoundScaled[std::size_t(l)][std::size_t(h)];
                double largest = 0.0;
                for (double v : profile) largest = std::max(largest, std::abs(v));
                for (std::size_t delta = 1; delta < scaled.size(); ++delta)
                    QVERIFY(std::abs(scaled[delta] - r.offsetDecayBound[delta] * largest / top) <= 1e-12 * largest);
                QVERIFY(std::abs(*std::max_element(scaled.begin() + 1, scaled.end()) - largest) <= 1e-12 * largest);
            }
    }

    // The lab's ablator, rebuilt from the model the run handed back, evaluates the run's held-out
    // set: nothing ablated is the run's held-out loss, each head alone its table entry, bit for bit;
    // two heads together a direct evaluation; mean-ablation the run's table of a mean-ablation run.
    void headAblatorMatchesTheRun()
    {
        TransformerConfig c = tinyConfig();
        c.steps = 20;
        const TransformerResult r = trainTransformer(c);
        HeadAblator ablator(r.model);
        const TransformerEvaluator::Losses none = ablator.evaluate({}, AblationKind::Zero);
        QVERIFY(none.loss == r.heldoutLoss);
        QVERIFY(none.repeat == r.secondHalfLoss);
        const HeadAblator::Table zero = ablator.table(AblationKind::Zero);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                QVERIFY(zero.heldout[std::size_t(l)][std::size_t(h)] == r.ablationHeldoutLoss[std::size_t(l)][std::size_t(h)]);
                QVERIFY(zero.repeat[std::size_t(l)][std::size_t(h)] == r.ablationSecondHalfLoss[std::size_t(l)][std::size_t(h)]);
            }
        const HeadAblator::Table ofRun = HeadAblator::tableOf(r);
        QVERIFY(zero.baseHeldout == r.heldoutLoss && ofRun.baseHeldout == r.heldoutLoss);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                const std::size_t i = std::size_t(l), j = std::size_t(h);
                QVERIFY(ofRun.heldoutIncrease[i][j] == zero.heldoutIncrease[i][j]);
                QVERIFY(zero.heldoutIncrease[i][j] == zero.heldout[i][j] - r.heldoutLoss);
                QVERIFY(zero.repeatIncrease[i][j] == zero.repeat[i][j] - r.secondHalfLoss);
            }
        Bench b(c, r.model->params);
        Ablation two;
        two.heads = { { 1, 0 }, { 0, 1 } };
        QVERIFY(ablator.evaluate(two.heads, AblationKind::Zero).loss == b.loss(&two));

        c.meanAblation = true;
        const TransformerResult m = trainTransformer(c);
        HeadAblator meanAblator(m.model);
        const HeadAblator::Table mean = meanAblator.table(AblationKind::Mean);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h)
                QVERIFY(mean.heldout[std::size_t(l)][std::size_t(h)] == m.ablationHeldoutLoss[std::size_t(l)][std::size_t(h)]);
    }

    // Every head zero-ablated = W_O zeroed; every FFN off = W2 and b2 zeroed; each table entry = a
    // direct evaluation of that head ablated; mean-ablation reads means of bounded size (L x d).
    void ablationIdentities()
    {
        const TransformerConfig c = tinyConfig();
        const TransformerResult r = trainTransformer(c);
        Bench b(c, r.model->params);
        const Ablation all = Ablation::allHeads(c.layers, c.heads);
        Bench noWo(c, r.model->params);
        for (const auto &blk : noWo.net->layout().blocks) noWo.net->P(blk.Wo).setZero();
        const double zeroAttention = noWo.loss();
        QVERIFY(std::abs(b.loss(&all) - zeroAttention) <= 1e-6);
        QVERIFY(std::abs(b.loss(&all) - r.heldoutLoss) > 1e-3);  // it does change something

        Ablation ffn;
        ffn.ffnOff = { 0, 1 };
        Bench noFfn(c, r.model->params);
        for (const auto &blk : noFfn.net->layout().blocks) {
            noFfn.net->P(blk.W2).setZero();
            noFfn.net->P(blk.b2).setZero();
        }
        QVERIFY(std::abs(b.loss(&ffn) - noFfn.loss()) <= 1e-6);
        // the run's table of each FFN alone off: a direct evaluation of that FFN off
        QCOMPARE(int(r.ablationFfnHeldoutLoss.size()), c.layers);
        QCOMPARE(int(r.ablationFfnSecondHalfLoss.size()), c.layers);
        for (int l = 0; l < c.layers; ++l) {
            Ablation alone;
            alone.ffnOff = { l };
            const TransformerEvaluator::Losses direct = b.eval->heldout(c.feedback, c.passes, &alone);
            QVERIFY(r.ablationFfnHeldoutLoss[std::size_t(l)] == direct.loss);
            QVERIFY(r.ablationFfnSecondHalfLoss[std::size_t(l)] == direct.repeat);
        }
        QVERIFY(std::isnan(r.ablationFeedbackHeldoutLoss));  // no feedback, nothing to shut

        QCOMPARE(int(r.ablationHeldoutLoss.size()), c.layers);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                Ablation one;
                one.heads = { { l, h } };
                const TransformerEvaluator::Losses direct = b.eval->heldout(c.feedback, c.passes, &one);
                QVERIFY(r.ablationHeldoutLoss[std::size_t(l)][std::size_t(h)] == direct.loss);
                QVERIFY(r.ablationSecondHalfLoss[std::size_t(l)][std::size_t(h)] == direct.repeat);
            }
        // composition: a number for each head of layer 1, NaN for the last layer
        QVERIFY(std::isfinite(r.composition[0][0]) && std::isfinite(r.composition[0][1]));
        QVERIFY(std::isnan(r.composition[1][0]) && std::isnan(r.composition[1][1]));
        QCOMPARE(int(r.prevTokenScore.size()), c.layers);
        for (const auto &layer : r.prevTokenScore)
            for (double s : layer) QVERIFY(s >= 0.0 && s <= 1.0);

        // mean-ablation: means of L x d values, and a mean-ablated head is not a zero-ablated one
        const std::vector<std::vector<double>> means = TransformerAnatomy::headMeans(*b.eval, c.feedback, c.passes);
        QCOMPARE(int(means.size()), c.layers);
        for (const auto &m : means) QCOMPARE(int(m.size()), c.dModel);
        Ablation mean = all;
        mean.kind = AblationKind::Mean;
        mean.means = means;
        const double meanLoss = b.loss(&mean);
        QVERIFY(std::isfinite(meanLoss) && std::abs(meanLoss - zeroAttention) > 1e-6);
        // means of the wrong size and heads the model lacks are refused, not read past their end
        Ablation broken = mean;
        broken.means.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::logic_error, b.loss(&broken));
        Ablation beyond;
        beyond.heads = { { 2, 0 } };
        QVERIFY_THROWS_EXCEPTION(std::logic_error, b.loss(&beyond));
    }

    // The feedback gate shut: every position reads h_{t-1} = 0, which is the model whose fusion
    // ignores h (the right half of [W_a; W_b] zeroed), in the exact recurrence.
    void feedbackShut()
    {
        TransformerConfig c = tinyConfig();
        c.feedback = FeedbackMode::Exact;
        c.steps = 10;
        const TransformerResult r = trainTransformer(c);
        Bench b(c, r.model->params);
        Ablation shut;
        shut.feedbackShut = true;
        Bench noH(c, r.model->params);
        noH.net->P(noH.net->layout().Wf).rightCols(c.dModel).setZero();
        QVERIFY(std::abs(b.loss(&shut) - noH.loss()) <= 1e-6);
        QVERIFY(std::abs(b.loss(&shut) - b.loss()) > 1e-7);
        // the run's own figure, and the ablator's (the lab's toggle) agree with the direct one
        QVERIFY(std::abs(r.ablationFeedbackHeldoutLoss - b.loss(&shut)) <= 1e-6);
        HeadAblator ablator(r.model);
        QVERIFY(std::abs(ablator.evaluate(shut).loss - b.loss(&shut)) <= 1e-6);
    }

    // The offset profile of an untrained RoPE model against the double loop written out.
    void offsetProfileDirect()
    {
        TransformerConfig c = tinyConfig(TransformerTask::Induction);
        c.base = 100.0;  // frequencies that turn visibly within 8 positions
        const int V = transformerVocabulary(c);
        TransformerNet<float> net(transformerShape(c, V));
        Rng rng(5);
        net.init(rng);
        for (Eigen::Index i = 0; i < net.params.size(); ++i) net.params[i] += float(0.3 * rng.normal());
        Bench b(c, net.params);
        const int H = c.heads, dh = c.dModel / H, pairs = dh / 2;
        std::unique_ptr<OffsetProfile> profile;
        std::vector<double> direct;  // (L, H, pairs, P) sums
        std::vector<long long> counts;
        int P = 0;
        b.eval->forEachHeldout(c.feedback, c.passes, nullptr, [&](const TransformerBatch &, TransformerWorkspace<float> &ws) {
            P = ws.T;
            if (!profile) {
                profile = std::make_unique<OffsetProfile>(c.layers, H, dh, P);
                direct.assign(std::size_t(c.layers * H * pairs * P), 0.0);
                counts.assign(std::size_t(P), 0);
            }
            profile->add(ws, b.tables.scale);
            for (int l = 0; l < c.layers; ++l) {
                const auto &w = b.net->layout().blocks[std::size_t(l)];
                const Eigen::MatrixXd Wqkv = b.net->P(w.Wqkv).cast<double>();
                const Eigen::VectorXd g = b.net->P(w.ln1w).cast<double>(), beta = b.net->P(w.ln1b).cast<double>();
                for (int s = 0; s < ws.B; ++s) {
                    // q and k of every position, from the block's input, rotated by m theta_p
                    Eigen::MatrixXd q(c.dModel, P), k(c.dModel, P);
                    for (int m = 0; m < P; ++m) {
                        const Eigen::VectorXd x = ws.layer[std::size_t(l)].x.col(m * ws.B + s).cast<double>();
                        const double mu = x.mean(), var = (x.array() - mu).square().mean();
                        const Eigen::VectorXd ln = ((x.array() - mu) / std::sqrt(var + 1e-5) * g.array() + beta.array()).matrix();
                        Eigen::VectorXd qm = Wqkv.topRows(c.dModel) * ln, km = Wqkv.middleRows(c.dModel, c.dModel) * ln;
                        for (int h = 0; h < H; ++h)
                            for (int p = 0; p < pairs; ++p) {
                                const double th = m * std::pow(c.base, -2.0 * p / dh), co = std::cos(th), si = std::sin(th);
                                for (Eigen::VectorXd *v : { &qm, &km }) {
                                    const Eigen::Index e = h * dh + 2 * p;
                                    const double a = (*v)[e], o = (*v)[e + 1];
                                    (*v)[e] = a * co - o * si;
                                    (*v)[e + 1] = a * si + o * co;
                                }
                            }
                        q.col(m) = qm;
                        k.col(m) = km;
                    }
                    for (int i = 0; i < P; ++i)
                        for (int j = 0; j <= i; ++j)
                            for (int h = 0; h < H; ++h)
                                for (int p = 0; p < pairs; ++p) {
                                    const Eigen::Index e = h * dh + 2 * p;
                                    direct[std::size_t(((l * H + h) * pairs + p) * P + (i - j))] +=
                                        (q(e, i) * k(e, j) + q(e + 1, i) * k(e + 1, j)) / std::sqrt(double(dh));
                                }
                }
            }
            for (int i = 0; i < P; ++i)
                for (int j = 0; j <= i; ++j) counts[std::size_t(i - j)] += ws.B;
        });
        QCOMPARE(P, c.seqLen - 1);
        const auto prof = profile->profile();
        const auto split = profile->pairs();
        double largest = 0.0;
        for (const auto &layer : prof)
            for (const auto &head : layer)
                for (double v : head) largest = std::max(largest, std::abs(v));
        QVERIFY(largest > 1e-3);
        double worst = 0.0;
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < H; ++h)
                for (int delta = 0; delta < P; ++delta) {
                    double sum = 0.0, pairSum = 0.0;
                    for (int p = 0; p < pairs; ++p) {
                        const double d = direct[std::size_t(((l * H + h) * pairs + p) * P + delta)] / double(counts[std::size_t(delta)]);
                        const double got = split[std::size_t(l)][std::size_t(h)][std::size_t(p)][std::size_t(delta)];
                        worst = std::max(worst, std::abs(got - d));
                        sum += d;
                        pairSum += got;
                    }
                    const double whole = prof[std::size_t(l)][std::size_t(h)][std::size_t(delta)];
                    worst = std::max(worst, std::abs(whole - sum));
                    QVERIFY(std::abs(whole - pairSum) <= 1e-9 * std::max(1.0, largest));
                }
        QVERIFY2(worst <= 1e-4 * largest, qPrintable(QString::number(worst / largest)));
    }
};

QTEST_GUILESS_MAIN(TestInterpret)
#include "tst_interpret.moc"
