// Figure 218.1, right: mean_j |S_j(t)|, S_j(t) = sum_{i <= j} exp(i t theta_i).
#include "core/rope/decay_bound.h"
#include "core/numeric/rng.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>

using namespace fb;

Q_DECLARE_METATYPE(fb::ScalingMethod)

class TestDecayBound : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chapterNumbers_data()
    {
        // "Relative bound at distance 1 / 64 / 512: 15.95 / 5.70 / 2.99" (d = 64, b = 10000).
        QTest::addColumn<int>("distance");
        QTest::addColumn<double>("printed");
        QTest::newRow("t = 1") << 1 << 15.95;
        QTest::newRow("t = 64") << 64 << 5.70;
        QTest::newRow("t = 512") << 512 << 2.99;
    }
    void chapterNumbers()
    {
        QFETCH(int, distance);
        QFETCH(double, printed);
        const DecayBoundParams p;  // the chapter's defaults
        const DecayBoundResult r = decayBound(p);
        QCOMPARE(int(r.bound.size()), 512);
        FB_FUZZY_COMPARE(r.bound[distance - 1], printed, 0.005);  // half a unit in the last printed digit
        FB_FUZZY_COMPARE(decayBoundAt(p, { double(distance) })[0], printed, 0.005);
    }
    void distancesAreOneToMax()
    {
        DecayBoundParams p;
        p.maxDistance = 37;
        const DecayBoundResult r = decayBound(p);
        QCOMPARE(int(r.distance.size()), 37);
        for (int i = 0; i < 37; ++i) QCOMPARE(r.distance[i], double(i + 1));
    }
    void fastPathMatchesDirect_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("maxDistance");
        QTest::addColumn<ScalingMethod>("method");
        QTest::addColumn<double>("factor");
        QTest::newRow("chapter") << 64 << 512 << ScalingMethod::None << 1.0;
        QTest::newRow("d 1024, 65536") << 1024 << 65536 << ScalingMethod::None << 1.0;
        QTest::newRow("d 2") << 2 << 1000 << ScalingMethod::None << 1.0;
        QTest::newRow("odd length 13") << 128 << 13 << ScalingMethod::None << 1.0;
        QTest::newRow("pi s=4") << 128 << 20000 << ScalingMethod::PI << 4.0;
        QTest::newRow("ntk s=8") << 64 << 20000 << ScalingMethod::NTK << 8.0;
        QTest::newRow("yarn s=32") << 256 << 65536 << ScalingMethod::YaRN << 32.0;
    }
    void fastPathMatchesDirect()
    {
        QFETCH(int, d);
        QFETCH(int, maxDistance);
        QFETCH(ScalingMethod, method);
        QFETCH(double, factor);
        DecayBoundParams p;
        p.d = d;
        p.maxDistance = maxDistance;
        p.extension.method = method;
        p.extension.factor = factor;
        const DecayBoundResult fast = decayBound(p);
        QCOMPARE(int(fast.bound.size()), maxDistance);
        // Random distances plus both ends and the block / re-seed boundaries of the fast path.
        Rng rng(42);
        std::vector<double> at { 1, 2, 8, 9, 512, 513, double(maxDistance) };
        for (int i = 0; i < 200; ++i) at.push_back(double(1 + rng.below(std::uint64_t(maxDistance))));
        std::erase_if(at, [&](double t) { return t > maxDistance; });
        const std::vector<double> direct = decayBoundAt(p, at);
        for (std::size_t i = 0; i < at.size(); ++i) FB_FUZZY_COMPARE(fast.bound[std::size_t(at[i]) - 1], direct[i], 1e-9);
    }
    void shapeOfTheBound()
    {
        // At t = 0 every term is 1, so |S_j| = j + 1 and the mean is (d/2 + 1) / 2; it then decays.
        const DecayBoundParams p;
        const int h = p.d / 2;
        FB_FUZZY_COMPARE(decayBoundAt(p, { 0.0 })[0], (h + 1) / 2.0, 1e-12);
        const DecayBoundResult r = decayBound(p);
        QVERIFY(r.bound[0] < (h + 1) / 2.0);
        QVERIFY(r.bound[0] > r.bound[63]);
        QVERIFY(r.bound[63] > r.bound[511]);
        for (double b : r.bound) QVERIFY(b > 0.0 && b <= (h + 1) / 2.0);
    }
    void realDistances()
    {
        // Between integers the direct path is continuous: t = 1.5 lies between t = 1 and t = 2's values.
        const DecayBoundParams p;
        const std::vector<double> v = decayBoundAt(p, { 1.0, 1.5, 2.0 });
        QVERIFY(v[1] < v[0] && v[1] > v[2]);
    }
    void positionInterpolationStretchesDistance()
    {
        // PI divides every theta by s, so bound_PI(t) = bound(t / s) exactly in real arithmetic.
        DecayBoundParams plain, pi;
        pi.extension.method = ScalingMethod::PI;
        pi.extension.factor = 8.0;
        for (double t : { 8.0, 64.0, 512.0, 4096.0 })
            FB_FUZZY_COMPARE(decayBoundAt(pi, { t })[0], decayBoundAt(plain, { t / 8.0 })[0], 1e-10);
    }
    void emptyAndDegenerate()
    {
        DecayBoundParams p;
        p.maxDistance = 0;
        QVERIFY(decayBound(p).bound.empty());
        QVERIFY(decayBoundAt(p, {}).empty());
    }
};

QTEST_APPLESS_MAIN(TestDecayBound)
#include "tst_decay_bound.moc"
