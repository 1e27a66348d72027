// The tasks with exact answers (core/transformer/answer_tasks.h): their batches checked by hand, the
// modular-addition split, accuracy on hand-made logits, training on each task, the checks of their
// keys, and the loss with ignored targets (the non-answers) against finite differences in double.
#include "core/labs/transformer_spec.h"
#include "core/numeric/rng.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_tasks.h"
#include "core/transformer/transformer_trainer.h"

#include <QTest>

#include <cmath>

using namespace fb;

namespace {

TransformerConfig defaults()
{
    return TransformerConfig {};
}

} // namespace

class TestAnswerTasks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The cross entropy with ignored targets alone: its mean runs over the other columns, and its
    // gradient matches central differences in double (zero on the ignored columns); with nothing
    // ignored it is the plain mean.
    void ignoredCrossEntropy()
    {
        const Eigen::Index V = 4, N = 5;
        Rng rng(3);
        Eigen::MatrixXd z(V, N);
        for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = rng.normal();
        const int targets[N] = { 2, nn::kIgnoreTarget, 0, nn::kIgnoreTarget, 3 };
        Eigen::MatrixXd probs(V, N);
        Eigen::VectorXd colmax(N), logsum(N);
        auto loss = [&] {
            return nn::crossentropy_forward<double>(z, targets, probs, colmax, logsum) / double(nn::counted_targets(targets, N));
        };
        double expected = 0.0;
        for (Eigen::Index n : { 0, 2, 4 }) {
            const double lse = std::log(z.col(n).array().exp().sum());
            expected += lse - z(targets[n], n);
        }
        QVERIFY(std::abs(loss() - expected / 3.0) < 1e-12);
        Eigen::MatrixXd dz = Eigen::MatrixXd::Zero(V, N);
        nn::crossentropy_backward<double>(dz, probs, targets, 1.0);
        QCOMPARE(dz.col(1).norm(), 0.0);
        QCOMPARE(dz.col(3).norm(), 0.0);
        const double h = 1e-6;
        for (Eigen::Index i = 0; i < z.size(); ++i) {
            const double keep = z.data()[i];
            z.data()[i] = keep + h;
            const double up = loss();
            z.data()[i] = keep - h;
            const double down = loss();
            z.data()[i] = keep;
            QVERIFY2(std::abs((up - down) / (2 * h) - dz.data()[i]) < 1e-8, qPrintable(QString::number(i)));
        }
        // nothing ignored: the plain mean over N, the same gradient as before
        const int all[N] = { 2, 1, 0, 3, 3 };
        Eigen::MatrixXd dall = Eigen::MatrixXd::Zero(V, N);
        nn::crossentropy_forward<double>(z, all, probs, colmax, logsum);
        nn::crossentropy_backward<double>(dall, probs, all, 1.0);
        Eigen::MatrixXd plain = probs / double(N);
        for (Eigen::Index n = 0; n < N; ++n) plain(all[n], n) -= 1.0 / double(N);
        QVERIFY((dall - plain).norm() < 1e-15);
    }

    // Exact-match accuracy on hand-made logits: argmax against the target, ignored columns skipped.
    void accuracyOnLogits()
    {
        Eigen::MatrixXf logits(3, 4);
        logits << 2, 0, 0, 1,   //
            1, 3, 0, 1,         //
            0, 0, 5, 1;         // column 3: all equal, the first (token 0) is the prediction
        const int targets[4] = { 0, 2, nn::kIgnoreTarget, 0 };
        QCOMPARE(nn::correct_predictions<float>(logits, targets), Eigen::Index(2));  // columns 0 and 3
        QCOMPARE(nn::counted_targets(targets, 4), Eigen::Index(3));
    }

    // One seeded sequence of each answer task checked by hand: tokens, answers, ignored positions and
    // the special tokens at the top of the vocabulary.
    void answerBatches_data()
    {
        QTest::addColumn<QString>("task");
        for (const char *t : { "copy", "reverse", "sort", "parity", "mqar", "modular-addition" }) QTest::newRow(t) << QString(t);
    }
    void answerBatches()
    {
        QFETCH(QString, task);
        TransformerConfig c = defaults();
        QVERIFY(parseTransformerTask(task.toStdString(), c.task));
        c.items = 5;
        c.pairs = 3;
        c.modulus = 7;
        c.seqLen = answerSequenceLength(c);
        c.batch = 3;
        QCOMPARE(checkTransformerConfig(c), std::string());
        TransformerTasks tasks(c, nullptr, c.seqLen);
        TransformerBatch b;
        tasks.resize(b, c.batch, c.seqLen, true);
        Rng rng(5);
        tasks.drawTraining(rng, b);
        const int P = c.seqLen - 1, B = c.batch, V = transformerVocabulary(c);
        QCOMPARE(b.positions, P);
        QCOMPARE(tasks.vocab(), V);
        for (int s = 0; s < B; ++s) {
            std::vector<int> x(std::size_t(P) + 1), y(std::size_t(P), 0);  // the tokens; targets
            for (int t = 0; t < P; ++t) x[std::size_t(t)] = b.tokens[std::size_t(t * B + s)], y[std::size_t(t)] = b.targets[std::size_t(t * B + s)];
            for (int t = 0; t < P; ++t) {
                QVERIFY(x[std::size_t(t)] >= 0 && x[std::size_t(t)] < V);
                if (t + 1 < P) QVERIFY(y[std::size_t(t)] < 0 || y[std::size_t(t)] == x[std::size_t(t) + 1]);  // targets are the next token
            }
            std::vector<int> answers;  // the answers in order, from the targets
            for (int t = 0; t < P; ++t)
                if (y[std::size_t(t)] >= 0) answers.push_back(y[std::size_t(t)]);
                else QCOMPARE(y[std::size_t(t)], nn::kIgnoreTarget);
            if (c.task == TransformerTask::ModularAddition) {
                QCOMPARE(V, 8);
                QCOMPARE(x[2], 7);  // "=" = p
                QVERIFY(y[0] < 0 && y[1] < 0);
                QCOMPARE(y[2], (x[0] + x[1]) % 7);
                continue;
            }
            if (c.task == TransformerTask::Mqar) {
                QCOMPARE(V, c.vocab + 1);
                QCOMPARE(x[6], c.vocab);  // SEP after 3 pairs
                std::vector<int> keys;
                for (int i = 0; i < 3; ++i) {
                    QVERIFY(x[std::size_t(2 * i)] < c.vocab / 2);   // keys: lower half
                    QVERIFY(x[std::size_t(2 * i + 1)] >= c.vocab / 2 && x[std::size_t(2 * i + 1)] < c.vocab);  // values: upper
                    keys.push_back(x[std::size_t(2 * i)]);
                }
                std::vector<int> sortedKeys = keys;
                std::sort(sortedKeys.begin(), sortedKeys.end());
                QVERIFY(std::adjacent_find(sortedKeys.begin(), sortedKeys.end()) == sortedKeys.end());  // distinct
                QCOMPARE(int(answers.size()), 3);
                std::vector<int> queried;
                for (int i = 0; i < 3; ++i) {
                    const int q = 7 + 2 * i, key = x[std::size_t(q)];  // query i at position 7 + 2i
                    queried.push_back(key);
                    const int at = int(std::find(keys.begin(), keys.end(), key) - keys.begin());
                    QVERIFY(at < 3);
                    QCOMPARE(y[std::size_t(q)], x[std::size_t(2 * at + 1)]);  // the value stored with it
                }
                std::sort(queried.begin(), queried.end());
                QVERIFY(queried == sortedKeys);  // every key once
                continue;
            }
            const int k = c.items;
            QCOMPARE(x[std::size_t(k)], c.task == TransformerTask::Parity ? 2 : c.vocab);  // SEP
            QCOMPARE(V, c.task == TransformerTask::Parity ? 3 : c.vocab + 1);
            for (int t = 0; t < k; ++t) QCOMPARE(y[std::size_t(t)], nn::kIgnoreTarget);
            std::vector<int> in(x.begin(), x.begin() + k), want = in;
            if (c.task == TransformerTask::Reverse) std::reverse(want.begin(), want.end());
            if (c.task == TransformerTask::Sort) std::sort(want.begin(), want.end());
            if (c.task == TransformerTask::Parity) {
                for (int bit : in) QVERIFY(bit == 0 || bit == 1);
                for (int i = 1; i < k; ++i) want[std::size_t(i)] ^= want[std::size_t(i - 1)];
            }
            QVERIFY(answers == want);  // the k positions from SEP on predict the answer
        }
    }

    // Modular addition's split: disjoint, together every one of the p^2 pairs, round(f p^2) trained on.
    void modularSplit()
    {
        TransformerConfig c = defaults();
        c.task = TransformerTask::ModularAddition;
        c.modulus = 11;
        c.trainFraction = 0.3;
        c.seqLen = 4;
        const int train = int(std::lround(0.3 * 121));
        TransformerTasks tasks(c, nullptr, 4);
        QCOMPARE(tasks.pairCount(true), train);
        QCOMPARE(tasks.pairCount(false), 121 - train);
        std::vector<int> seen(121, 0);
        for (bool training : { true, false }) {
            const int count = tasks.pairCount(training);
            TransformerBatch b;
            tasks.resize(b, count, 4, true);
            Rng unused(0);
            if (training) tasks.drawTrainingPairs(b, 0);
            else tasks.drawHeldout(unused, b, 0, count);
            for (int s = 0; s < count; ++s) ++seen[std::size_t(b.tokens[std::size_t(s)] * 11 + b.tokens[std::size_t(count + s)])];
            // training draws take training pairs only
            if (training) {
                TransformerBatch d;
                tasks.resize(d, 64, 4, true);
                Rng rng(1);
                tasks.drawTraining(rng, d);
                std::vector<int> inTrain(121, 0);
                for (int s = 0; s < count; ++s) inTrain[std::size_t(b.tokens[std::size_t(s)] * 11 + b.tokens[std::size_t(count + s)])] = 1;
                for (int s = 0; s < 64; ++s) QVERIFY(inTrain[std::size_t(d.tokens[std::size_t(s)] * 11 + d.tokens[std::size_t(64 + s)])]);
            }
        }
        for (int v : seen) QCOMPARE(v, 1);  // disjoint and complete
    }

    // A short training of each answer task: the model's vocabulary holds the special tokens, the
    // accuracy is filled (held-out curve, result, final snapshot) and lies in [0, 1]; modular-addition
    // adds the training pairs' accuracy. The induction task's stays NaN.
    void answerTraining_data()
    {
        QTest::addColumn<QString>("task");
        for (const char *t : { "copy", "mqar", "modular-addition", "induction-fixed" }) QTest::newRow(t) << QString(t);
    }
    void answerTraining()
    {
        QFETCH(QString, task);
        TransformerConfig c = defaults();
        QVERIFY(parseTransformerTask(task.toStdString(), c.task));
        c.items = 4;
        c.pairs = 3;
        c.modulus = 5;
        c.seqLen = transformerHasAnswers(c.task) ? answerSequenceLength(c) : 8;
        c.layers = 1;
        c.dModel = 16;
        c.heads = 2;
        c.batch = 8;
        c.steps = 10;
        c.evalEvery = 5;
        QCOMPARE(checkTransformerConfig(c), std::string());
        const TransformerResult r = trainTransformer(c);
        QCOMPARE(r.vocab, transformerVocabulary(c));
        QCOMPARE(int(r.heldoutCurve.size()), 3);
        if (!transformerHasAnswers(c.task)) {
            QVERIFY(std::isnan(r.accuracy) && std::isnan(r.heldoutCurve.back().accuracy));
            return;
        }
        QVERIFY(std::isfinite(r.heldoutLoss));
        QVERIFY(r.accuracy >= 0.0 && r.accuracy <= 1.0);
        QCOMPARE(r.finalSnapshot.accuracy, r.accuracy);
        for (const auto &p : r.heldoutCurve) QVERIFY(p.accuracy >= 0.0 && p.accuracy <= 1.0);
        const bool pairs = c.task == TransformerTask::ModularAddition;
        QCOMPARE(std::isfinite(r.trainAccuracy), pairs);
        QCOMPARE(std::isfinite(r.heldoutCurve.back().trainAccuracy), pairs);
        QVERIFY(r.lengths.empty());
    }

    // The answer tasks' keys: bad values refused with one sentence naming the key and its range.
    void answerChecks()
    {
        TransformerConfig c = defaults();
        c.task = TransformerTask::Mqar;
        c.pairs = 9;  // vocab 16 holds 8 keys
        c.seqLen = answerSequenceLength(c);
        std::string err = checkTransformerConfig(c);
        QVERIFY2(err.find("vocab must be at least 2 pairs = 18") == 0, err.c_str());
        QVERIFY(err.find('\n') == std::string::npos);
        c.pairs = 8;
        c.seqLen = 32;
        err = checkTransformerConfig(c);
        QVERIFY2(err.find("seq_len must be 33 for task mqar") == 0, err.c_str());
        c.task = TransformerTask::ModularAddition;
        c.seqLen = 4;
        c.modulus = 1;
        QVERIFY(checkTransformerConfig(c).find("p must") == 0);
        c.modulus = 2;
        c.trainFraction = 0.05;  // 0.2 of 4 pairs: none to train on
        QVERIFY(checkTransformerConfig(c).find("train_fraction must leave") == 0);
        c.trainFraction = 0.99;
        QVERIFY(checkTransformerConfig(c).find("train_fraction") == 0);
        // through the command-line keys: seq_len follows from the task
        ParamValues v = transformerSpec().defaults();
        v.texts["task"] = "copy";
        v.numbers["items"] = 128;
        QVERIFY(transformerFrom(v, c).find("items") == 0);
        v.numbers["items"] = 12;
        QCOMPARE(transformerFrom(v, c), std::string());
        QCOMPARE(c.seqLen, 25);
        QCOMPARE(transformerVocabulary(c), 17);
    }
};

QTEST_APPLESS_MAIN(TestAnswerTasks)
#include "tst_answer_tasks.moc"
