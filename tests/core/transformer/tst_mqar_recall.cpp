// Recall by pair count (issue 30's capacity curves): mqar with pairs_min draws every count from
// pairs_min to pairs, pads the rest with separators whose targets are ignored, and after training
// the accuracy is measured at each count on sequences of exactly that many pairs.
//   - the draws: every count appears, each sequence is a valid mqar sequence of its count followed
//     by padding, the answers are exactly its P values (checked token by token);
//   - setMqarPairs fixes the count, 0 returns to the mixed draws; pairs_min = 0 draws as before
//     (the same tokens as a configuration without the key);
//   - a trained model's recall at P equals, exactly, the accuracy of the same weights evaluated as a
//     model of exactly P pairs (causal attention: the padding after the last answer changes no
//     prediction; the per-count streams give both the same sequences);
//   - bad values: one sentence naming pairs_min and its range; the model file keeps pairs_min and
//     the recall points.
#include "core/model/model_file.h"
#include "core/transformer/transformer_evaluator.h"
#include "core/transformer/transformer_json.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_trainer.h"
#include "core/labs/transformer_spec.h"

#include "support/weights_evaluator.h"

#include <QTest>

#include <algorithm>
#include <memory>
#include <set>

using namespace fb;

namespace {

TransformerConfig mqarConfig(int pairs, int pairsMin)
{
    TransformerConfig c;
    c.task = TransformerTask::Mqar;
    c.vocab = 24;
    c.pairs = pairs;
    c.pairsMin = pairsMin;
    c.seqLen = answerSequenceLength(c);
    c.batch = 8;
    c.layers = 2;
    c.heads = 2;
    c.dModel = 16;
    c.steps = 30;
    c.evalEvery = 10;
    c.evalSequences = 24;
    c.probeEvery = 0;
    c.probeSeconds = 0.0;
    c.lr = 3e-3;
    return c;
}

// The pairs of the sequence b of batch: its tokens (inputs, then the last target) checked as an mqar
// sequence followed by padding; returns P.
int checkSequence(const TransformerConfig &c, const TransformerBatch &batch, int b)
{
    const int B = batch.batch, positions = batch.positions, sep = c.vocab;
    std::vector<int> x(std::size_t(positions) + 1, 0), y(static_cast<std::size_t>(positions), 0);
    for (int t = 0; t < positions; ++t) {
        x[std::size_t(t)] = batch.tokens[std::size_t(t * B + b)];
        y[std::size_t(t)] = batch.targets[std::size_t(t * B + b)];
    }
    // the last token is only a target: an answer's value, or padding no input shows (taken as sep)
    x[std::size_t(positions)] = y[std::size_t(positions - 1)] >= 0 ? y[std::size_t(positions - 1)] : sep;
    const int P = int(std::find(x.begin(), x.end(), sep) - x.begin()) / 2;
    if (P < 1 || P > c.pairs) return -1;
    std::vector<int> keys;
    for (int i = 0; i < P; ++i) {
        if (x[std::size_t(2 * i)] >= c.vocab / 2) return -2;  // a key from the lower half
        const int v = x[std::size_t(2 * i + 1)];
        if (v < c.vocab / 2 || v >= c.vocab) return -3;       // a value from the upper half
        keys.push_back(x[std::size_t(2 * i)]);
    }
    if (std::set<int>(keys.begin(), keys.end()).size() != keys.size()) return -4;  // distinct keys
    std::set<int> asked;
    for (int i = 0; i < P; ++i) {
        const int q = 2 * P + 1 + 2 * i, key = x[std::size_t(q)];
        const auto at = std::find(keys.begin(), keys.end(), key);
        if (at == keys.end()) return -5;
        asked.insert(key);
        if (y[std::size_t(q)] != x[std::size_t(2 * (at - keys.begin()) + 1)]) return -6;  // the value stored with it
    }
    if (int(asked.size()) != P) return -7;  // every key once
    int answers = 0;
    for (int t = 0; t < positions; ++t) answers += y[std::size_t(t)] >= 0;
    if (answers != P) return -8;
    for (int t = 4 * P + 1; t <= positions; ++t)
        if (x[std::size_t(t)] != sep) return -9;  // padding
    return P;
}

using Bench = test::WeightsEvaluator;

} // namespace

class TestMqarRecall : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mixedCounts()
    {
        const TransformerConfig c = mqarConfig(5, 2);
        QCOMPARE(checkTransformerConfig(c), std::string());
        TransformerTasks tasks(c, nullptr, c.seqLen);
        TransformerBatch b;
        tasks.resize(b, 100, c.seqLen, true);
        Rng rng(3);
        std::vector<int> seen(6, 0);
        for (int round = 0; round < 2; ++round) {
            tasks.drawTraining(rng, b);
            for (int s = 0; s < b.batch; ++s) {
                const int P = checkSequence(c, b, s);
                QVERIFY2(P >= 2 && P <= 5, qPrintable(QString("sequence %1: %2").arg(s).arg(P)));
                ++seen[std::size_t(P)];
            }
        }
        for (int P = 2; P <= 5; ++P) QVERIFY2(seen[std::size_t(P)] >= 25, qPrintable(QString::number(seen[std::size_t(P)])));
        // fixed counts, then back to the mixed draws
        for (int P : { 1, 3, 5 }) {
            tasks.setMqarPairs(P);
            tasks.drawHeldout(rng, b, 0, b.batch);
            for (int s = 0; s < b.batch; ++s) QCOMPARE(checkSequence(c, b, s), P);
        }
        tasks.setMqarPairs(0);
        tasks.drawTraining(rng, b);
        std::set<int> counts;
        for (int s = 0; s < b.batch; ++s) counts.insert(checkSequence(c, b, s));
        QCOMPARE(int(counts.size()), 4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tasks.setMqarPairs(6));
    }

    // pairs_min = 0 (and = pairs) draws exactly what the task drew before the key existed.
    void fixedCountUnchanged()
    {
        for (int pairsMin : { 0, 4 }) {
            TransformerConfig c = mqarConfig(4, pairsMin), plain = mqarConfig(4, 0);
            TransformerTasks a(c, nullptr, c.seqLen), p(plain, nullptr, plain.seqLen);
            TransformerBatch x, y;
            a.resize(x, 16, c.seqLen, true);
            p.resize(y, 16, c.seqLen, true);
            Rng r1(9), r2(9);
            a.drawTraining(r1, x);
            p.drawTraining(r2, y);
            QVERIFY(x.tokens == y.tokens);
            QVERIFY(x.targets == y.targets);
            for (int s = 0; s < 16; ++s) QCOMPARE(checkSequence(c, x, s), 4);
        }
    }

    void recallCounts()
    {
        TransformerConfig c = mqarConfig(16, 1);
        std::vector<int> want;
        for (int p = 1; p <= 16; ++p) want.push_back(p);
        QVERIFY(recallPairCounts(c) == want);
        c.pairs = 40;
        QVERIFY((recallPairCounts(c) == std::vector<int> { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40 }));
        c.task = TransformerTask::Copy;
        QVERIFY(recallPairCounts(c).empty());
    }

    // The recall at P of a model of 6 pairs is the accuracy of the same weights as a model of exactly
    // P pairs on the same sequences: the padding after the answers changes no prediction.
    void recallIsPaddingFree()
    {
        const TransformerConfig c = mqarConfig(6, 1);
        const TransformerResult r = trainTransformer(c);
        QCOMPARE(int(r.recallByPairs.size()), 6);
        for (int i = 0; i < 6; ++i) {
            const auto &point = r.recallByPairs[std::size_t(i)];
            QCOMPARE(point.pairs, i + 1);
            QVERIFY(point.accuracy >= 0.0 && point.accuracy <= 1.0);
        }
        for (int P : { 1, 3, 6 }) {
            TransformerConfig exact = c;
            exact.pairs = P;
            exact.pairsMin = 0;
            exact.seqLen = answerSequenceLength(exact);
            Bench bench(exact, r.model->params);
            const auto points = bench.eval->recallByPairs(c.feedback, c.passes);
            QCOMPARE(points.back().pairs, P);
            // 24 sequences of P answers: equal up to one argmax near a tie
            const double answers = 24.0 * P;
            QVERIFY2(std::abs(points.back().accuracy - r.recallByPairs[std::size_t(P - 1)].accuracy) <= 1.0 / answers + 1e-12,
                     qPrintable(QString("P %1: %2 against %3").arg(P).arg(points.back().accuracy)
                                    .arg(r.recallByPairs[std::size_t(P - 1)].accuracy)));
        }
        // the other tasks measure none
        TransformerConfig copy = mqarConfig(3, 0);
        copy.task = TransformerTask::Copy;
        copy.items = 3;
        copy.seqLen = answerSequenceLength(copy);
        copy.steps = 2;
        QVERIFY(trainTransformer(copy).recallByPairs.empty());
    }

    void checks()
    {
        TransformerConfig c = mqarConfig(4, 5);
        std::string err = checkTransformerConfig(c);
        QVERIFY2(err == "pairs_min must be at most pairs = 4 (0 = always pairs), got 5", err.c_str());
        ParamValues v = transformerSpec().defaults();
        v.texts["task"] = "mqar";
        v.numbers["pairs_min"] = 64;
        err = transformerFrom(v, c);
        QVERIFY2(err.find("pairs_min") == 0 && err.find("63") != std::string::npos, err.c_str());
        v.numbers["pairs_min"] = 3;
        QCOMPARE(transformerFrom(v, c), std::string());
        QCOMPARE(c.pairsMin, 3);
    }

    // A model file keeps pairs_min and the recall points; the JSON lists them.
    void savedAndPrinted()
    {
        const TransformerConfig c = mqarConfig(3, 1);
        const TransformerResult r = trainTransformer(c);
        const std::string bytes = ModelFile::encode(*r.model, r);
        SavedModel back;
        const std::string err = ModelFile::decode(bytes, back);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(back.model.config.pairsMin, 1);
        QCOMPARE(int(back.run.recallByPairs.size()), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(back.run.recallByPairs[std::size_t(i)].pairs, r.recallByPairs[std::size_t(i)].pairs);
            QCOMPARE(back.run.recallByPairs[std::size_t(i)].accuracy, r.recallByPairs[std::size_t(i)].accuracy);
        }
        JsonWriter json;
        writeTransformerJson(json, c, r);
        const std::string text = json.str();
        QVERIFY2(text.find("\"recall_by_pairs\":[{\"pairs\":1,\"accuracy\":") != std::string::npos, text.substr(0, 400).c_str());
        QVERIFY(text.find("\"pairs_min\":1") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestMqarRecall)
#include "tst_mqar_recall.moc"
