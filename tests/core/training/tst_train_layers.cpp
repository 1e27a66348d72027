// Gradient checks of the trainer's hand-written backward passes (core/training/layers.h and
// toy_model.h), in double: every layer alone, then both whole models, against central finite
// differences (MiniDNN's Network::check_gradient idea). The tolerance, a relative error of 1e-6 per
// tensor (|analytic - numeric| / max(|analytic|, |numeric|) in the 2-norm), is well above what
// central differences in double reach here (1e-11 .. 3e-8; FULLBAND_SHOW_ERRORS=1 prints them) and
// far below what a missing or wrong term gives (>= 1e-2).
#include "core/numeric/rng.h"
#include "core/training/layers.h"
#include "core/training/toy_model.h"
#include "core/training/toy_task.h"

#include "support/gradient_check.h"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace fb;
using Md = Eigen::MatrixXd;
using Vd = Eigen::VectorXd;

namespace {

constexpr double kTol = 1e-6;

Md randomMatrix(Rng &rng, Eigen::Index rows, Eigen::Index cols, double scale = 1.0)
{
    Md m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-scale, scale);
    return m;
}

using test::numericGradient;
using test::relativeError;

#define CHECK_GRAD(name, analytic, numeric)                                                                  \
    do {                                                                                                       \
        const double err_ = relativeError(analytic, numeric);                                                \
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS")) qInfo("%s: %.3g", qPrintable(name), err_);      \
        QVERIFY2(Md(numeric).norm() > 0.0, qPrintable(QStringLiteral("%1: gradient is zero").arg(name)));     \
        QVERIFY2(err_ < kTol, qPrintable(QStringLiteral("%1: relative error %2").arg(name).arg(err_)));       \
    } while (0)

} // namespace

class TestTrainLayers : public QObject {
    Q_OBJECT
private:
    // Model-level check: every parameter tensor of net against central differences of loss().
    void checkModel(ToyNet<double> &net, const std::function<double()> &loss, const QString &what)
    {
        const Vd analytic = net.grads;
        const Md numeric = numericGradient(loss, net.params);
        const ToyLayout &L = net.layout();
        const std::pair<const char *, ToyLayout::Slot> slots[] = {
            { "E", L.E }, { "Wf", L.Wf }, { "bf", L.bf }, { "W1", L.W1 }, { "b1", L.b1 }, { "W2", L.W2 },
            { "b2", L.b2 }, { "Wh", L.Wh }, { "bh", L.bh }, { "h0", L.h0 },
        };
        int checked = 0;
        for (const auto &[name, slot] : slots) {
            if (slot.size() == 0) continue;
            const Md a = analytic.segment(slot.offset, slot.size());
            const Md n = numeric.col(0).segment(slot.offset, slot.size());
            CHECK_GRAD(what + QStringLiteral(" d") + QLatin1String(name), a, n);
            ++checked;
        }
        QVERIFY(checked >= 7);
    }

    struct Fixture {
        ToySizes sizes { 3, 4, 5, 3, 4 };  // V_b, d_emb, d_hid, d_fuse, T: small, all different
        ToyBatch batch;
        Fixture(std::uint64_t seed, ToySizes s = { 3, 4, 5, 3, 4 }) : sizes(s)
        {
            batch.resize(3, sizes.seqLen);
            Rng rng(seed);
            makeToyBatch(rng, sizes.buckets, batch);
        }
        ToyNet<double> net(Arm arm, std::uint64_t seed) const
        {
            ToyNet<double> n(arm, sizes);
            Rng rng(seed);
            n.init(rng);
            n.reserve(batch.batch);
            if (arm == Arm::LatentFeedback)  // h0 starts at zero; give it a value so that its gradient is tested
                for (Eigen::Index i = 0; i < n.layout().h0.size(); ++i)
                    n.params[n.layout().h0.offset + i] = rng.uniform(-0.5, 0.5);
            return n;
        }
    };

private Q_SLOTS:
    // Three shapes, one per path of matmul_backward_weight: few outputs, general, narrow input.
    void linear_data()
    {
        QTest::addColumn<int>("outputs");
        QTest::addColumn<int>("inputs");
        QTest::newRow("4 x 5") << 4 << 5;
        QTest::newRow("12 x 5") << 12 << 5;
        QTest::newRow("12 x 2") << 12 << 2;
    }
    void linear()
    {
        QFETCH(int, outputs);
        QFETCH(int, inputs);
        Rng rng(1);
        Md inp = randomMatrix(rng, inputs, 7), w = randomMatrix(rng, outputs, inputs), r = randomMatrix(rng, outputs, 7);
        Md b = randomMatrix(rng, outputs, 1);
        Md out(outputs, 7);
        auto loss = [&] {
            nn::linear_forward<double>(out, inp, w, Vd(b.col(0)));
            return (out.array() * r.array()).sum();  // d(loss)/d(out) = r
        };
        Md dinp = Md::Zero(inputs, 7), dw = Md::Zero(outputs, inputs);
        Vd db = Vd::Zero(outputs);
        nn::linear_backward<double>(dinp, dw, db, r, inp, w);
        CHECK_GRAD("linear dinp", dinp, numericGradient(loss, inp));
        CHECK_GRAD("linear dweight", dw, numericGradient(loss, w));
        CHECK_GRAD("linear dbias", Md(db), numericGradient(loss, b));
        // gradients accumulate: a second backward adds the same amount again
        nn::linear_backward<double>(dinp, dw, db, r, inp, w);
        CHECK_GRAD("linear dweight accumulated", dw, Md(2 * numericGradient(loss, w)));
    }

    void tanh()
    {
        Rng rng(2);
        Md inp = randomMatrix(rng, 6, 5, 2.0), r = randomMatrix(rng, 6, 5), out(6, 5);
        auto loss = [&] {
            nn::tanh_forward<double>(out, inp);
            return (out.array() * r.array()).sum();
        };
        loss();
        Md dinp = Md::Zero(6, 5);
        nn::tanh_backward<double>(dinp, r, out);
        CHECK_GRAD("tanh dinp", dinp, numericGradient(loss, inp));
        loss();  // out of the unperturbed input again
        Md d = r;
        nn::tanh_backward_inplace<double>(d, out);
        CHECK_GRAD("tanh dinp in place", d, numericGradient(loss, inp));
    }

    void embedding()
    {
        Rng rng(3);
        Md table = randomMatrix(rng, 4, 3), r = randomMatrix(rng, 4, 8), out(4, 8);
        const int idx[8] = { 0, 2, 2, 1, 0, 2, 1, 1 };  // repeated tokens: their gradients must add up
        auto loss = [&] {
            nn::embedding_forward<double>(out, table, idx);
            return (out.array() * r.array()).sum();
        };
        Md dtable = Md::Zero(4, 3);
        nn::embedding_backward<double>(dtable, r, idx);
        CHECK_GRAD("embedding dtable", dtable, numericGradient(loss, table));
    }

    // The folded embedding + linear layer: same value as embedding then linear, and its gradients.
    void embeddingLinear()
    {
        Rng rng(7);
        Md table = randomMatrix(rng, 4, 3), w = randomMatrix(rng, 5, 4), b = randomMatrix(rng, 5, 1);
        Md r = randomMatrix(rng, 5, 8), out(5, 8), proj(5, 3), emb(4, 8), ref(5, 8);
        const int idx[8] = { 2, 0, 2, 1, 1, 2, 0, 0 };
        auto loss = [&] {
            nn::embedding_linear_forward<double>(out, proj, table, w, Vd(b.col(0)), idx);
            return (out.array() * r.array()).sum();
        };
        loss();
        nn::embedding_forward<double>(emb, table, idx);
        nn::linear_forward<double>(ref, emb, w, Vd(b.col(0)));
        QVERIFY((out - ref).norm() < 1e-14 * ref.norm());
        Md dtable = Md::Zero(4, 3), dw = Md::Zero(5, 4), dproj(5, 3);
        Vd db = Vd::Zero(5);
        nn::embedding_linear_backward<double>(dtable, dw, db, dproj, r, table, w, idx);
        CHECK_GRAD("embedding_linear dtable", dtable, numericGradient(loss, table));
        CHECK_GRAD("embedding_linear dweight", dw, numericGradient(loss, w));
        CHECK_GRAD("embedding_linear dbias", Md(db), numericGradient(loss, b));
    }

    void gluFusion()
    {
        Rng rng(4);
        Md fz = randomMatrix(rng, 6, 5, 2.0), r = randomMatrix(rng, 3, 5), x(3, 5), sig(3, 5);
        auto loss = [&] {
            nn::glu_forward<double>(x, sig, fz);
            return (x.array() * r.array()).sum();
        };
        loss();
        Md dfz = Md::Zero(6, 5);
        nn::glu_backward<double>(dfz, r, fz, sig);
        CHECK_GRAD("glu dfz", dfz, numericGradient(loss, fz));
    }

    void softmaxCrossEntropy()
    {
        Rng rng(5);
        Md logits = randomMatrix(rng, 4, 9, 3.0), probs(4, 9);
        Vd colmax(9), logsum(9);
        logits(2, 3) = 80.0;  // a large logit: the stable softmax must not overflow
        const int targets[9] = { 0, 1, 2, 3, 3, 2, 1, 0, 2 };
        auto loss = [&] { return nn::crossentropy_forward<double>(logits, targets, probs, colmax, logsum) / 9.0; };
        // The value itself: mean of -log softmax at the target.
        double expected = 0.0;
        for (int n = 0; n < 9; ++n)
            expected -= std::log(std::exp(logits(targets[n], n)) / logits.col(n).array().exp().sum());
        QVERIFY(std::abs(loss() - expected / 9.0) < 1e-12);
        QVERIFY((probs.colwise().sum().array() - 1.0).abs().maxCoeff() < 1e-15);
        loss();
        Md dlogits = Md::Zero(4, 9);
        nn::crossentropy_backward<double>(dlogits, probs, targets, 1.0);
        CHECK_GRAD("crossentropy dlogits", dlogits, numericGradient(loss, logits));
    }

    void tokenOnlyModel()
    {
        Fixture fx(10);
        ToyNet<double> net = fx.net(Arm::TokenOnly, 11);
        net.zero_grad();
        net.forward(fx.batch, 0);
        net.backward(fx.batch, 0);
        checkModel(net, [&] { return net.forward(fx.batch, 0); }, QStringLiteral("token-only"));
    }

    void latentExact()
    {
        Fixture fx(20);
        ToyNet<double> net = fx.net(Arm::LatentFeedback, 21);
        net.zero_grad();
        net.forward(fx.batch, 0);
        net.backward(fx.batch, 0);
        checkModel(net, [&] { return net.forward(fx.batch, 0); }, QStringLiteral("latent exact"));
    }

    // Widths above 8 take the general matrix-product paths of the weight gradients.
    void wideModels()
    {
        Fixture fx(40, { 3, 4, 10, 9, 3 });
        for (Arm arm : { Arm::TokenOnly, Arm::LatentFeedback }) {
            ToyNet<double> net = fx.net(arm, 41);
            for (int passes : { 0, 2 }) {
                net.zero_grad();
                net.forward(fx.batch, passes);
                net.backward(fx.batch, passes);
                if (passes == 0) {
                    checkModel(net, [&] { return net.forward(fx.batch, 0); },
                               QString::fromStdString(armName(arm)) + QStringLiteral(" wide"));
                } else if (arm == Arm::LatentFeedback) {
                    net.forward(fx.batch, 1);
                    const Md frozen = net.hidden(fx.batch.columns());
                    checkModel(net, [&] { return net.forward_final_pass(fx.batch, &frozen); },
                               QStringLiteral("latent wide k = 2"));
                }
            }
        }
    }

    // The k-pass objective's gradient is that of pass k with the earlier passes' h held fixed
    // (stop-gradient): compare with finite differences of exactly that function.
    void latentKPass_data()
    {
        QTest::addColumn<int>("k");
        QTest::newRow("k = 1") << 1;
        QTest::newRow("k = 2") << 2;
        QTest::newRow("k = T") << 4;
    }
    void latentKPass()
    {
        QFETCH(int, k);
        Fixture fx(30);
        ToyNet<double> net = fx.net(Arm::LatentFeedback, 31);
        Md frozen;  // h^(k-1), computed once at the unperturbed weights
        if (k >= 2) {
            net.forward(fx.batch, k - 1);
            frozen = net.hidden(fx.batch.columns());
        }
        const Md *feedback = k >= 2 ? &frozen : nullptr;
        const double lossK = net.forward(fx.batch, k);
        QVERIFY(std::abs(net.forward_final_pass(fx.batch, feedback) - lossK) < 1e-14);
        net.zero_grad();
        net.forward(fx.batch, k);
        net.backward(fx.batch, k);
        checkModel(net, [&] { return net.forward_final_pass(fx.batch, feedback); },
                   QStringLiteral("latent k = %1").arg(k));
    }

    // Sanity of the check itself: a deliberately wrong gradient (tanh' taken as 1 - x^2 of the
    // input instead of the output) must fail the tolerance by orders of magnitude.
    void checkCatchesAWrongTerm()
    {
        Rng rng(6);
        Md inp = randomMatrix(rng, 6, 5, 2.0), r = randomMatrix(rng, 6, 5), out(6, 5);
        auto loss = [&] {
            nn::tanh_forward<double>(out, inp);
            return (out.array() * r.array()).sum();
        };
        const Md wrong = ((1.0 - inp.array().square()) * r.array()).matrix();
        QVERIFY(relativeError(wrong, numericGradient(loss, inp)) > 1e3 * kTol);
    }
};

QTEST_APPLESS_MAIN(TestTrainLayers)
#include "tst_train_layers.moc"
