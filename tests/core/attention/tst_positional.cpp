// Positional encodings (218.4.3, 218.4.4): the sinusoidal table and RoPE's rotations.
#include "core/attention/positional.h"
#include "core/numeric/rng.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <numbers>

using namespace fb;

namespace {
Eigen::VectorXd randomVector(int d, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::VectorXd v(d);
    for (int i = 0; i < d; ++i) v[i] = rng.normal();
    return v;
}
} // namespace

class TestPositional : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sinusoidalTableMatchesClosedForm_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("d");
        QTest::addColumn<double>("base");
        QTest::newRow("chapter d=64") << 50 << 64 << 10000.0;
        QTest::newRow("d=512") << 20 << 512 << 10000.0;
        QTest::newRow("base 500000") << 30 << 128 << 500000.0;
        QTest::newRow("odd d=7") << 10 << 7 << 10000.0;
    }
    void sinusoidalTableMatchesClosedForm()
    {
        QFETCH(int, n);
        QFETCH(int, d);
        QFETCH(double, base);
        const Eigen::MatrixXd t = sinusoidalTable(n, d, base);
        QCOMPARE(t.rows(), Eigen::Index(n));
        QCOMPARE(t.cols(), Eigen::Index(d));
        for (int pos = 0; pos < n; ++pos) {
            for (int c = 0; c < d; ++c) {
                const int twoI = c - c % 2;  // 2i for both columns of pair i
                const double angle = pos / std::pow(base, double(twoI) / d);  // pos / b^(2i/d)
                const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
                FB_FUZZY_COMPARE(t(pos, c), expected, 1e-13);
            }
            QVERIFY((sinusoidalRow(pos, d, base).transpose() - t.row(pos)).cwiseAbs().maxCoeff() == 0.0);
        }
    }
    void invFreqLadder()
    {
        const Eigen::VectorXd theta = ropeInvFreq(64, 10000.0);
        QCOMPARE(theta.size(), Eigen::Index(32));
        QCOMPARE(theta[0], 1.0);
        for (int i = 0; i < 32; ++i) FB_FUZZY_COMPARE(theta[i], std::pow(10000.0, -2.0 * i / 64), 1e-16);
        FB_FUZZY_COMPARE(theta[16], 0.01, 1e-17);  // b^(-1/2)
    }
    void anglesAreOuterProduct()
    {
        Eigen::VectorXd pos(3);
        pos << 0, 5, 1000;
        const Eigen::VectorXd theta = ropeInvFreq(8);
        const Eigen::MatrixXd a = ropeAngles(pos, theta);
        QCOMPARE(a.rows(), Eigen::Index(3));
        QCOMPARE(a.cols(), Eigen::Index(4));
        for (int r = 0; r < 3; ++r)
            for (int i = 0; i < 4; ++i) QCOMPARE(a(r, i), pos[r] * theta[i]);
    }
    void applyRopeIsBlockRotation_data()
    {
        QTest::addColumn<double>("pos");
        QTest::newRow("0") << 0.0;
        QTest::newRow("1") << 1.0;
        QTest::newRow("37") << 37.0;
        QTest::newRow("4096") << 4096.0;
        QTest::newRow("-12") << -12.0;
    }
    void applyRopeIsBlockRotation()
    {
        QFETCH(double, pos);
        const int d = 64;
        const Eigen::VectorXd theta = ropeInvFreq(d), x = randomVector(d, 3);
        const Eigen::VectorXd y = applyRope(x, pos, theta);
        for (int i = 0; i < d / 2; ++i) {
            // R(m theta_i) (x_2i, x_2i+1): even' = e cos - o sin, odd' = e sin + o cos.
            const Eigen::Vector2d expected = rotation(pos * theta[i]) * Eigen::Vector2d(x[2 * i], x[2 * i + 1]);
            FB_FUZZY_COMPARE(y[2 * i], expected[0], 1e-12 * (1.0 + std::abs(pos)));
            FB_FUZZY_COMPARE(y[2 * i + 1], expected[1], 1e-12 * (1.0 + std::abs(pos)));
        }
        if (pos == 0.0) QVERIFY(y == x);
    }
    void ropePreservesNorm_data()
    {
        QTest::addColumn<double>("pos");
        QTest::addColumn<int>("d");
        QTest::newRow("pos 1, d 64") << 1.0 << 64;
        QTest::newRow("pos 1000, d 128") << 1000.0 << 128;
        QTest::newRow("pos 65535, d 64") << 65535.0 << 64;
        QTest::newRow("pos 1e6, d 4096") << 1e6 << 4096;
        QTest::newRow("pos 2.5, d 2") << 2.5 << 2;
    }
    void ropePreservesNorm()
    {
        QFETCH(double, pos);
        QFETCH(int, d);
        const Eigen::VectorXd x = randomVector(d, 11);
        const double n0 = x.norm(), n1 = applyRope(x, pos, ropeInvFreq(d)).norm();
        FB_FUZZY_COMPARE(n1 / n0, 1.0, 1e-12);
    }
    void rotationsCompose_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("beta");
        QTest::newRow("small") << 0.3 << 1.1;
        QTest::newRow("negative") << -2.0 << 0.5;
        QTest::newRow("large") << 1234.5 << 987.25;
        QTest::newRow("equal") << 0.7 << 0.7;
    }
    void rotationsCompose()
    {
        // R(alpha)^T R(beta) = R(beta - alpha).
        QFETCH(double, alpha);
        QFETCH(double, beta);
        const Eigen::Matrix2d lhs = rotation(alpha).transpose() * rotation(beta);
        const Eigen::Matrix2d rhs = rotation(beta - alpha);
        QVERIFY2((lhs - rhs).cwiseAbs().maxCoeff() < 1e-12, "R(a)^T R(b) != R(b - a)");
        QVERIFY((rotation(alpha).transpose() * rotation(alpha) - Eigen::Matrix2d::Identity()).norm() < 1e-15);
    }
    void logitDependsOnOffsetOnly()
    {
        // (R_m q)^T (R_n k) = q^T R_{n-m} k.
        const int d = 64;
        const Eigen::VectorXd theta = ropeInvFreq(d), q = randomVector(d, 1), k = randomVector(d, 2);
        for (auto [m, n] : { std::pair { 0.0, 8.0 }, { 100.0, 108.0 }, { 60000.0, 60008.0 }, { 7.0, -3.0 } }) {
            const double lhs = applyRope(q, m, theta).dot(applyRope(k, n, theta));
            const double rhs = q.dot(applyRope(k, n - m, theta));
            FB_FUZZY_COMPARE(lhs, rhs, 1e-12 * std::abs(rhs));
        }
    }
    void exactAngleAtLargePositions()
    {
        // cos/sin of the exact product pos * theta: within a few ulps of a long double reference,
        // where cos(pos * theta) of the rounded product is off by up to ulp(pos * theta) / 2 (1.1e-13
        // here). Positions below 2^11 keep the long double product (11 + 53 bits) exact.
        const double theta = ropeInvFreq(64)[1];
        for (double pos : { 2047.0, 1999.0, 1234.0, 777.0 }) {
            double c = 0.0, s = 0.0;
            ropeCosSin(pos, theta, c, s);
            const long double angle = static_cast<long double>(pos) * static_cast<long double>(theta);
            FB_FUZZY_COMPARE(c, double(std::cos(angle)), 2e-15);
            FB_FUZZY_COMPARE(s, double(std::sin(angle)), 2e-15);
        }
    }
    void rowsMatchSingleRotations()
    {
        const int n = 40, d = 16;
        Eigen::MatrixXd X(n, d);
        for (int r = 0; r < n; ++r) X.row(r) = randomVector(d, 100 + r).transpose();
        const Eigen::VectorXd theta = ropeInvFreq(d);
        const Eigen::MatrixXd Y = applyRopeRows(X, theta);
        // Equal up to the last bit (the vectorised and scalar loops may contract to fma differently).
        for (int r = 0; r < n; ++r)
            QVERIFY((Y.row(r).transpose() - applyRope(X.row(r).transpose(), r, theta)).cwiseAbs().maxCoeff() < 1e-15);
        const RopeTable table = ropeTable(n, theta);
        QCOMPARE(table.cos.rows(), Eigen::Index(n));
        QVERIFY(applyRopeRows(X, table) == Y);
    }
};

QTEST_APPLESS_MAIN(TestPositional)
#include "tst_positional.moc"
