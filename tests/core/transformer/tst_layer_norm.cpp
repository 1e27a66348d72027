// LayerNorm (core/transformer/layer_norm.h) and the norms' backward that writes its result
// (norm_backward_inp_set, core/transformer/rms_norm.h): against torch.nn.LayerNorm's definition and
// central differences in double (FullBand's checker, tests/support/gradient_check.h; relative error
// below 1e-6), at row counts that take each of the packet paths; in float against double on strided
// views; and the written result against the added one.
#include "core/numeric/rng.h"
#include "core/transformer/rms_norm.h"
#include "support/gradient_check.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace fb;
using Md = Eigen::MatrixXd;
using Vd = Eigen::VectorXd;

namespace {

Md random(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd = 1.0)
{
    return test::randomMatrix(rng, rows, cols, sd);
}

} // namespace

class TestLayerNorm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layerNorm_data()
    {
        QTest::addColumn<int>("C");
        // layer_norm.h reads a column in packets (8 doubles with AVX-512, 4 with AVX): C = 6 is rows
        // one by one only, 16 whole packets, 64 blocks of four packets, 70 those and a tail of rows
        for (int C : { 6, 16, 64, 70 }) QTest::newRow(qPrintable(QString("C=%1").arg(C))) << C;
    }

    void layerNorm()
    {
        // 7 columns: a group of four and three alone
        QFETCH(int, C);
        Rng rng(1);
        Md inp = random(rng, C, 7, 2.0), r = random(rng, C, 7), out(C, 7);
        Vd w = Vd(random(rng, C, 1).col(0)).array() + 1.0, b = random(rng, C, 1).col(0), mean(7), rstd(7);
        inp.col(2).setConstant(0.5);  // a constant column: variance 0, output = bias (eps keeps it finite)
        auto loss = [&] {
            nn::layernorm_forward<double>(out, mean, rstd, inp, w, b);
            return (out.array() * r.array()).sum();
        };
        loss();
        // the value against torch.nn.LayerNorm's definition (biased variance, eps 1e-5)
        for (Eigen::Index n = 0; n < 7; ++n) {
            const double m = inp.col(n).mean(), var = (inp.col(n).array() - m).square().mean();
            const Vd ref = ((inp.col(n).array() - m) / std::sqrt(var + 1e-5)) * w.array() + b.array();
            QVERIFY((out.col(n) - ref).norm() < 1e-13);
        }
        Md dinp = Md::Zero(C, 7);
        Vd dw = Vd::Zero(C), db = Vd::Zero(C);
        nn::layernorm_backward_inp<double>(dinp, r, inp, w, mean, rstd);
        nn::layernorm_backward_params<double>(dw, db, r, inp, mean, rstd);
        test::GradCheck check;
        test::checkTensor(check, "dinp[:, :2]", inp.data(), dinp.data(), 2 * C, loss);
        // the constant column's rstd is 1/sqrt(eps) = 316: its curvature needs a smaller step
        test::checkTensor(check, "dinp[:, 2]", inp.col(2).data(), dinp.col(2).data(), C, loss, 1 << 30, 1e-7);
        test::checkTensor(check, "dinp[:, 3:]", inp.col(3).data(), dinp.col(3).data(), 4 * C, loss);
        test::checkTensor(check, "dweight", w.data(), dw.data(), w.size(), loss);
        test::checkTensor(check, "dbias", b.data(), db.data(), b.size(), loss);
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("layernorm: max relative error %.3g over %d entries", check.maxRelError, check.checked);
        QVERIFY2(check.checked > 0, "layernorm");
        QVERIFY2(check.maxRelError < 1e-6, qPrintable(QString::fromStdString(check.worst)));
    }

    // LayerNorm and a bias's gradient in float, on columns of a taller buffer (an outer stride that is
    // not the rows, as the stack's views are), against the same in double: float's rounding only.
    void layerNormFloat()
    {
        for (const int C : { 70, 128 }) {
            const int N = 9;
            Rng rng(7);
            const Md inpD = random(rng, C + 5, N, 2.0), doutD = random(rng, C + 5, N), wD = random(rng, C, 1),
                     bD = random(rng, C, 1);
            auto inRows = [C](auto &m) { return m.middleRows(2, C); };
            Md outD = Md::Zero(C + 5, N), dinpD = Md::Ones(C + 5, N);
            Vd meanD(N), rstdD(N), dwD = Vd::Ones(C), dbD = Vd::Ones(C), dbiasD = Vd::Ones(C);
            const Eigen::MatrixXf inpF = inpD.cast<float>(), doutF = doutD.cast<float>();
            const Eigen::VectorXf wF = wD.col(0).cast<float>(), bF = bD.col(0).cast<float>();
            Eigen::MatrixXf outF = Eigen::MatrixXf::Zero(C + 5, N), dinpF = Eigen::MatrixXf::Ones(C + 5, N);
            Eigen::VectorXf meanF(N), rstdF(N), dwF = Eigen::VectorXf::Ones(C), dbF = Eigen::VectorXf::Ones(C),
                                             dbiasF = Eigen::VectorXf::Ones(C);
            nn::layernorm_forward<double>(inRows(outD), meanD, rstdD, inRows(inpD), wD.col(0), bD.col(0));
            nn::layernorm_backward_inp<double>(inRows(dinpD), inRows(doutD), inRows(inpD), wD.col(0), meanD, rstdD);
            nn::layernorm_backward_params<double>(dwD, dbD, inRows(doutD), inRows(inpD), meanD, rstdD);
            nn::bias_backward<double>(dbiasD, inRows(doutD));
            nn::layernorm_forward<float>(inRows(outF), meanF, rstdF, inRows(inpF), wF, bF);
            nn::layernorm_backward_inp<float>(inRows(dinpF), inRows(doutF), inRows(inpF), wF, meanF, rstdF);
            nn::layernorm_backward_params<float>(dwF, dbF, inRows(doutF), inRows(inpF), meanF, rstdF);
            nn::bias_backward<float>(dbiasF, inRows(doutF));
            // the rows outside the view untouched
            QCOMPARE(outF.topRows(2).norm(), 0.0f);
            QCOMPARE(outF.bottomRows(3).norm(), 0.0f);
            QCOMPARE(dinpF.topRows(2).minCoeff(), 1.0f);
            QCOMPARE(dinpF.bottomRows(3).maxCoeff(), 1.0f);
            // the bias's gradient is the plain row sums (added to the 1 it held)
            const Vd rowSums = Vd::Ones(C) + inRows(doutD).rowwise().sum();
            QVERIFY((dbiasD - rowSums).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY((dbD - rowSums).cwiseAbs().maxCoeff() < 1e-12);
            // float against double: values of order 1 to 10, sums of up to 128 terms
            const auto close = [](const auto &f, const auto &d, double tol) {
                return (f.template cast<double>() - d).cwiseAbs().maxCoeff() < tol;
            };
            QVERIFY(close(outF, outD, 1e-5));
            QVERIFY(close(meanF, meanD, 1e-6));
            QVERIFY(close(rstdF, rstdD, 1e-6));
            QVERIFY(close(dinpF, dinpD, 1e-5));
            QVERIFY(close(dwF, dwD, 1e-5));
            QVERIFY(close(dbF, dbD, 1e-5));
            QVERIFY(close(dbiasF, dbiasD, 1e-5));
        }
    }

    // norm_backward_inp_set: dinp = base + the gradient over whatever dinp held (NaN here), the same
    // in copy, and the gradient alone without a base, against norm_backward_inp's += (LayerNorm and
    // RMSNorm; C = 70: whole packets and a tail of rows; 7 columns: a group of four and three alone)
    void normBackwardSet()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (const bool rms : { false, true }) {
            const int C = 70, N = 7;
            Rng rng(11);
            const Md inp = random(rng, C, N, 2.0), dout = random(rng, C, N), base = random(rng, C, N);
            const Vd w = random(rng, C, 1).col(0), b = rms ? Vd() : Vd(random(rng, C, 1).col(0));
            Md out(C, N);
            Vd mean(N), rstd(N);
            nn::norm_forward<double>(rms, out, mean, rstd, inp, w, b);
            Md expected = base, gradient = Md::Zero(C, N);
            nn::norm_backward_inp<double>(rms, expected, dout, inp, w, mean, rstd);
            nn::norm_backward_inp<double>(rms, gradient, dout, inp, w, mean, rstd);
            Md dinp = Md::Constant(C, N, nan), copy = Md::Constant(C, N, nan), alone = Md::Constant(C, N, nan);
            const nn::In<double> baseView = base;
            nn::Out<double> copyView = copy;
            nn::norm_backward_inp_set<double>(rms, dinp, &baseView, &copyView, dout, inp, w, mean, rstd);
            nn::norm_backward_inp_set<double>(rms, alone, nullptr, nullptr, dout, inp, w, mean, rstd);
            QVERIFY2(dinp.allFinite() && alone.allFinite(), rms ? "rms" : "layernorm");
            QVERIFY((dinp - expected).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY(copy == dinp);
            QVERIFY((alone - gradient).cwiseAbs().maxCoeff() < 1e-12);
        }
    }
};

QTEST_APPLESS_MAIN(TestLayerNorm)
#include "tst_layer_norm.moc"
