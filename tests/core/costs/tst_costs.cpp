// Cost formulas of the encyclopedia page: KV cache, 12 d^2, 6ND, 4nd vs 24d^2, decode ceiling.
#include "core/costs/costs.h"
#include "support/fuzzy.h"

#include <QTest>

using namespace fb;

class TestCosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kvCache_data()
    {
        // "80 layers, 8 KV heads of dimension 128, 16-bit values needs about 0.33 MB per token. At a
        // 128K-token context, that is roughly 43 GB ... (64 KV heads instead of 8) around 344 GB."
        QTest::addColumn<double>("kvHeads");
        QTest::addColumn<double>("bytesPerToken");
        QTest::addColumn<double>("gigabytes");     // decimal GB at 131,072 tokens, as printed
        QTest::addColumn<double>("tolerance");     // half a unit of the printed rounding
        QTest::newRow("GQA, 8 KV heads") << 8.0 << 327680.0 << 43.0 << 0.5;
        QTest::newRow("MHA, 64 KV heads") << 64.0 << 2621440.0 << 344.0 << 0.5;
    }
    void kvCache()
    {
        QFETCH(double, kvHeads);
        QFETCH(double, bytesPerToken);
        QFETCH(double, gigabytes);
        QFETCH(double, tolerance);
        KvCacheParams p;
        p.kvHeads = kvHeads;
        const KvCacheResult r = fb::kvCache(p);
        QCOMPARE(r.bytesPerToken, bytesPerToken);
        QCOMPARE(r.bytes, bytesPerToken * 131072);
        FB_FUZZY_COMPARE(r.bytes / 1e9, gigabytes, tolerance);
        if (kvHeads == 8) FB_FUZZY_COMPARE(r.bytesPerToken / 1e6, 0.33, 0.005);  // "0.33 MB per token"
    }
    void denseParameters()
    {
        // "GPT-3 check: 96 x 12 x 12,288^2 ~ 174 billion".
        const double n = fb::denseParameters(96, 12288);
        QCOMPARE(n, 96.0 * 12 * 12288.0 * 12288.0);
        FB_FUZZY_COMPARE(n / 1e9, 174.0, 0.5);
    }
    void trainingCompute()
    {
        // C = 6 N D: forward 2ND plus backward 4ND. The chapter's baseline: 6N(1.5D) = 9ND.
        QCOMPARE(trainingFlops(1e9, 20e9), 1.2e20);
        QCOMPARE(trainingFlops(1.0, 1.5), 9.0);
    }
    void attentionVersusDense()
    {
        // 4 n d against 24 d^2, equal at n = 6 d: 24,576 tokens for d = 4,096.
        QCOMPARE(attentionCrossoverContext(4096), 24576.0);
        QCOMPARE(attentionFlopsPerTokenLayer(24576, 4096), denseFlopsPerTokenLayer(4096));
        QCOMPARE(denseFlopsPerTokenLayer(4096), 24.0 * 4096 * 4096);
        QVERIFY(attentionFlopsPerTokenLayer(30000, 4096) > denseFlopsPerTokenLayer(4096));
        QVERIFY(attentionFlopsPerTokenLayer(20000, 4096) < denseFlopsPerTokenLayer(4096));
    }
    void decodeCeiling()
    {
        // "140 GB ... 10 TB/s ... cannot exceed roughly 70 tokens per second" (71.4).
        const double tps = decodeCeilingTokensPerSecond(10e12, 140e9);
        FB_FUZZY_COMPARE(tps, 71.4, 0.05);
        FB_FUZZY_COMPARE(tps, 70.0, 2.0);
        QCOMPARE(decodeCeilingTokensPerSecond(1e12, 0.0), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestCosts)
#include "tst_costs.moc"
