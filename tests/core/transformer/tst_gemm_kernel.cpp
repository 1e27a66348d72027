// FullBand's single-precision product (core/transformer/gemm_kernel.h) against the same product in
// double, written out here: every layout (A in place or transposed, B in place or transposed), sizes
// that fill whole panels and sizes that leave every kind of remainder (rows under a vector, under a
// panel; columns under a panel; inner dimensions over one block), views inside larger matrices,
// overwriting (the output's old contents, NaN, are never read) and accumulating. Tolerance: the
// rounding bound of a sum of k products in float, (k + 2) * 2^-24 * sum |A(i, l) B(l, j)|, plus 1e-30.
// Around each view, the larger matrix keeps its values. With an epilogue (gemm_epilogue.h: a residual
// matrix and a bias added, ReLU), the bound counts their magnitudes too.
// The build's own kernel runs as tst_gemm_kernel; tests/CMakeLists.txt builds the same test with the
// kernel compiled for x86-64-v3 (AVX2) and x86-64-v4 (AVX-512) as well (FULLBAND_KERNEL_LEVEL), each
// skipped where the CPU lacks the level.
#include "core/transformer/gemm_kernel.h"
#if !defined(FULLBAND_KERNEL_LEVEL_V3) && !defined(FULLBAND_KERNEL_LEVEL_V4)
#include "core/transformer/chunked_products.h"
#endif

#include "support/kernel_level.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace fb;

namespace {

// the epilogues the cases run: none, a residual and a bias and ReLU (the FFN's out and fc), ReLU alone
enum Post { kNone, kAddBiasRelu, kRelu };

struct Case {
    long m, n, k;
    bool ta, tb, accumulate;
    Post post = kNone;
};

// A column-major (rows x cols) matrix with column stride ld >= rows, values in [-1, 1]
std::vector<float> randomMatrix(long rows, long cols, long ld, std::mt19937 &gen)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    // exactly as long as the view needs: a read past its last entry is a read past the vector
    std::vector<float> x(cols > 0 && rows > 0 ? size_t(ld * (cols - 1) + rows) : 0);
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
    const std::vector<float> a = randomMatrix(aRows, aCols, lda, gen), b = randomMatrix(bRows, bCols, ldb, gen);
    std::vector<float> out = randomMatrix(c.m, c.n, ldo, gen);
    const std::vector<float> before = out;
    if (!c.accumulate)
        for (long j = 0; j < c.n; ++j)
            for (long i = 0; i < c.m; ++i) out[i + j * ldo] = std::numeric_limits<float>::quiet_NaN();
    // the epilogue's residual (column stride m + 5) and bias, exactly as long as they are read
    const long ldAdd = c.m + 5;
    const std::vector<float> add = randomMatrix(c.m, c.n, ldAdd, gen), bias = randomMatrix(c.m, 1, c.m, gen);
    nn::GemmEpilogue<float> post;
    if (c.post == kAddBiasRelu) {
        post.add = add.data();
        post.ldAdd = ldAdd;
        post.bias = bias.data();
    }
    post.relu = c.post != kNone;
    nn::gemm_kernel(c.m, c.n, c.k, a.data(), lda, c.ta, b.data(), ldb, c.tb, out.data(), ldo, c.accumulate,
                    c.post == kNone ? nullptr : &post);
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
            if (c.post == kAddBiasRelu) {
                exact += double(add[i + j * ldAdd]) + double(bias[i]);
                scale += std::abs(double(add[i + j * ldAdd])) + std::abs(double(bias[i]));
            }
            if (c.post != kNone) exact = std::max(exact, 0.0);  // ReLU moves no value further from exact
            const double tol = double(c.k + 4) * std::ldexp(1.0, -24) * scale + 1e-30;
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
    void initTestCase()
    {
        if (const char *why = kernelLevelMissing()) QSKIP(why);
    }

    // two vectors of rows: 32 with AVX-512, 16 with AVX, 8 with SSE
    void panelHeight()
    {
        const int rows = nn::gemm_kernel_rows();
#if defined(FULLBAND_KERNEL_LEVEL_V4)
        QCOMPARE(rows, 32);
#elif defined(FULLBAND_KERNEL_LEVEL_V3)
        QCOMPARE(rows, 16);
#else
        QVERIFY2(rows == 8 || rows == 16 || rows == 32, qPrintable(QString::number(rows)));
#endif
    }

    void matchesDouble_data()
    {
        QTest::addColumn<long>("m");
        QTest::addColumn<long>("n");
        QTest::addColumn<long>("k");
        // rows: under a vector, a vector, between, a panel, panels plus each remainder (57: a panel,
        // a vector and a padded copy with AVX-512); columns: every width of a last column block for 6
        // and 12 columns a block; the transformer's shapes (d_head 32, T 64, d 128, 4d 512, a
        // vocabulary of 97)
        const long ms[] = { 1, 3, 8, 15, 16, 17, 31, 32, 33, 48, 57, 63, 64, 97, 129 };
        const long ns[] = { 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 25, 64 };
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
            for (int acc = 0; acc < 2; ++acc)
                for (const Post post : { kNone, kAddBiasRelu, kRelu }) {
                    const Case c { m, n, k, layout == 1, layout == 2, acc == 1, post };
                    const double worst = worstRatio(c, gen);
                    QVERIFY2(worst <= 1.0, qPrintable(QString("layout %1 (0: A B, 1: A' B, 2: A B'), accumulate %2, "
                                                              "epilogue %3: error %4 of the rounding bound")
                                                          .arg(layout)
                                                          .arg(acc)
                                                          .arg(int(post))
                                                          .arg(worst)));
                }
    }

    // The same numbers whatever the columns and rows a call is given: a product computed whole and
    // computed as nine calls cut at rows and columns that are not whole panels (as threads' tiles
    // might be), bit for bit, overwriting and accumulating onto the same old values (accumulating with
    // an epilogue, each call's addressing its own block).
    void tilesAgreeExactly()
    {
        std::mt19937 gen(7);
        const long m = 96, n = 50, k = 300;
        const long rowCuts[] = { 0, 40, 57, m }, colCuts[] = { 0, 5, 13, n };
        for (int layout = 0; layout < 3; ++layout)
            for (int acc = 0; acc < 2; ++acc) {
                const bool ta = layout == 1, tb = layout == 2, accumulate = acc == 1;
                const long lda = ta ? k : m, ldb = tb ? n : k;
                const std::vector<float> a = randomMatrix(lda, ta ? m : k, lda, gen);
                const std::vector<float> b = randomMatrix(ldb, tb ? k : n, ldb, gen);
                const std::vector<float> old = randomMatrix(m, n, m, gen);
                // with the FFN's epilogue on the accumulating products: a residual, a bias and ReLU
                const std::vector<float> add = randomMatrix(m, n, m, gen), bias = randomMatrix(m, 1, m, gen);
                nn::GemmEpilogue<float> post;
                post.add = add.data();
                post.ldAdd = m;
                post.bias = bias.data();
                post.relu = true;
                const nn::GemmEpilogue<float> *p = accumulate ? &post : nullptr;
                std::vector<float> whole = old, parts = old;
                nn::gemm_kernel(m, n, k, a.data(), lda, ta, b.data(), ldb, tb, whole.data(), m, accumulate, p);
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) {
                        const long r0 = rowCuts[r], c0 = colCuts[c];
                        const long rows = rowCuts[r + 1] - r0, cols = colCuts[c + 1] - c0;
                        const float *ap = ta ? a.data() + r0 * lda : a.data() + r0;
                        const float *bp = tb ? b.data() + c0 : b.data() + c0 * ldb;
                        const nn::GemmEpilogue<float> at = post.at(r0, c0);
                        nn::gemm_kernel(rows, cols, k, ap, lda, ta, bp, ldb, tb, parts.data() + r0 + c0 * m, m,
                                        accumulate, p ? &at : nullptr);
                    }
                QVERIFY2(parts == whole, qPrintable(QString("layout %1, accumulate %2").arg(layout).arg(acc)));
            }
    }

    // The products as the transformer calls them: on the calling thread (one kernel call), shared among
    // two threads' tiles, and tile by tile (gemm_tile, as the weight gradients run), bit for bit.
    void productsAgreeExactly()
    {
#if defined(FULLBAND_KERNEL_LEVEL_V3) || defined(FULLBAND_KERNEL_LEVEL_V4)
        QSKIP("the transformer's products run the build's own kernel: tst_gemm_kernel checks them");
#else
        std::mt19937 gen(11);
        const ParallelRunner two(2);
        struct Shape {
            long m, n, k;
            bool ta, tb;
        };
        for (const Shape &p : { Shape { 384, 768, 128, false, false }, Shape { 128, 768, 384, true, false },
                                Shape { 384, 128, 768, false, true }, Shape { 97, 40, 33, false, true } }) {
            const long aRows = p.ta ? p.k : p.m, aCols = p.ta ? p.m : p.k;
            const long bRows = p.tb ? p.n : p.k, bCols = p.tb ? p.k : p.n;
            Eigen::MatrixXf a = Eigen::MatrixXf::Random(aRows, aCols), b = Eigen::MatrixXf::Random(bRows, bCols);
            const Eigen::MatrixXf old = Eigen::MatrixXf::Random(p.m, p.n);
            for (const bool accumulate : { false, true }) {
                Eigen::MatrixXf calling = old, shared = old, tiles = old;
                nn::gemm<float>(nullptr, calling, a, p.ta, b, p.tb, accumulate);
                nn::gemm<float>(&two, shared, a, p.ta, b, p.tb, accumulate);
                for (Eigen::Index t = 0; t < nn::gemm_tiles<float>(p.m, p.n, p.k); ++t)
                    nn::gemm_tile<float>(t, tiles, a, p.ta, b, p.tb, accumulate);
                QVERIFY(calling == shared);
                QVERIFY(calling == tiles);
                const Eigen::MatrixXd start = accumulate ? Eigen::MatrixXd(old.cast<double>())
                                                         : Eigen::MatrixXd(Eigen::MatrixXd::Zero(p.m, p.n));
                const Eigen::MatrixXd ad = a.cast<double>(), bd = b.cast<double>();
                const Eigen::MatrixXd opA = p.ta ? Eigen::MatrixXd(ad.transpose()) : ad;
                const Eigen::MatrixXd opB = p.tb ? Eigen::MatrixXd(bd.transpose()) : bd;
                const Eigen::MatrixXd exact = start + opA * opB;
                QVERIFY2((calling.cast<double>() - exact).cwiseAbs().maxCoeff() <= 1e-5 * double(p.k),
                         "the product itself");
                // with an epilogue (a residual, a bias, ReLU), on the calling thread and in two threads'
                // tiles, each tile's epilogue addressing its own block
                const Eigen::MatrixXf add = Eigen::MatrixXf::Random(p.m, p.n);
                const Eigen::VectorXf bias = Eigen::VectorXf::Random(p.m);
                nn::GemmEpilogue<float> post;
                post.add = add.data();
                post.ldAdd = p.m;
                post.bias = bias.data();
                post.relu = true;
                Eigen::MatrixXf postCalling = old, postShared = old;
                nn::gemm<float>(nullptr, postCalling, a, p.ta, b, p.tb, accumulate, &post);
                nn::gemm<float>(&two, postShared, a, p.ta, b, p.tb, accumulate, &post);
                QVERIFY(postCalling == postShared);
                const Eigen::MatrixXd withPost =
                    ((exact + add.cast<double>()).colwise() + bias.cast<double>()).cwiseMax(0.0);
                QVERIFY2((postCalling.cast<double>() - withPost).cwiseAbs().maxCoeff() <= 1e-5 * double(p.k + 2),
                         "the product and its epilogue");
            }
        }
#endif
    }
};

QTEST_APPLESS_MAIN(TestGemmKernel)
#include "tst_gemm_kernel.moc"
