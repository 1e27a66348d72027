// FullBand's one Adam (core/optim/adam.h) against its formula, for one flat vector and for several
// tensors, in double and in float; the trainers' guarded step around it.
#include "core/optim/adam.h"
#include "core/optim/guarded_step.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

using namespace fb;

class TestAdam : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tensorsMatchTheFormula()
    {
        double p = 1.0, g = 0.0;
        Adam<double> adam;
        double m = 0, v = 0, ref = 1.0;
        for (int t = 1; t <= 3; ++t) {
            g = 2.0 * p - 0.5 * t;  // any gradient
            adam.step({ { &p, 1 } }, { { &g, 1 } }, 0.1);
            m = 0.9 * m + 0.1 * g;
            v = 0.999 * v + 0.001 * g * g;
            ref -= 0.1 * (m / (1 - std::pow(0.9, t))) / (std::sqrt(v / (1 - std::pow(0.999, t))) + 1e-8);
            QVERIFY(std::fabs(p - ref) < 1e-15);
        }
        QCOMPARE(adam.steps(), 3);
    }

    void flatMatchesTensors()
    {
        // The same two-tensor problem through both entry points gives the same numbers, bit for bit.
        Eigen::VectorXf flat(5), grads(5);
        flat << 1.0f, -2.0f, 0.5f, 3.0f, -0.25f;
        Eigen::VectorXf a = flat.head(2), b = flat.tail(3);
        Adam<float> one(5), two;
        for (int t = 1; t <= 20; ++t) {
            for (int i = 0; i < 5; ++i) grads[i] = std::sin(float(t * (i + 1))) + flat[i];
            Eigen::VectorXf ga = grads.head(2), gb = grads.tail(3);
            one.step(flat, grads, 1e-2);
            two.step({ { a.data(), 2 }, { b.data(), 3 } }, { { ga.data(), 2 }, { gb.data(), 3 } }, 1e-2);
            QCOMPARE(flat.head(2), a);
            QCOMPARE(flat.tail(3), b);
        }
    }

    void firstStepMovesEachWeightByLr()
    {
        // With bias correction, the first update is lr * g / (|g| + eps): about lr, whatever |g| is.
        Eigen::VectorXd p = Eigen::VectorXd::Zero(3), g(3);
        g << 1e-3, -5.0, 200.0;
        Adam<double> adam(3);
        adam.step(p, g, 0.01);
        QVERIFY(std::fabs(p[0] + 0.01) < 1e-6);
        QVERIFY(std::fabs(p[1] - 0.01) < 1e-9);
        QVERIFY(std::fabs(p[2] + 0.01) < 1e-9);
    }

    // The trainers' guarded step (core/optim/guarded_step.h): the norm before clipping, clipping as
    // torch.nn.utils.clip_grad_norm_, the weights before the update kept, and the two faults.
    void guardedStepClipsAndKeepsTheWeightsBefore()
    {
        Eigen::VectorXf p(2), g(2), good = Eigen::VectorXf::Zero(2);
        p << 1.0f, -2.0f;
        g << 3.0f, 4.0f;  // norm 5
        Adam<float> adam(2);
        const GuardedStep s = guardedStep(adam, p, g, good, 1.0, 0.01);
        QCOMPARE(s.fault, StepFault::None);
        QVERIFY(std::fabs(s.gradNorm - 5.0) < 1e-12);
        // clipped to norm 1 inside the update (scaled by 1 / (5 + 1e-6)); the gradient is left as it was
        QCOMPARE(g[0], 3.0f);
        QCOMPARE(g[1], 4.0f);
        QCOMPARE(good[0], 1.0f);
        QCOMPARE(good[1], -2.0f);
        QCOMPARE(adam.steps(), 1);
        QVERIFY(std::fabs(p[0] - (1.0 - 0.01)) < 1e-6 && std::fabs(p[1] - (-2.0 - 0.01)) < 1e-6);

        // The clipped step is Adam's step on the clipped gradient, bit for bit.
        Eigen::VectorXf q(2), clipped(2), kept = Eigen::VectorXf::Zero(2);
        q << 1.0f, -2.0f;
        clipped << 3.0f * float(1.0 / (5.0 + 1e-6)), 4.0f * float(1.0 / (5.0 + 1e-6));
        Adam<float> plain(2);
        p << 1.0f, -2.0f;
        Adam<float> clipping(2);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(guardedStep(clipping, p, g, good, 1.0, 0.01).fault, StepFault::None);
            QCOMPARE(guardedStep(plain, q, clipped, kept, 0.0, 0.01).fault, StepFault::None);
            QCOMPARE(p[0], q[0]);
            QCOMPARE(p[1], q[1]);
        }

        // Below the clip the gradient is not scaled, and clip 0 never clips: two steps, the first with a
        // gradient of norm 50 and the second of norm 0.5, follow Adam::step on the gradients as they
        // are. (One step alone could not tell: Adam's first update is the same for any scale of g.)
        // With clip 1 the first gradient is scaled to norm 1, and the second step differs.
        const auto twoSteps = [](double clip, float first, Eigen::VectorXf &p) {
            p.resize(2);
            p << 1.0f, -2.0f;
            Eigen::VectorXf g(2), kept(2);
            Adam<float> adam(2);
            for (const float size : { first, 0.1f }) {
                g << 3.0f * size, 4.0f * size;
                if (guardedStep(adam, p, g, kept, clip, 0.01).fault != StepFault::None) return false;
            }
            return true;
        };
        const auto reference = [](float first, Eigen::VectorXf &p) {
            p.resize(2);
            p << 1.0f, -2.0f;
            Eigen::VectorXf g(2);
            Adam<float> adam(2);
            for (const float size : { first, 0.1f }) {
                g << 3.0f * size, 4.0f * size;
                adam.step(p, g, 0.01);
            }
        };
        Eigen::VectorXf taken, expected;
        reference(10.0f, expected);
        QVERIFY(twoSteps(0.0, 10.0f, taken));  // clip 0, norms 50 and 0.5
        QVERIFY((taken - expected).norm() < 1e-6);
        QVERIFY(twoSteps(100.0, 10.0f, taken));  // both below the clip
        QVERIFY((taken - expected).norm() < 1e-6);
        QVERIFY(twoSteps(1.0, 10.0f, taken));  // the first one clipped
        QVERIFY((taken - expected).norm() > 1e-4);
        Eigen::VectorXf atNormOne;
        reference(1.0f / (5.0f * 10.0f + 1e-6f) * 10.0f, atNormOne);  // the first gradient at norm 1
        QVERIFY((taken - atNormOne).norm() < 1e-6);
    }

    // The gradient norm's sum of squares in 8 running sums, against one plain sum in double, for
    // lengths around the 8 sums (the tail loop) and long ones.
    void squaredSumMatchesAPlainSum()
    {
        Eigen::VectorXf x = Eigen::VectorXf::LinSpaced(1003, -3.0f, 2.0f);
        for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.001f * float(i % 7);
        for (const Eigen::Index n : { 0, 1, 7, 8, 9, 64, 1003 }) {
            double plain = 0.0;
            for (Eigen::Index i = 0; i < n; ++i) plain += double(x[i]) * double(x[i]);
            QVERIFY2(std::fabs(squaredSum(x.data(), n) - plain) <= 1e-13 * std::max(1.0, plain),
                     qPrintable(QString::number(n)));
        }
    }

    void guardedStepRefusesNonFiniteValues()
    {
        Eigen::VectorXf p(2), g(2), good = Eigen::VectorXf::Zero(2);
        p << 1.0f, -2.0f;
        g << std::numeric_limits<float>::infinity(), 1.0f;
        Adam<float> adam(2);
        const GuardedStep s = guardedStep(adam, p, g, good, 1.0, 0.01);
        QCOMPARE(s.fault, StepFault::GradientNotFinite);
        QVERIFY(!std::isfinite(s.gradNorm));
        QCOMPARE(adam.steps(), 0);  // nothing changed
        QCOMPARE(p[0], 1.0f);
        QCOMPARE(good[0], 0.0f);

        // A finite gradient whose update overflows a weight: good holds the weights before it.
        p << 3e38f, 1.0f;
        g << -1.0f, 0.0f;
        const GuardedStep overflow = guardedStep(adam, p, g, good, 0.0, 1e38);
        QCOMPARE(overflow.fault, StepFault::WeightNotFinite);
        QCOMPARE(good[0], 3e38f);
        QVERIFY(!std::isfinite(p[0]));
    }

    // AdamW against a hand computation, in double (tolerance 1e-15) and float (1e-6): the masked weight
    // shrinks by 1 - lr lambda before Adam's update, the unmasked one takes Adam's update alone, and
    // the guarded step decays the same way.
    void adamWMatchesTheFormula()
    {
        const double lr = 0.1, wd = 0.5;
        Eigen::VectorXd p(2), g(2), mask(2);
        p << 1.0, -2.0;
        mask << 1.0, 0.0;  // the first decays, the second (a bias, a LayerNorm gain) does not
        Adam<double> adam(2);
        double ref[2] = { 1.0, -2.0 }, m[2] = { 0, 0 }, v[2] = { 0, 0 };
        for (int t = 1; t <= 3; ++t) {
            g << 0.3 * t - p[0], 0.7 - 0.2 * p[1];
            adam.step(p, g, lr, wd, mask);
            for (int i = 0; i < 2; ++i) {
                if (i == 0) ref[i] *= 1.0 - lr * wd;  // p *= 1 - lr lambda, decoupled from the gradient
                m[i] = 0.9 * m[i] + 0.1 * g[i];
                v[i] = 0.999 * v[i] + 0.001 * g[i] * g[i];
                const double mHat = m[i] / (1.0 - std::pow(0.9, t)), vHat = v[i] / (1.0 - std::pow(0.999, t));
                ref[i] -= lr * mHat / (std::sqrt(vHat) + 1e-8);
                QVERIFY2(std::fabs(p[i] - ref[i]) < 1e-15, qPrintable(QString::number(p[i] - ref[i])));
            }
        }
        // The first step by hand: p = 1 (1 - 0.05) - 0.1 m_hat / (sqrt(v_hat) + eps), m_hat = g = 0.3 - 1 = -0.7,
        // sqrt(v_hat) = 0.7: 0.95 + 0.1 (0.7 / (0.7 + 1e-8)).
        Eigen::VectorXf q(1), gq(1), empty;
        q << 1.0f;
        gq << -0.7f;
        Adam<float> one(1);
        one.step(q, gq, lr, wd, empty);  // empty mask: every weight decays
        QVERIFY(std::fabs(double(q[0]) - (0.95 + 0.1 * 0.7 / (0.7 + 1e-8))) < 1e-6);
        // guardedStep passes the decay on
        Eigen::VectorXf r(1), gr(1), good(1), maskF(1);
        r << 1.0f;
        gr << -0.7f;
        maskF << 1.0f;
        Adam<float> two(1);
        const GuardedStep taken = guardedStep(two, r, gr, good, 0.0, lr, wd, maskF);
        QCOMPARE(taken.fault, StepFault::None);
        // the fused pass computes the same formula (a compiler may fuse its multiply-adds differently)
        QVERIFY(std::fabs(double(r[0]) - double(q[0])) < 1e-6);
        QCOMPARE(good[0], 1.0f);
    }
};

QTEST_APPLESS_MAIN(TestAdam)
#include "tst_adam.moc"
