// toeplitzDeviation: zero on Toeplitz matrices, the size of a planted defect otherwise, and zero on
// RoPE logits of a repeated token (the attention lab's check).
#include "core/attention/attention.h"
#include "core/attention/toeplitz.h"

#include <QTest>

using namespace fb;

class TestToeplitz : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactToeplitzIsZero()
    {
        const int n = 7;
        Eigen::MatrixXd M(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) M(i, j) = std::sin(0.7 * (j - i)) + 0.1 * (j - i);
        const ToeplitzDeviation t = toeplitzDeviation(M);
        QCOMPARE(t.maxAbs, 0.0);
        QCOMPARE(t.scale, M.cwiseAbs().maxCoeff());
    }

    void plantedDefectIsFound()
    {
        Eigen::MatrixXd M = Eigen::MatrixXd::Constant(5, 5, 2.0);
        M(3, 1) = 2.5;
        const ToeplitzDeviation t = toeplitzDeviation(M);
        QCOMPARE(t.maxAbs, 0.5);
        QCOMPARE(t.scale, 2.5);
        QCOMPARE(t.relative(), 0.2);
    }

    void emptyAndSingle()
    {
        QCOMPARE(toeplitzDeviation(Eigen::MatrixXd()).maxAbs, 0.0);
        QCOMPARE(toeplitzDeviation(Eigen::MatrixXd::Constant(1, 1, 3.0)).maxAbs, 0.0);
    }

    // The vectorised walk against the definition, entry by entry, on matrices with every entry
    // different (so that each diagonal start is read from the right place).
    void matchesDefinition()
    {
        for (int n : { 2, 3, 5, 17, 64 }) {
            Eigen::MatrixXd M(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) M(i, j) = std::sin(1.3 * i + 0.37 * j * j) + 0.01 * i * j;
            double maxAbs = 0.0;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j) {
                    const int s = std::min(i, j);
                    maxAbs = std::max(maxAbs, std::fabs(M(i, j) - M(i - s, j - s)));
                }
            QCOMPARE(toeplitzDeviation(M).maxAbs, maxAbs);
        }
    }

    // multiHeadAttention's own measurement (no logits kept) equals toeplitzDeviation on the logits.
    void measuredWithoutKeepingLogits()
    {
        AttentionParams p;
        p.n = 40;
        p.heads = 4;
        p.positional = PositionalScheme::Rope;
        p.keepLogits = true;
        p.logitsToeplitz = true;
        const AttentionResult r = multiHeadAttention(p);
        QCOMPARE(r.logitsToeplitz.size(), std::size_t(4));
        for (std::size_t h = 0; h < 4; ++h) {
            const ToeplitzDeviation t = toeplitzDeviation(r.logits[h]);
            QCOMPARE(r.logitsToeplitz[h].maxAbs, t.maxAbs);
            QCOMPARE(r.logitsToeplitz[h].scale, t.scale);
        }
        p.keepLogits = false;
        const AttentionResult alone = multiHeadAttention(p);
        QVERIFY(alone.logits.empty());
        QCOMPARE(alone.logitsToeplitz.front().maxAbs, r.logitsToeplitz.front().maxAbs);
    }

    void ropeRepeatedTokenLogits()
    {
        AttentionParams p;
        p.n = 96;
        p.heads = 8;
        p.positional = PositionalScheme::Rope;
        p.content = AttentionContent::RepeatedToken;
        p.keepLogits = true;
        for (const Eigen::MatrixXd &L : multiHeadAttention(p).logits)
            QVERIFY(toeplitzDeviation(L).relative() < 1e-12);
        p.positional = PositionalScheme::Sinusoidal;
        QVERIFY(toeplitzDeviation(multiHeadAttention(p).logits.front()).relative() > 1e-3);
    }
};

QTEST_MAIN(TestToeplitz)
#include "tst_toeplitz.moc"
