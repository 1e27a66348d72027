// Scaled dot-product and multi-head attention (218.4.1, 218.4.2) with the positional schemes.
#include "core/attention/attention.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace fb;

Q_DECLARE_METATYPE(fb::PositionalScheme)
Q_DECLARE_METATYPE(fb::AttentionContent)

namespace {
// Largest |logits(i, j) - logits(i - min(i,j), j - min(i,j))|: zero iff the matrix is Toeplitz.
double toeplitzDeviation(const Eigen::MatrixXd &m)
{
    double dev = 0.0;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const Eigen::Index back = std::min(i, j);
            dev = std::max(dev, std::abs(m(i, j) - m(i - back, j - back)));
        }
    return dev;
}
} // namespace

class TestAttention : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smallExampleByHand()
    {
        // Q = [1 0; 0 1], K = [1 0; 0 2], d_k = 2: logits Q K^T / sqrt(2) = [1 0; 0 2] / sqrt(2).
        Eigen::MatrixXd Q(2, 2), K(2, 2);
        Q << 1, 0, 0, 1;
        K << 1, 0, 0, 2;
        const Eigen::MatrixXd W = attentionWeights(Q, K, false);
        const double a = std::exp(1 / std::sqrt(2.0)), b = std::exp(2 / std::sqrt(2.0));
        FB_FUZZY_COMPARE(W(0, 0), a / (a + 1), 1e-15);
        FB_FUZZY_COMPARE(W(1, 1), b / (b + 1), 1e-15);
        const Eigen::MatrixXd Wc = attentionWeights(Q, K, true);
        QCOMPARE(Wc(0, 0), 1.0);
        QCOMPARE(Wc(0, 1), 0.0);
        const Eigen::MatrixXd Wu = attentionWeights(Q, K, false, false);  // logits [1 0; 0 2]
        FB_FUZZY_COMPARE(Wu(1, 1), std::exp(2.0) / (std::exp(2.0) + 1), 1e-15);
        // Row entropies from the in-place softmax: row 0 of the causal case is certain (0 nats).
        Eigen::MatrixXd L(2, 2);
        L << 1, 0, 0, 2;
        Eigen::VectorXd H;
        softmaxRowsInPlace(L, true, &H);
        QCOMPARE(H[0], 0.0);
        const double w = 1 / (1 + std::exp(2.0));
        FB_FUZZY_COMPARE(H[1], -w * std::log(w) - (1 - w) * std::log(1 - w), 1e-15);
    }
    void entropyOfKnownRows()
    {
        FB_FUZZY_COMPARE(meanRowEntropy(Eigen::MatrixXd::Constant(5, 7, 1.0 / 7)), std::log(7.0), 1e-14);
        QCOMPARE(meanRowEntropy(Eigen::MatrixXd::Identity(4, 4)), 0.0);
    }
    void weightsAreDistributions_data()
    {
        QTest::addColumn<PositionalScheme>("positional");
        QTest::addColumn<AttentionContent>("content");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("scaled");
        for (auto pos : { PositionalScheme::None, PositionalScheme::Sinusoidal, PositionalScheme::Rope })
            for (auto content : { AttentionContent::RandomTokens, AttentionContent::RepeatedToken, AttentionContent::Sentence })
                for (bool causal : { false, true })
                    for (bool scaled : { false, true })
                        QTest::addRow("%s %s%s%s", positionalSchemeName(pos).c_str(), attentionContentName(content).c_str(),
                                      causal ? " causal" : "", scaled ? "" : " unscaled")
                            << pos << content << causal << scaled;
    }
    void weightsAreDistributions()
    {
        QFETCH(PositionalScheme, positional);
        QFETCH(AttentionContent, content);
        QFETCH(bool, causal);
        QFETCH(bool, scaled);
        AttentionParams p;
        p.positional = positional;
        p.content = content;
        p.causal = causal;
        p.scaled = scaled;
        p.sentence = "the cat sat on the mat because the mat was warm";
        p.keepLogits = true;
        const AttentionResult r = multiHeadAttention(p);
        const Eigen::Index n = content == AttentionContent::Sentence ? 11 : p.n;
        QCOMPARE(int(r.weights.size()), p.heads);
        QCOMPARE(int(r.entropy.size()), p.heads);
        QCOMPARE(Eigen::Index(r.tokens.size()), n);
        for (int h = 0; h < p.heads; ++h) {
            const Eigen::MatrixXd &W = r.weights[std::size_t(h)];
            QCOMPARE(W.rows(), n);
            QCOMPARE(W.cols(), n);
            QVERIFY(W.minCoeff() >= 0.0);
            QVERIFY((W.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
            if (causal)
                for (Eigen::Index i = 0; i < n; ++i)
                    for (Eigen::Index j = i + 1; j < n; ++j) QCOMPARE(W(i, j), 0.0);
            QVERIFY(r.entropy[std::size_t(h)] >= 0.0 && r.entropy[std::size_t(h)] <= std::log(double(n)) + 1e-12);
            // The entropy taken from the softmax's own sums equals -sum w ln w of the weights.
            FB_FUZZY_COMPARE(r.entropy[std::size_t(h)], meanRowEntropy(W), 1e-12);
            // And the weights are the plain softmax of the logits, masked.
            QVERIFY((W - softmaxRows(r.logits[std::size_t(h)], causal)).cwiseAbs().maxCoeff() < 1e-15);
        }
    }
    void unscaledLogitsSaturate_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("dModel");
        QTest::newRow("chapter-like, seed 7") << 7 << 64;
        QTest::newRow("seed 1") << 1 << 64;
        QTest::newRow("d_model 256") << 3 << 256;
    }
    void unscaledLogitsSaturate()
    {
        // Without 1/sqrt(d_k) logits grow like sqrt(d_k): softmax saturates and entropy drops.
        QFETCH(int, seed);
        QFETCH(int, dModel);
        AttentionParams p;
        p.seed = std::uint64_t(seed);
        p.dModel = dModel;
        p.keepLogits = true;
        const AttentionResult scaled = multiHeadAttention(p);
        p.scaled = false;
        const AttentionResult unscaled = multiHeadAttention(p);
        const double hs = std::accumulate(scaled.entropy.begin(), scaled.entropy.end(), 0.0);
        const double hu = std::accumulate(unscaled.entropy.begin(), unscaled.entropy.end(), 0.0);
        QVERIFY2(hu < hs, qPrintable(QStringLiteral("unscaled %1 vs scaled %2").arg(hu).arg(hs)));
        for (int h = 0; h < p.heads; ++h)  // the same weights: logits differ by exactly sqrt(d_k)
            FB_FUZZY_COMPARE(unscaled.logits[std::size_t(h)](0, 1),
                             scaled.logits[std::size_t(h)](0, 1) * std::sqrt(double(dModel / p.heads)), 1e-12);
    }
    void repeatedTokenUnderRopeIsToeplitz_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("heads");
        QTest::newRow("default") << 12 << 64 << 4;
        QTest::newRow("n 128") << 128 << 128 << 8;
        QTest::newRow("n 512, one head") << 512 << 64 << 1;
    }
    void repeatedTokenUnderRopeIsToeplitz()
    {
        QFETCH(int, n);
        QFETCH(int, dModel);
        QFETCH(int, heads);
        AttentionParams p;
        p.n = n;
        p.dModel = dModel;
        p.heads = heads;
        p.content = AttentionContent::RepeatedToken;
        p.positional = PositionalScheme::Rope;
        p.keepLogits = true;
        const AttentionResult rope = multiHeadAttention(p);
        for (const Eigen::MatrixXd &logits : rope.logits) QVERIFY(toeplitzDeviation(logits) < 1e-9);
        p.positional = PositionalScheme::Sinusoidal;  // absolute positions survive: not Toeplitz
        const AttentionResult sinus = multiHeadAttention(p);
        for (const Eigen::MatrixXd &logits : sinus.logits) QVERIFY(toeplitzDeviation(logits) > 1e-3);
        p.positional = PositionalScheme::None;  // no position at all: every weight 1/n
        const AttentionResult none = multiHeadAttention(p);
        for (const Eigen::MatrixXd &w : none.weights) QVERIFY((w.array() - 1.0 / n).abs().maxCoeff() < 1e-12);
    }
    void sentenceWordsShareEmbeddings()
    {
        AttentionParams p;
        p.content = AttentionContent::Sentence;
        p.positional = PositionalScheme::None;
        p.keepLogits = true;
        p.sentence = "  the cat sat on the mat\tbecause the\nmat was warm ";
        const AttentionResult r = multiHeadAttention(p);
        const std::vector<std::string> words { "the", "cat", "sat", "on", "the", "mat", "because", "the", "mat", "was", "warm" };
        QCOMPARE(r.tokens, words);
        // Without positions, "the" at 0, 4 and 7 has the same query row; "mat" at 5 and 8 too (up to
        // the rounding of the matrix product, which may block rows differently).
        for (const Eigen::MatrixXd &logits : r.logits) {
            QVERIFY((logits.row(0) - logits.row(4)).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY((logits.row(0) - logits.row(7)).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY((logits.row(5) - logits.row(8)).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY((logits.row(0) - logits.row(1)).cwiseAbs().maxCoeff() > 1e-3);
        }
        p.sentence = "   ";  // no words: one empty token rather than an empty matrix
        QCOMPARE(multiHeadAttention(p).weights[0].rows(), Eigen::Index(1));
        QCOMPARE(splitWords(std::string(600 * 2, 'a').replace(1, 1, " "), 512).size(), std::size_t(2));
        QCOMPARE(splitWords("a b c d", 3).size(), std::size_t(3));
    }
    void logitsHaveUnitVariance()
    {
        // x ~ N(0, I) and W ~ N(0, 1/d_model) make q, k ~ N(0, I_{d_k}), so q.k / sqrt(d_k) has mean 0
        // and variance 1: a check of the random generators' scale.
        AttentionParams p;
        p.n = 512;
        p.dModel = 256;
        p.heads = 4;
        p.positional = PositionalScheme::None;
        p.keepLogits = true;
        const AttentionResult r = multiHeadAttention(p);
        double sum = 0.0, sumSq = 0.0, count = 0.0;
        for (const Eigen::MatrixXd &l : r.logits) {
            sum += l.sum();
            sumSq += l.squaredNorm();
            count += double(l.size());
        }
        const double mean = sum / count;
        FB_FUZZY_COMPARE(mean, 0.0, 0.05);
        FB_FUZZY_COMPARE(sumSq / count - mean * mean, 1.0, 0.1);
    }
    void seedsAreReproducible()
    {
        AttentionParams p;
        const AttentionResult a = multiHeadAttention(p), b = multiHeadAttention(p);
        QCOMPARE(a.weights[2], b.weights[2]);
        QCOMPARE(a.tokens[11], std::string("t11"));
        p.seed = 8;
        QVERIFY(multiHeadAttention(p).weights[2] != a.weights[2]);
    }
    void largestSizes()
    {
        AttentionParams p;
        p.n = 512;
        p.dModel = 1024;
        p.heads = 16;
        p.positional = PositionalScheme::Rope;
        p.causal = true;
        const AttentionResult r = multiHeadAttention(p);
        QCOMPARE(int(r.weights.size()), 16);
        QCOMPARE(r.weights[15].rows(), Eigen::Index(512));
        QVERIFY((r.weights[15].rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
        QCOMPARE(r.weights[15](0, 0), 1.0);  // the first query sees only itself
        QVERIFY(r.logits.empty());            // not asked for
    }
    void names()
    {
        for (auto s : { PositionalScheme::None, PositionalScheme::Sinusoidal, PositionalScheme::Rope }) {
            PositionalScheme back = PositionalScheme::None;
            QVERIFY(parsePositionalScheme(positionalSchemeName(s), back));
            QCOMPARE(back, s);
        }
        for (auto c : { AttentionContent::RandomTokens, AttentionContent::RepeatedToken, AttentionContent::Sentence }) {
            AttentionContent back = AttentionContent::RandomTokens;
            QVERIFY(parseAttentionContent(attentionContentName(c), back));
            QCOMPARE(back, c);
        }
        PositionalScheme s = PositionalScheme::Rope;
        QVERIFY(!parsePositionalScheme("alibi", s));
        QCOMPARE(s, PositionalScheme::Rope);
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "tst_attention.moc"
