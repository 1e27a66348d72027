// The hand-written backward passes of Conv2d, BatchNorm2d (training mode) and the residual block of
// section 218.1, against central finite differences in double at tiny sizes. The loss is a random
// weighting sum(r * out): with the cell's plain y.sum() a BatchNorm's input gradient would be zero
// (its outputs sum to M beta whatever the input) and the check would prove nothing.
#include "core/cnn/batch_norm2d.h"
#include "core/cnn/conv2d.h"
#include "core/cnn/residual_block.h"
#include "support/gradient_check.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace fb;

namespace {

std::vector<double> randomVector(Rng &rng, std::size_t n, double sd = 1.0)
{
    std::vector<double> v(n);
    for (double &x : v) x = sd * rng.normal();
    return v;
}

double weighted(const std::vector<double> &r, const std::vector<double> &out)
{
    return std::inner_product(r.begin(), r.end(), out.begin(), 0.0);
}

constexpr double kTolerance = 1e-6;  // central differences at h = 1e-5 on O(1) values: ~1e-9 seen

} // namespace

class TestCnnGradients : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void conv2d_data()
    {
        QTest::addColumn<int>("K");
        QTest::addColumn<int>("P");
        QTest::newRow("3x3 pad 1 (the chapter's)") << 3 << 1;
        QTest::newRow("3x3 pad 0") << 3 << 0;
        QTest::newRow("1x1") << 1 << 0;
        QTest::newRow("5x5 pad 2") << 5 << 2;
    }
    void conv2d()
    {
        QFETCH(int, K);
        QFETCH(int, P);
        const Conv2dShape s{ 2, 3, 2, 4, 5, K, P };
        Rng rng(3);
        std::vector<double> inp = randomVector(rng, std::size_t(s.N) * s.C * s.H * s.W);
        std::vector<double> weight = randomVector(rng, std::size_t(s.OC) * s.C * K * K);
        const std::size_t outSize = std::size_t(s.N) * s.OC * s.outH() * s.outW();
        const std::vector<double> r = randomVector(rng, outSize);
        std::vector<double> out(outSize);
        auto loss = [&] {
            conv2dForward(out.data(), inp.data(), weight.data(), s);
            return weighted(r, out);
        };
        // L = sum(r * out): dL/dout = r
        std::vector<double> dinp(inp.size(), 0.0), dweight(weight.size(), 0.0);
        conv2dBackward(dinp.data(), dweight.data(), r.data(), inp.data(), weight.data(), s);
        test::GradCheck check;
        test::checkTensor(check, "dinp", inp.data(), dinp.data(), Eigen::Index(inp.size()), loss);
        test::checkTensor(check, "dweight", weight.data(), dweight.data(), Eigen::Index(weight.size()), loss);
        qInfo("%d entries checked, max relative error %.2e", check.checked, check.maxRelError);
        QVERIFY2(check.maxRelError < kTolerance, check.worst.c_str());
        QCOMPARE(check.checked, int(inp.size() + weight.size()));
    }

    void batchNorm2d()
    {
        const int N = 2, C = 3, HW = 5;
        Rng rng(5);
        std::vector<double> inp = randomVector(rng, std::size_t(N) * C * HW, 2.0);
        std::vector<double> weight = randomVector(rng, C), bias = randomVector(rng, C);
        const std::vector<double> r = randomVector(rng, inp.size());
        std::vector<double> out(inp.size()), mean(C), rstd(C);
        auto loss = [&] {
            batchNorm2dForward(out.data(), mean.data(), rstd.data(), inp.data(), weight.data(), bias.data(), N, C, HW);
            return weighted(r, out);
        };
        loss();
        std::vector<double> dinp(inp.size(), 0.0), dweight(C, 0.0), dbias(C, 0.0);
        batchNorm2dBackward(dinp.data(), dweight.data(), dbias.data(), r.data(), inp.data(), weight.data(), mean.data(),
                            rstd.data(), N, C, HW);
        test::GradCheck check;
        test::checkTensor(check, "dinp", inp.data(), dinp.data(), Eigen::Index(inp.size()), loss);
        test::checkTensor(check, "dweight", weight.data(), dweight.data(), C, loss);
        test::checkTensor(check, "dbias", bias.data(), dbias.data(), C, loss);
        qInfo("%d entries checked, max relative error %.2e", check.checked, check.maxRelError);
        QVERIFY2(check.maxRelError < kTolerance, check.worst.c_str());
    }

    void batchNorm2dNormalises()
    {
        // training mode: per channel mean 0 and biased variance var / (var + eps) before gamma, beta
        const int N = 3, C = 2, HW = 4;
        Rng rng(8);
        const std::vector<double> inp = randomVector(rng, std::size_t(N) * C * HW, 3.0);
        const std::vector<double> one(C, 1.0), zero(C, 0.0);
        std::vector<double> out(inp.size()), mean(C), rstd(C);
        batchNorm2dForward(out.data(), mean.data(), rstd.data(), inp.data(), one.data(), zero.data(), N, C, HW);
        for (int c = 0; c < C; ++c) {
            double m = 0.0, v = 0.0, vin = 0.0;
            for (int n = 0; n < N; ++n)
                for (int p = 0; p < HW; ++p) m += out[(std::size_t(n) * C + c) * HW + p];
            m /= N * HW;
            for (int n = 0; n < N; ++n)
                for (int p = 0; p < HW; ++p) {
                    const std::size_t i = (std::size_t(n) * C + c) * HW + p;
                    v += out[i] * out[i];
                    vin += (inp[i] - mean[c]) * (inp[i] - mean[c]);
                }
            v /= N * HW;
            vin /= N * HW;
            QVERIFY(std::fabs(m) < 1e-15);
            QVERIFY(std::fabs(v - vin / (vin + 1e-5)) < 1e-14);
        }
    }

    void residualBlock_data()
    {
        QTest::addColumn<bool>("shortcut");
        QTest::newRow("with the shortcut") << true;
        QTest::newRow("plain") << false;
    }
    void residualBlock()
    {
        QFETCH(bool, shortcut);
        const int N = 2, C = 2, H = 3, W = 3;
        Rng rng(13);
        ResidualBlockWeights w;
        w.C = C;
        w.conv1 = randomVector(rng, C * C * 9, 0.5);
        w.conv2 = randomVector(rng, C * C * 9, 0.5);
        w.bn1Weight = randomVector(rng, C);
        w.bn1Bias = randomVector(rng, C, 0.3);
        w.bn2Weight = randomVector(rng, C);
        w.bn2Bias = randomVector(rng, C, 0.3);
        ResidualBlock block(w, shortcut, N, H, W);
        std::vector<double> x = randomVector(rng, std::size_t(N) * C * H * W);
        const std::vector<double> r = randomVector(rng, x.size());
        std::vector<double> y(x.size());
        auto loss = [&] {
            block.forward(x.data(), y.data());
            return weighted(r, y);
        };
        loss();
        ResidualBlockGrads g(C);
        std::vector<double> dx(x.size(), 0.0), identity(x.size()), branch(x.size());
        block.backward(r.data(), dx.data(), &g, identity.data(), branch.data());
        for (std::size_t i = 0; i < dx.size(); ++i) QCOMPARE(dx[i], identity[i] + branch[i]);
        if (!shortcut) QCOMPARE(*std::max_element(identity.begin(), identity.end()), 0.0);

        test::GradCheck check;
        ResidualBlockWeights &p = block.weights;
        test::checkTensor(check, "dx", x.data(), dx.data(), Eigen::Index(x.size()), loss);
        test::checkTensor(check, "dconv1", p.conv1.data(), g.conv1.data(), Eigen::Index(p.conv1.size()), loss);
        test::checkTensor(check, "dconv2", p.conv2.data(), g.conv2.data(), Eigen::Index(p.conv2.size()), loss);
        test::checkTensor(check, "dbn1w", p.bn1Weight.data(), g.bn1Weight.data(), C, loss);
        test::checkTensor(check, "dbn1b", p.bn1Bias.data(), g.bn1Bias.data(), C, loss);
        test::checkTensor(check, "dbn2w", p.bn2Weight.data(), g.bn2Weight.data(), C, loss);
        test::checkTensor(check, "dbn2b", p.bn2Bias.data(), g.bn2Bias.data(), C, loss);
        qInfo("%d entries checked, max relative error %.2e", check.checked, check.maxRelError);
        QVERIFY2(check.maxRelError < kTolerance, check.worst.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCnnGradients)
#include "tst_cnn_gradients.moc"
