// Context extension by frequency rescaling: PI, NTK-aware and YaRN (end of 218.4.4).
#include "core/rope/context_extension.h"
#include "core/attention/positional.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <numbers>

using namespace fb;

Q_DECLARE_METATYPE(fb::ScalingMethod)

namespace {
ContextExtension ext(ScalingMethod m, double s, double L = 4096)
{
    ContextExtension e;
    e.method = m;
    e.factor = s;
    e.trainedLength = L;
    return e;
}
} // namespace

class TestContextExtension : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainAtFactorOne_data()
    {
        QTest::addColumn<ScalingMethod>("method");
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        for (auto m : { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN }) {
            QTest::addRow("%s d=64", scalingMethodName(m).c_str()) << m << 64 << 10000.0;
            QTest::addRow("%s d=128 b=5e5", scalingMethodName(m).c_str()) << m << 128 << 500000.0;
            QTest::addRow("%s d=2", scalingMethodName(m).c_str()) << m << 2 << 10000.0;
        }
    }
    void plainAtFactorOne()
    {
        QFETCH(ScalingMethod, method);
        QFETCH(int, d);
        QFETCH(double, base);
        const ScaledFrequencies f = scaledFrequencies(d, base, ext(method, 1.0));
        QVERIFY(f.invFreq == ropeInvFreq(d, base));  // bit for bit
        QCOMPARE(f.base, base);
        QCOMPARE(f.attentionFactor, 1.0);
    }
    void positionInterpolation()
    {
        const Eigen::VectorXd plain = ropeInvFreq(64);
        const ScaledFrequencies f = scaledFrequencies(64, 10000, ext(ScalingMethod::PI, 4.0));
        for (Eigen::Index i = 0; i < plain.size(); ++i) QCOMPARE(f.invFreq[i], plain[i] / 4.0);
        QCOMPARE(f.base, 10000.0);
        QCOMPARE(f.attentionFactor, 1.0);
    }
    void ntkAware_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("s");
        QTest::newRow("d 64, s 8") << 64 << 8.0;
        QTest::newRow("d 128, s 4") << 128 << 4.0;
        QTest::newRow("d 4, s 2") << 4 << 2.0;
    }
    void ntkAware()
    {
        QFETCH(int, d);
        QFETCH(double, s);
        const double b = 10000.0;
        const ScaledFrequencies f = scaledFrequencies(d, b, ext(ScalingMethod::NTK, s));
        const double expectedBase = b * std::pow(s, double(d) / (d - 2));  // b' = b s^(d/(d-2))
        FB_FUZZY_COMPARE(f.base, expectedBase, 1e-12 * expectedBase);
        QCOMPARE(f.invFreq[0], 1.0);  // the fastest pair never moves
        // ... and the slowest pair, theta_{d/2-1} = b'^(-(d-2)/d), is exactly interpolated by s.
        const Eigen::Index last = f.invFreq.size() - 1;
        const double plainLast = ropeInvFreq(d, b)[last];
        FB_FUZZY_COMPARE(f.invFreq[last], plainLast / s, 1e-12 * plainLast / s);
        QCOMPARE(ntkBase(2, b, s), b);  // d = 2: theta_0 = 1 for any base
    }
    void yarnByParts_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("s");
        QTest::addColumn<double>("L");
        QTest::newRow("d 64, s 8, L 4096") << 64 << 8.0 << 4096.0;
        QTest::newRow("d 128, s 32, L 2048") << 128 << 32.0 << 2048.0;
        QTest::newRow("d 1024, s 4, L 32768") << 1024 << 4.0 << 32768.0;
    }
    void yarnByParts()
    {
        QFETCH(int, d);
        QFETCH(double, s);
        QFETCH(double, L);
        const ContextExtension e = ext(ScalingMethod::YaRN, s, L);
        const Eigen::VectorXd theta = ropeInvFreq(d);
        const Eigen::VectorXd lambda = wavelengths(theta);
        const ScaledFrequencies f = scaledFrequencies(d, 10000, e);
        int high = 0, low = 0, ramp = 0;
        for (Eigen::Index i = 0; i < theta.size(); ++i) {
            const double r = L / lambda[i];  // turns over the trained context
            if (r > e.beta) {
                QCOMPARE(f.invFreq[i], theta[i]);  // high frequency: untouched, exactly
                ++high;
            } else if (r < e.alpha) {
                QCOMPARE(f.invFreq[i], theta[i] / s);  // low frequency: interpolated, exactly
                ++low;
            } else {
                const double gamma = (r - e.alpha) / (e.beta - e.alpha);
                FB_FUZZY_COMPARE(f.invFreq[i], (1 - gamma) * theta[i] / s + gamma * theta[i], 1e-15 * theta[i]);
                QVERIFY(f.invFreq[i] >= theta[i] / s && f.invFreq[i] <= theta[i]);
                ++ramp;
            }
        }
        QVERIFY(high > 0 && low > 0 && ramp > 0);  // each case covers all three parts
        FB_FUZZY_COMPARE(f.attentionFactor, 0.1 * std::log(s) + 1.0, 1e-15);
    }
    void yarnPieces()
    {
        QCOMPARE(yarnRamp(0.5, 1, 32), 0.0);
        QCOMPARE(yarnRamp(40, 1, 32), 1.0);
        FB_FUZZY_COMPARE(yarnRamp(16.5, 1, 32), 0.5, 1e-15);
        FB_FUZZY_COMPARE(yarnAttentionFactor(8.0), 1.2079441541679836, 1e-15);
        QCOMPARE(yarnAttentionFactor(1.0), 1.0);
    }
    void wavelengthsAreTwoPiOverTheta()
    {
        const Eigen::VectorXd theta = ropeInvFreq(64);
        const Eigen::VectorXd lambda = wavelengths(theta);
        FB_FUZZY_COMPARE(lambda[0], 2 * std::numbers::pi, 1e-15);
        FB_FUZZY_COMPARE(lambda[31], 2 * std::numbers::pi / theta[31], 1e-9);
    }
    void names()
    {
        for (auto m : { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN }) {
            ScalingMethod back = ScalingMethod::None;
            QVERIFY(parseScalingMethod(scalingMethodName(m), back));
            QCOMPARE(back, m);
        }
        ScalingMethod out = ScalingMethod::PI;
        QVERIFY(!parseScalingMethod("YaRN", out));
        QVERIFY(!parseScalingMethod("", out));
        QCOMPARE(out, ScalingMethod::PI);
    }
};

QTEST_APPLESS_MAIN(TestContextExtension)
#include "tst_context_extension.moc"
