// Figure 218.1, left: the RoPE logit of one content pair is the same at every position.
#include "core/attention/positional.h"
#include "core/numeric/rng.h"
#include "core/rope/rope_invariance.h"
#include "core/torch/torch_generator.h"
#include "support/fuzzy.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace fb;

Q_DECLARE_METATYPE(fb::ScalingMethod)

class TestRopeInvariance : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void invariantToRelativePrecision_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("positions");
        QTest::addColumn<int>("seed");
        QTest::addColumn<ScalingMethod>("method");
        QTest::addColumn<double>("factor");
        QTest::newRow("chapter") << 64 << 8 << 256 << 0 << ScalingMethod::None << 1.0;
        for (int seed = 1; seed <= 4; ++seed)
            QTest::addRow("chapter seed %d", seed) << 64 << 8 << 256 << seed << ScalingMethod::None << 1.0;
        QTest::newRow("65536 positions") << 64 << 8 << 65536 << 0 << ScalingMethod::None << 1.0;
        QTest::newRow("negative offset") << 128 << -100 << 4096 << 5 << ScalingMethod::None << 1.0;
        QTest::newRow("offset 0") << 64 << 0 << 1000 << 6 << ScalingMethod::None << 1.0;
        QTest::newRow("far offset") << 64 << 65536 << 65536 << 7 << ScalingMethod::None << 1.0;
        QTest::newRow("d 4096") << 4096 << 8 << 300 << 8 << ScalingMethod::None << 1.0;
        QTest::newRow("d 2") << 2 << 3 << 500 << 9 << ScalingMethod::None << 1.0;
        QTest::newRow("pi s=8") << 64 << 8 << 20000 << 0 << ScalingMethod::PI << 8.0;
        QTest::newRow("ntk s=8") << 64 << 8 << 20000 << 0 << ScalingMethod::NTK << 8.0;
        QTest::newRow("yarn s=16") << 64 << 8 << 20000 << 0 << ScalingMethod::YaRN << 16.0;
    }
    void invariantToRelativePrecision()
    {
        QFETCH(int, d);
        QFETCH(int, offset);
        QFETCH(int, positions);
        QFETCH(int, seed);
        QFETCH(ScalingMethod, method);
        QFETCH(double, factor);
        RopeInvarianceParams p;
        p.d = d;
        p.offset = offset;
        p.positions = positions;
        p.seed = std::uint64_t(seed);
        p.extension.method = method;
        p.extension.factor = factor;
        const RopeInvarianceResult r = ropeInvariance(p);
        QCOMPARE(int(r.ropeLogits.size()), positions);
        QCOMPARE(int(r.sinusoidalLogits.size()), positions);
        QVERIFY2(std::abs(r.referenceLogit) > 1e-3, "degenerate content pair");
        QVERIFY2(r.maxDeviation <= 1e-12 * std::abs(r.referenceLogit),
                 qPrintable(QStringLiteral("max deviation %1 vs reference %2").arg(r.maxDeviation).arg(r.referenceLogit)));
        double dev = 0.0;
        for (double logit : r.ropeLogits) dev = std::max(dev, std::abs(logit - r.referenceLogit));
        QCOMPARE(r.maxDeviation, dev);
    }
    void logitsMatchDirectComputation()
    {
        // Same content pair as the sweep: q then k, torch.randn(d) each from torch.manual_seed(seed).
        RopeInvarianceParams p;
        p.positions = 3000;
        const RopeInvarianceResult r = ropeInvariance(p);
        TorchGenerator torch(p.seed);
        const std::vector<double> qv = torch.randn(p.d), kv = torch.randn(p.d);
        const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(qv.data(), p.d);
        const Eigen::VectorXd k = Eigen::Map<const Eigen::VectorXd>(kv.data(), p.d);
        const Eigen::VectorXd theta = ropeInvFreq(p.d, p.base);
        FB_FUZZY_COMPARE(r.referenceLogit, applyRope(q, 0, theta).dot(applyRope(k, p.offset, theta)), 1e-14);
        for (int m : { 0, 1, 63, 64, 65, 255, 1000, 2999 }) {
            const double rope = applyRope(q, m, theta).dot(applyRope(k, m + p.offset, theta));
            FB_FUZZY_COMPARE(r.ropeLogits[m], rope, 1e-12);
            const double sinus = (q + sinusoidalRow(m, p.d, p.base)).dot(k + sinusoidalRow(m + p.offset, p.d, p.base));
            FB_FUZZY_COMPARE(r.sinusoidalLogits[m], sinus, 1e-12);
        }
    }
    void sinusoidalDrifts()
    {
        // The additive scheme wanders over a range comparable to its own size (chapter: spread 24.8).
        const RopeInvarianceResult r = ropeInvariance(RopeInvarianceParams {});
        const auto [lo, hi] = std::minmax_element(r.sinusoidalLogits.begin(), r.sinusoidalLogits.end());
        QCOMPARE(r.sinusoidalMin, *lo);
        QCOMPARE(r.sinusoidalMax, *hi);
        QVERIFY(r.sinusoidalSpread() > 5.0);
        QVERIFY(r.sinusoidalSpread() > 1e9 * r.maxDeviation);
    }
    // The cell's printed lines (218.4.4): q, k come from torch.manual_seed(0), reproduced bit for bit.
    void reproducesTheChaptersPrintedNumbers()
    {
        const RopeInvarianceResult r = ropeInvariance(RopeInvarianceParams {});
        QVERIFY(std::fabs(r.referenceLogit - 1.634715) <= 5e-7);      // "1.634715"
        QCOMPARE(r.maxDeviationFloat32, 0.0);                         // "0.00e+00"
        QVERIFY(r.maxDeviation <= 1e-13);
        QVERIFY(std::fabs(r.sinusoidalMin - 17.058) <= 5e-4);         // "[17.058, 41.833]"
        QVERIFY(std::fabs(r.sinusoidalMax - 41.833) <= 5e-4);
        QVERIFY(std::fabs(r.sinusoidalSpread() - 24.775) <= 5e-4);   // "(spread 24.775)"
    }

    void sameSeedSameNumbers()
    {
        RopeInvarianceParams p;
        const RopeInvarianceResult a = ropeInvariance(p), b = ropeInvariance(p);
        QCOMPARE(a.ropeLogits, b.ropeLogits);
        QCOMPARE(a.sinusoidalLogits, b.sinusoidalLogits);
        p.seed = 1;
        QVERIFY(ropeInvariance(p).referenceLogit != a.referenceLogit);
    }
};

QTEST_APPLESS_MAIN(TestRopeInvariance)
#include "tst_rope_invariance.moc"
