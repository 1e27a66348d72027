// The side-by-side comparison of issue 29 (core/compare): override texts parsed and applied with the
// command line's keys and ranges, a bad override refused in one line naming its configuration and key,
// the KV cache per token on hand numbers, and configurations trained together giving exactly the
// numbers each gives trained alone (same seed). Tiny models and 20 steps: well under a second.
#include "core/compare/compare_config.h"
#include "core/compare/compare_run.h"
#include "core/compare/kv_footprint.h"
#include "core/transformer/transformer_trainer.h"

#include <QTest>

#include <atomic>
#include <cmath>

using namespace fb;

namespace {

// A tiny induction model: d 16, 4 heads (d_head 4), 2 layers, T 8, batch 4, 20 steps.
TransformerConfig tiny()
{
    TransformerConfig c;
    c.task = TransformerTask::Induction;
    c.vocab = 8;
    c.seqLen = 8;
    c.batch = 4;
    c.layers = 2;
    c.heads = 4;
    c.dModel = 16;
    c.steps = 20;
    c.evalEvery = 10;
    c.evalSequences = 8;
    c.probeEvery = 0;
    c.probeSeconds = 0.0;
    c.seed = 7;
    return c;
}

bool oneLine(const std::string &s)
{
    return !s.empty() && s.find('\n') == std::string::npos;
}

} // namespace

class TestCompareRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesOverrides()
    {
        std::vector<std::pair<std::string, std::string>> pairs;
        QVERIFY(parseOverrides(" loop=2 ,  layers=1 ", pairs).empty());
        QCOMPARE(pairs.size(), std::size_t(2));
        QCOMPARE(pairs[0].first, std::string("loop"));
        QCOMPARE(pairs[0].second, std::string("2"));
        QCOMPARE(pairs[1].first, std::string("layers"));
        QCOMPARE(pairs[1].second, std::string("1"));
        QVERIFY(parseOverrides("", pairs).empty());
        QVERIFY(pairs.empty());
        QVERIFY(!parseOverrides("kv_heads", pairs).empty());
        QVERIFY(!parseOverrides("kv_heads=1,", pairs).empty());
        // a list as a value: the pieces without a key continue it
        QVERIFY(parseOverrides("mixer=gated-deltanet,gated-deltanet, softmax, lr=0.002", pairs).empty());
        QCOMPARE(pairs.size(), std::size_t(2));
        QCOMPARE(pairs[0].second, std::string("gated-deltanet,gated-deltanet,softmax"));
        QCOMPARE(pairs[1].first, std::string("lr"));
        QVERIFY(!parseOverrides("softmax, mixer=linear", pairs).empty());  // nothing to continue
        // a number takes no list: the typo is named
        const std::string typo = parseOverrides("loop=2, layers 1", pairs);
        QVERIFY2(typo == "expected KEY=VALUE separated by commas, got 'layers 1'", typo.c_str());
        TransformerConfig hybrid;
        QCOMPARE(applyOverrides(tiny(), "mixer=gated-deltanet,softmax", hybrid), std::string());
        QCOMPARE(hybrid.mixer, std::string("gated-deltanet,softmax"));
    }

    // kv_heads=1 removes 2 (d - d_head) d per layer (W_K and W_V of one head instead of H); the gate
    // adds W_theta, d x d per layer.
    void overridesChangeParameterCounts()
    {
        const TransformerConfig base = tiny();
        const long long d = base.dModel, dHead = base.dModel / base.heads, L = base.layers;
        std::vector<CompareEntry> e;
        QVERIFY(buildCompareEntries(base, { "", "kv_heads=1", "attn_gate=on", "loop=2, layers=1" }, e).empty());
        QCOMPARE(e.size(), std::size_t(4));
        QCOMPARE(e[0].label, std::string("base"));
        QCOMPARE(e[1].label, std::string("kv_heads=1"));
        QCOMPARE(e[1].config.kvHeads, 1);
        QVERIFY(e[2].config.attnGate);
        QCOMPARE(e[3].config.loop, 2);
        QCOMPARE(e[3].config.layers, 1);
        for (const CompareEntry &x : e) {  // the shared task, seed and data
            QCOMPARE(x.config.task, base.task);
            QCOMPARE(x.config.seed, base.seed);
            QCOMPARE(x.config.vocab, base.vocab);
            QCOMPARE(x.config.evalSequences, base.evalSequences);
        }
        const long long p0 = transformerParameterCount(e[0].config);
        QCOMPARE(transformerParameterCount(base), p0);
        QCOMPARE(p0 - transformerParameterCount(e[1].config), L * 2 * d * (d - dHead));
        QCOMPARE(transformerParameterCount(e[2].config) - p0, L * d * d);
    }

    void refusesBadOverrides()
    {
        const TransformerConfig base = tiny();
        std::vector<CompareEntry> e;
        std::string err = buildCompareEntries(base, { "kv_heads=1", "kv_heads=3" }, e);
        QVERIFY2(oneLine(err), err.c_str());
        QVERIFY2(err.find("configuration 2") != std::string::npos, err.c_str());
        QVERIFY2(err.find("kv_heads") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, { "window=-1" }, e);
        QVERIFY2(oneLine(err) && err.find("configuration 1") != std::string::npos, err.c_str());
        QVERIFY2(err.find("window") != std::string::npos && err.find("2048") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, { "colour=red" }, e);
        QVERIFY2(oneLine(err) && err.find("colour") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, { "attn_gate=maybe" }, e);
        QVERIFY2(oneLine(err) && err.find("attn_gate") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, { "seed=3" }, e);
        QVERIFY2(oneLine(err) && err.find("seed") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, { "", "", "", "", "", "" }, e);
        QVERIFY2(oneLine(err) && err.find("1 to 5") != std::string::npos && err.find("got 6") != std::string::npos, err.c_str());
        err = buildCompareEntries(base, {}, e);
        QVERIFY(oneLine(err));
    }

    // 2 x L x loop x kv_heads x d_head x 4 bytes (float32) per cached token; with a window the cache
    // holds min(T, window) tokens.
    void kvBytesPerToken()
    {
        TransformerConfig c = tiny();  // L 2, H 4, d_head 4, T 8
        KvFootprint f = kvFootprint(c);
        QCOMPARE(f.bytesPerToken, 2.0 * 2 * 4 * 4 * 4);  // 256
        QCOMPARE(f.cachedTokens, 8);
        QCOMPARE(f.cacheBytes, 256.0 * 8);
        c.kvHeads = 1;
        c.loop = 3;
        c.window = 5;
        f = kvFootprint(c);
        QCOMPARE(f.bytesPerToken, 2.0 * 2 * 3 * 1 * 4 * 4);  // 192
        QCOMPARE(f.cachedTokens, 5);
        QCOMPARE(f.cacheBytes, 192.0 * 5);
        c.window = 100;
        QCOMPARE(kvFootprint(c).cachedTokens, 8);
        // The defaults: L 2, H 4, d_head 16: 2 x 2 x 4 x 16 x 4 = 1,024 bytes a token.
        QCOMPARE(kvFootprint(TransformerConfig()).bytesPerToken, 1024.0);
    }

    // Trained together (two at a time, one thread each) or alone, the same numbers bit for bit.
    void togetherEqualsAlone()
    {
        std::vector<CompareEntry> e;
        QVERIFY(buildCompareEntries(tiny(), { "kv_heads=2", "attn_gate=on" }, e).empty());
        std::atomic<int> steps { 0 };
        const std::vector<CompareRow> rows =
            trainComparison(e, 2, [&](int, const TransformerProgress &) { steps.fetch_add(1); });
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(steps.load(), 40);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const TransformerResult alone = trainTransformer(e[i].config);
            const CompareRow &r = rows[i];
            QCOMPARE(r.label, e[i].label);
            QCOMPARE(r.status, TrainStatus::Finished);
            QCOMPARE(r.stepsDone, 20);
            QCOMPARE(r.params, alone.params);
            QCOMPARE(r.flopsPerStep, alone.flopsPerStep);
            QCOMPARE(r.heldoutLoss, alone.heldoutLoss);  // exactly
            QCOMPARE(r.curve, alone.curve);
            QCOMPARE(r.heldoutCurve.size(), alone.heldoutCurve.size());
            for (std::size_t k = 0; k < r.heldoutCurve.size(); ++k)
                QCOMPARE(r.heldoutCurve[k].loss, alone.heldoutCurve[k].loss);
            QVERIFY(std::isfinite(r.sinkShare) || std::isnan(alone.sinkShare));
            QCOMPARE(std::isnan(r.accuracy), std::isnan(alone.accuracy));
            QVERIFY(r.msPerStep > 0.0);
            QCOMPARE(r.kv.bytesPerToken, kvFootprint(e[i].config).bytesPerToken);
        }
        QVERIFY(rows[0].heldoutLoss != rows[1].heldoutLoss);
    }

    // A cancel before the start stops every configuration at once; the rows say so.
    void cancelled()
    {
        std::vector<CompareEntry> e;
        QVERIFY(buildCompareEntries(tiny(), { "", "window=4" }, e).empty());
        RunControl control;
        control.cancel();
        const std::vector<CompareRow> rows = trainComparison(e, 2, {}, {}, &control);
        QCOMPARE(rows.size(), std::size_t(2));
        for (const CompareRow &r : rows) {
            QCOMPARE(r.status, TrainStatus::Cancelled);
            QCOMPARE(r.stepsDone, 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestCompareRun)
#include "tst_compare_run.moc"
