// FullBand's single-precision product (core/transformer/gemm_kernel.h) against the same product in
// double, written out here: every layout (A in place or transposed, B in place or transposed), sizes
// that fill whole panels and sizes that leave every kind of remainder (rows under a vector, under a
// panel; columns under a panel; inner dimensions over one block), views inside larger matrices,
// overwriting (the output's old contents, NaN, are never read) and accumulating. Tolerance: the
// rounding bound of a sum of k products in float, (k + 2) * 2^-24 * sum |A(i, l) B(l, j)|, plus 1e-30.
// Around each view, the larger matrix keeps its values.
#include "core/transformer/gemm_kernel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace fb;

namespace {

struct Case {
    long m, n, k;
    bool ta, tb, accumulate;
};

// A column-major matrix of cols columns with stride ld (its rows and the padding between columns),
// values in [-1, 1]
std::vector<float> randomMatrix(long cols, long ld, std::mt19937 &gen)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> x(size_t(ld * std::max<long>(cols, 1)) + 1);
    for (float &v : x) v = u(gen);
    return x;
}

// Runs one case and returns the largest error over its tolerance (<= 1 passes), or +inf when a value
// outside the view changed
double worstRatio(const Case &c, std::mt19937 &gen)
{
    // op(a) is (m x k), op(b) is (k x n); the stored matrices have 3 extra rows
    const long aRows = c.ta ? c.k : c.m, aCols = c.ta ? c.m : c.k;
    const long bRows = c.tb ? c.n : c.k, bCols = c.tb ? c.k : c.n;
    const long lda = aRows + 3, ldb = bRows + 3, ldo = c.m + 3;
    const std::vector<float> a = randomMatrix(aCols, lda, gen), b = randomMatrix(bCols, ldb, gen);
    std::vector<float> out = randomMatrix(c.n, ldo, gen);
    const std::vector<float> before = out;
    if (!c.accumulate)
        for (long j = 0; j < c.n; ++j)
            for (long i = 0; i < c.m; ++i) out[i + j * ldo] = std::numeric_limits<float>::quiet_NaN();
    nn::gemm_kernel(c.m, c.n, c.k, a.data(), lda, c.ta, b.data(), ldb, c.tb, out.data(), ldo, c.accumulate);
    const auto A = [&](long i, long l) { return double(c.ta ? a[l + i * lda] : a[i + l * lda]); };
    const auto B = [&](long l, long j) { return double(c.tb ? b[j + l * ldb] : b[l + j * ldb]); };
    double worst = 0.0;
    for (long j = 0; j < c.n; ++j)
        for (long i = 0; i < c.m; ++i) {
            double exact = c.accumulate ? double(before[i + j * ldo]) : 0.0, scale = std::abs(exact);
            for (long l = 0; l < c.k; ++l) {
                exact += A(i, l) * B(l, j);
                scale += std::abs(A(i, l) * B(l, j));
            }
            const double tol = double(c.k + 2) * std::ldexp(1.0, -24) * scale + 1e-30;
            const double err = std::abs(double(out[i + j * ldo]) - exact);
            if (!(err <= tol * 1e6)) return std::numeric_limits<double>::infinity();  // NaN or wild
            worst = std::max(worst, err / tol);
        }
    for (size_t x = 0; x < out.size(); ++x) {
        const long i = long(x) % ldo, j = long(x) / ldo;
        if ((i >= c.m || j >= c.n) && out[x] != before[x]) return std::numeric_limits<double>::infinity();
    }
    return worst;
}

} // namespace

class TestGemmKernel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void panelHeight()
    {
        const int rows = nn::gemm_kernel_rows();
        QVERIFY2(rows == 8 || rows == 16 || rows == 32, qPrintable(QString::number(rows)));
    }

    void matchesDouble_data()
    {
        QTest::addColumn<long>("m");
        QTest::addColumn<long>("n");
        QTest::addColumn<long>("k");
        // rows: under a vector, a vector, between, a panel, panels plus each remainder; the
        // transformer's shapes (d_head 32, T 64, d 128, 4d 512, a vocabulary of 97)
        const long ms[] = { 1, 3, 8, 15, 16, 17, 31, 32, 33, 48, 64, 97, 129 };
        const long ns[] = { 1, 2, 5, 6, 7, 11, 12, 13, 25, 64 };
        const long ks[] = { 0, 1, 7, 32, 128, 129, 300 };
        for (long m : ms)
            for (long n : ns)
                for (long k : ks)
                    if ((m * n * k) % 7 == 0 || m == 33 || n == 13 || k == 129)
                        QTest::addRow("%ldx%ldx%ld", m, n, k) << m << n << k;
        QTest::addRow("qkv 384x96x128") << 384L << 96L << 128L;
        QTest::addRow("ffn 128x40x512") << 128L << 40L << 512L;
        QTest::addRow("weights 384x128x768") << 384L << 128L << 768L;
    }

    void matchesDouble()
    {
        QFETCH(long, m);
        QFETCH(long, n);
        QFETCH(long, k);
        std::mt19937 gen(unsigned(m * 1000003 + n * 1009 + k));
        for (int layout = 0; layout < 3; ++layout)
            for (int acc = 0; acc < 2; ++acc) {
                const Case c { m, n, k, layout == 1, layout == 2, acc == 1 };
                const double worst = worstRatio(c, gen);
                QVERIFY2(worst <= 1.0, qPrintable(QString("layout %1 (0: A B, 1: A' B, 2: A B'), accumulate %2: "
                                                          "error %3 of the rounding bound")
                                                      .arg(layout)
                                                      .arg(acc)
                                                      .arg(worst)));
            }
    }

    // The same numbers whatever the columns and rows a call is given: a product computed whole and
    // computed as four quarter calls (as two threads' tiles would) agree bit for bit.
    void tilesAgreeExactly()
    {
        std::mt19937 gen(7);
        const long m = 96, n = 50, k = 300;
        for (int layout = 0; layout < 3; ++layout) {
            const bool ta = layout == 1, tb = layout == 2;
            const long lda = ta ? k : m, ldb = tb ? n : k;
            const std::vector<float> a = randomMatrix(ta ? m : k, lda, gen);
            const std::vector<float> b = randomMatrix(tb ? k : n, ldb, gen);
            std::vector<float> whole(size_t(m * n)), parts(size_t(m * n));
            nn::gemm_kernel(m, n, k, a.data(), lda, ta, b.data(), ldb, tb, whole.data(), m, false);
            for (long r0 : { 0L, 64L })
                for (long c0 : { 0L, 24L }) {
                    const long rows = r0 == 0 ? 64 : m - 64, cols = c0 == 0 ? 24 : n - 24;
                    const float *ap = ta ? a.data() + r0 * lda : a.data() + r0;
                    const float *bp = tb ? b.data() + c0 : b.data() + c0 * ldb;
                    nn::gemm_kernel(rows, cols, k, ap, lda, ta, bp, ldb, tb, parts.data() + r0 + c0 * m, m, false);
                }
            QCOMPARE(parts, whole);
        }
    }
};

QTEST_APPLESS_MAIN(TestGemmKernel)
#include "tst_gemm_kernel.moc"
