// Section 218.2: vanishing gradients through time in the vanilla RNN. The backward pass through time
// is checked against finite differences; the recurrent matrix has the spectral radius asked for; and
// the gradient decays geometrically at the rate the chapter's product predicts.
#include "core/depth/rnn_gradients.h"
#include "core/depth/time_gradients.h"
#include "support/gradient_check.h"

#include <QTest>

#include <cmath>

using namespace fb;

class TestRnnGradients : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gradientCheck()
    {
        RnnParams p;
        p.hidden = 5;
        p.input = 3;
        p.seqLen = 6;
        p.batch = 2;
        p.radius = 1.1;
        p.seed = 3;
        RnnWeights w = makeRnn(p);
        Rng rng(5);
        w.b = test::randomMatrix(rng, p.hidden, 1, 0.3);
        std::vector<Eigen::MatrixXd> x = randomSequence(p.input, p.seqLen, p.batch, 9);
        Eigen::MatrixXd h0 = test::randomMatrix(rng, p.hidden, p.batch, 0.5);
        const Eigen::MatrixXd R = test::randomMatrix(rng, p.hidden, p.batch);
        RnnGrads g;
        rnnPass(w, x, h0, R, &g);
        auto loss = [&] { return rnnPass(w, x, h0, R).loss; };
        test::GradCheck check;
        test::checkTensor(check, "dWh", w.Wh.data(), g.dWh.data(), w.Wh.size(), loss);
        test::checkTensor(check, "dWx", w.Wx.data(), g.dWx.data(), w.Wx.size(), loss);
        test::checkTensor(check, "db", w.b.data(), g.db.data(), w.b.size(), loss);
        test::checkTensor(check, "dh0", h0.data(), g.dh0.data(), h0.size(), loss);
        QVERIFY2(check.maxRelError < 1e-6, check.worst.c_str());
        QCOMPARE(check.checked, 25 + 15 + 5 + 10);
    }

    // The per-step norms are the norms of the gradients the check above verified: dL/dh_0 matches.
    void normsMatchGradients()
    {
        RnnParams p;
        p.hidden = 7;
        p.seqLen = 9;
        const RnnWeights w = makeRnn(p);
        const auto x = randomSequence(p.input, p.seqLen, p.batch, 1);
        RnnGrads g;
        const RnnPass pass = rnnPass(w, x, Eigen::MatrixXd::Zero(p.hidden, p.batch), {}, &g);
        QCOMPARE(pass.gradNorm.size(), std::size_t(p.seqLen + 1));
        QVERIFY(std::fabs(pass.gradNorm.front() - g.dh0.norm()) < 1e-12 * g.dh0.norm());
        QVERIFY(std::fabs(pass.gradNorm.back() - std::sqrt(double(p.hidden * p.batch))) < 1e-12);
    }

    void recurrentMatrixHasTheRadius_data()
    {
        QTest::addColumn<double>("radius");
        QTest::addColumn<int>("hidden");
        QTest::newRow("0.9, 32") << 0.9 << 32;
        QTest::newRow("0.5, 64") << 0.5 << 64;
        QTest::newRow("1.7, 256") << 1.7 << 256;
    }
    void recurrentMatrixHasTheRadius()
    {
        QFETCH(double, radius);
        QFETCH(int, hidden);
        RnnParams p;
        p.hidden = hidden;
        p.radius = radius;
        const RnnWeights w = makeRnn(p);
        // W_h^T W_h = rho^2 I: W_h / rho is orthogonal, so every singular value of W_h is rho and so is
        // every |eigenvalue| (an orthogonal matrix is normal, its eigenvalues lie on the unit circle)
        const Eigen::MatrixXd gram = w.Wh.transpose() * w.Wh / (radius * radius);
        QVERIFY((gram - Eigen::MatrixXd::Identity(hidden, hidden)).cwiseAbs().maxCoeff() < 1e-12);
    }

    void logSlopeFitsGeometricSequences()
    {
        std::vector<double> v;
        for (int k = 0; k <= 50; ++k) v.push_back(3.0 * std::pow(0.8, 50 - k));
        QVERIFY(std::fabs(logSlope(v) - (-std::log(0.8))) < 1e-12);
        v[3] = 0.0;  // an underflowed entry is left out
        v[7] = std::nan("");
        QVERIFY(std::fabs(logSlope(v) - (-std::log(0.8))) < 1e-12);
        QCOMPARE(logSlope({ 1.0 }), 0.0);
    }

    // rho = 0.9, T = 100: the gradient decays geometrically; the fitted rate per step is
    // log rho + mean log rms tanh' within 5%, and lies between log(rho E[tanh']) and log rho.
    void decaysGeometrically_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed : { 0, 1, 2 }) QTest::addRow("seed %d", seed) << seed;
    }
    void decaysGeometrically()
    {
        QFETCH(int, seed);
        TimeGradientParams p;
        p.seqLen = 100;
        p.radius = 0.9;
        p.seed = std::uint64_t(seed);
        const TimeGradients r = timeGradients(p);
        QVERIFY(r.rnnRate < 0.0);
        QVERIFY2(std::fabs(r.rnnRate / r.rnnPredictedRate - 1.0) < 0.05,
                 qPrintable(QStringLiteral("%1 vs %2").arg(r.rnnRate).arg(r.rnnPredictedRate)));
        QVERIFY(r.rnnRate > std::log(0.9 * r.rnnMeanDeriv));
        QVERIFY(r.rnnRate < std::log(0.9));
        // geometric: the norm after k steps back is within a factor 10 of exp(rate k) times the start
        for (std::size_t k = 0; k <= 100; k += 10) {
            const double predicted = r.rnn.back() * std::exp(r.rnnRate * double(100 - k));
            QVERIFY2(r.rnn[k] / predicted < 10.0 && predicted / r.rnn[k] < 10.0, qPrintable(QString::number(k)));
        }
        QVERIFY(r.rnnRatio < 1e-15);
    }

    void largerRadiusDecaysSlower()
    {
        double last = -1e9;
        for (double radius : { 0.3, 0.6, 0.9, 1.2 }) {
            TimeGradientParams p;
            p.radius = radius;
            const double rate = timeGradients(p).rnnRate;
            QVERIFY(rate > last);
            last = rate;
        }
    }
};

QTEST_APPLESS_MAIN(TestRnnGradients)
#include "tst_rnn_gradients.moc"
