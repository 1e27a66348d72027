// The cost-against-length lab (core/labs/length_cost_lab.h, issue 30): the memory of one sequence
// equals the costs lab's formulas exactly, the counted FLOPs per token grow with T for softmax
// attention only, every measured point is there and positive, the dashed prediction is the count
// scaled at T = 64, the crossover is the length from which a mixer stays no slower (hand-made
// times), a stop returns at once, refused values are one line naming the key, and the JSON holds
// every series. Times are not asserted (no timed tests): only that they were measured.
#include "core/labs/length_cost_lab.h"

#include "core/costs/costs.h"
#include "core/transformer/transformer_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace fb;

namespace {

// |a - b| <= tolerance * max(1, |b|): the explicit tolerance of every figure here
bool near(double a, double b, double tolerance)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

// Small enough for the sanitizers: d 16, two heads, one layer, T 64 and 128, 256 tokens a step.
ParamValues small()
{
    ParamValues v = LengthCostLab::spec().defaults();
    v.numbers["d_model"] = 16;
    v.numbers["heads"] = 2;
    v.numbers["layers"] = 1;
    v.texts["longest"] = "128";
    v.numbers["tokens"] = 256;
    v.numbers["repeats"] = 1;
    return v;
}

} // namespace

class TestLengthCostLab : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void memoryFollowsTheFormulas()
    {
        const LengthCostLabResult r = LengthCostLab().compute(small(), RunControl());
        QVERIFY(r.complete);
        QCOMPARE(r.lengths, (std::vector<int> { 64, 128 }));
        QCOMPARE(r.batches, (std::vector<int> { 4, 2 }));
        const double L = 1, d = 16, heads = 2, dh = 8;
        for (std::size_t i = 0; i < r.lengths.size(); ++i) {
            const double T = r.lengths[i];
            // the costs lab's KV cache, 2 L T d 4 bytes, and the same through its own function
            KvCacheParams kv;
            kv.layers = L;
            kv.kvHeads = heads;
            kv.headDim = dh;
            kv.tokens = T;
            kv.bytesPerValue = 4;
            QVERIFY(near(r.stateBytes[0][i], 2.0 * L * T * d * 4.0, 1e-12));
            QVERIFY(near(r.stateBytes[0][i], kvCache(kv).bytes, 1e-12));
            // fixed states: heads d_head^2 floats a layer, linear attention's normaliser heads d_head more
            QVERIFY(near(r.stateBytes[1][i], L * heads * (dh * dh + dh) * 4.0, 1e-12));
            QVERIFY(near(r.stateBytes[2][i], L * heads * dh * dh * 4.0, 1e-12));
            QVERIFY(near(r.stateBytes[3][i], L * heads * dh * dh * 4.0, 1e-12));
        }
    }

    void flopsGrowWithTForSoftmaxOnly()
    {
        ParamValues v = small();
        const LengthCostLabResult r = LengthCostLab().compute(v, RunControl());
        const LengthCostParams p = LengthCostLab::params(v);
        // softmax: the attention products grow with T (4 n d per token per layer, forward)
        QVERIFY(r.flopsPerToken[0][1] > r.flopsPerToken[0][0] * 1.05);
        for (int m = 1; m < kLengthCostMixers; ++m) {
            const auto &f = r.flopsPerToken[std::size_t(m)];
            QVERIFY(std::fabs(f[1] / f[0] - 1.0) < 1e-12);  // the linear mixers' work per token is flat
        }
        // the count is the transformer's own, per token of the step
        TransformerConfig c;
        c.dModel = p.dModel;
        c.heads = p.heads;
        c.layers = p.layers;
        c.seqLen = 128;
        c.batch = 2;
        c.mixer = "gated-deltanet";
        const double tokens = 2.0 * transformerInputPositions(c, 128);
        QVERIFY(std::fabs(r.flopsPerToken[3][1] - transformerFlopsPerStep(c) / tokens) <= 1e-9 * r.flopsPerToken[3][1]);
    }

    void everyPointIsMeasured()
    {
        const LengthCostLabResult r = LengthCostLab().compute(small(), RunControl());
        for (int m = 0; m < kLengthCostMixers; ++m) {
            const std::size_t k = std::size_t(m);
            QCOMPARE(r.usPerToken[k].size(), r.lengths.size());
            QCOMPARE(r.predictedUs[k].size(), r.lengths.size());
            for (std::size_t i = 0; i < r.lengths.size(); ++i) {
                QVERIFY(std::isfinite(r.usPerToken[k][i]) && r.usPerToken[k][i] > 0.0);
                QVERIFY(r.gflops(m, i) > 0.0);
                // the dashed line: the count, scaled to the time measured at T = 64
                const double expected = r.usPerToken[k][0] * r.flopsPerToken[k][i] / r.flopsPerToken[k][0];
                QVERIFY(std::fabs(r.predictedUs[k][i] - expected) <= 1e-12 * expected);
            }
            QVERIFY(near(r.predictedUs[k][0], r.usPerToken[k][0], 1e-12));
            QCOMPARE(r.crossover[k], m == 0 ? 0 : lengthCrossover(r.lengths, r.usPerToken[0], r.usPerToken[k]));
            const std::size_t last = r.lengths.size() - 1;
            QVERIFY(near(r.timesSoftmax[k], r.usPerToken[0][last] / r.usPerToken[k][last], 1e-12));
        }
        QVERIFY(near(r.timesSoftmax[0], 1.0, 1e-12));
    }

    // The length from which a mixer stays no slower: one past the last slower length, whatever came
    // before (a noisy early point that was faster does not count).
    void crossoverIsWhereItStaysNoSlower_data()
    {
        QTest::addColumn<std::vector<double>>("mixer");
        QTest::addColumn<int>("expected");
        // softmax: 10, 20, 40, 80 at T = 64, 128, 256, 512
        QTest::newRow("faster everywhere") << std::vector<double> { 5, 5, 5, 5 } << 64;
        QTest::newRow("equal counts as no slower") << std::vector<double> { 10, 20, 40, 80 } << 64;
        QTest::newRow("from 256") << std::vector<double> { 30, 30, 30, 30 } << 256;
        QTest::newRow("faster early, slower again at 128") << std::vector<double> { 5, 25, 30, 30 } << 256;
        QTest::newRow("slower at the longest") << std::vector<double> { 5, 5, 5, 90 } << 0;
        QTest::newRow("slower everywhere") << std::vector<double> { 99, 99, 99, 99 } << 0;
    }

    void crossoverIsWhereItStaysNoSlower()
    {
        QFETCH(std::vector<double>, mixer);
        QFETCH(int, expected);
        const std::vector<int> lengths { 64, 128, 256, 512 };
        const std::vector<double> softmax { 10, 20, 40, 80 };
        QCOMPARE(lengthCrossover(lengths, softmax, mixer), expected);
        QCOMPARE(lengthCrossover({}, {}, {}), 0);
    }

    void stopReturnsAtOnce()
    {
        RunControl stop;
        stop.cancel();
        const LengthCostLabResult r = LengthCostLab().compute(small(), stop);
        QVERIFY(!r.complete);
        QVERIFY(r.usPerToken[0].empty());
    }

    void badValuesAreOneLine_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("named");
        QTest::newRow("longest 4096") << "longest" << "4096" << "longest";
        QTest::newRow("heads 3 of d 64") << "heads" << "3" << "heads";
        QTest::newRow("d_model 60") << "d_model" << "60" << "d_model";
        QTest::newRow("tokens 100") << "tokens" << "100" << "tokens";
        QTest::newRow("repeats 0") << "repeats" << "0" << "repeats";
    }

    void badValuesAreOneLine()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, named);
        ParamValues v = LengthCostLab::spec().defaults();
        const ParamSpec *spec = LengthCostLab::spec().find(key.toStdString());
        QVERIFY(spec);
        if (spec->kind == ParamKind::Choice) v.texts[key.toStdString()] = value.toStdString();
        else v.numbers[key.toStdString()] = value.toDouble();
        const std::string err = LengthCostLab::check(v);
        QVERIFY2(!err.empty(), value.toUtf8().constData());
        QVERIFY2(err.find('\n') == std::string::npos, err.c_str());
        QVERIFY2(err.find(named.toStdString()) != std::string::npos, err.c_str());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LengthCostLab().compute(v, RunControl()));
    }

    void defaultsFitTheBudget()
    {
        const ParamValues v = LengthCostLab::spec().defaults();
        QCOMPARE(LengthCostLab::check(v), std::string());
        QVERIFY(LengthCostLab::cost(v).flops < kLengthCostMaxFlops);
        ParamValues longest = v;
        longest.texts["longest"] = "2048";
        QCOMPARE(LengthCostLab::check(longest), std::string());  // T = 2048 at the defaults' widths
        // the widest and longest at once would take minutes: one line with the figure and what to lower
        longest.numbers["tokens"] = 4096;
        longest.numbers["d_model"] = 128;
        longest.numbers["layers"] = 4;
        longest.numbers["repeats"] = 3;
        const std::string err = LengthCostLab::check(longest);
        QVERIFY2(err.find("needs") != std::string::npos && err.find("lower longest") != std::string::npos, err.c_str());
        QVERIFY(err.find('\n') == std::string::npos);
        // one softmax step at T = 2048 of the widest model, three layers deep, would hold a stop for seconds
        ParamValues oneStep = v;
        oneStep.texts["longest"] = "2048";
        oneStep.numbers["d_model"] = 128;
        oneStep.numbers["layers"] = 3;
        oneStep.numbers["repeats"] = 1;
        oneStep.numbers["tokens"] = 256;
        const std::string stepErr = LengthCostLab::check(oneStep);
        QVERIFY2(stepErr.find("one step of length-cost at T = 2048") != std::string::npos, stepErr.c_str());
        // the heads rule names heads, with what d_model allows
        ParamValues heads = v;
        heads.numbers["heads"] = 8;
        heads.texts["longest"] = "2048";
        QCOMPARE(LengthCostLab::check(heads), std::string());  // d_head 8: fine, and no key of another lab named
    }

    void jsonHoldsEverySeries()
    {
        const LengthCostLabResult r = LengthCostLab().compute(small(), RunControl());
        JsonWriter w;
        writeJson(w, r);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(w.str())).object();
        QCOMPARE(o["lengths"].toArray().size(), 2);
        QVERIFY(o["complete"].toBool());
        const QJsonArray mixers = o["mixers"].toArray();
        QCOMPARE(mixers.size(), kLengthCostMixers);
        QCOMPARE(mixers[3].toObject()["mixer"].toString(), QStringLiteral("gated-deltanet"));
        QVERIFY(near(mixers[0].toObject()["state_bytes"].toArray()[1].toDouble(), 2.0 * 128 * 16 * 4, 1e-12));
        QVERIFY(mixers[1].toObject()["us_per_token"].toArray()[0].toDouble() > 0.0);
    }
};

QTEST_MAIN(TestLengthCostLab)
#include "tst_length_cost_lab.moc"
