// Timings of the analytic labs at the chapter's sizes and at the largest the labs accept.
// Run: build/tests/bench_analytic (add -iterations N or -minimumvalue for steadier numbers).
#include "core/attention/attention.h"
#include "core/rope/decay_bound.h"
#include "core/rope/rope_invariance.h"

#include <QTest>

using namespace fb;

class BenchAnalytic : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decayBound_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("maxDistance");
        QTest::newRow("chapter: d 64, 512 distances") << 64 << 512;
        QTest::newRow("largest: d 1024, 65536 distances") << 1024 << 65536;
    }
    void decayBound()
    {
        QFETCH(int, d);
        QFETCH(int, maxDistance);
        DecayBoundParams p;
        p.d = d;
        p.maxDistance = maxDistance;
        double sink = 0.0;
        QBENCHMARK { sink += fb::decayBound(p).bound.back(); }
        QVERIFY(sink > 0.0);
    }
    void attention_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("positional");
        QTest::newRow("default: n 12, d_model 64, 4 heads") << 12 << 64 << 4 << int(PositionalScheme::Sinusoidal);
        QTest::newRow("n 512, d_model 512, 8 heads, sinusoidal") << 512 << 512 << 8 << int(PositionalScheme::Sinusoidal);
        QTest::newRow("n 512, d_model 512, 8 heads, rope") << 512 << 512 << 8 << int(PositionalScheme::Rope);
        QTest::newRow("largest: n 512, d_model 1024, 16 heads") << 512 << 1024 << 16 << int(PositionalScheme::Rope);
    }
    void attention()
    {
        QFETCH(int, n);
        QFETCH(int, dModel);
        QFETCH(int, heads);
        QFETCH(int, positional);
        AttentionParams p;
        p.n = n;
        p.dModel = dModel;
        p.heads = heads;
        p.positional = PositionalScheme(positional);
        double sink = 0.0;
        QBENCHMARK { sink += multiHeadAttention(p).entropy[0]; }
        QVERIFY(sink > 0.0);
    }
    void ropeInvariance_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("positions");
        QTest::newRow("chapter: d 64, 256 positions") << 64 << 256;
        QTest::newRow("d 64, 65536 positions") << 64 << 65536;
        QTest::newRow("largest: d 4096, 65536 positions") << 4096 << 65536;
    }
    void ropeInvariance()
    {
        QFETCH(int, d);
        QFETCH(int, positions);
        RopeInvarianceParams p;
        p.d = d;
        p.positions = positions;
        double sink = 0.0;
        QBENCHMARK { sink += fb::ropeInvariance(p).maxDeviation; }
        QVERIFY(sink >= 0.0);
    }
};

QTEST_APPLESS_MAIN(BenchAnalytic)
#include "bench_analytic.moc"
