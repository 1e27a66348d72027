// FullBand's one Adam (core/optim/adam.h) against its formula, for one flat vector and for several
// tensors, in double and in float.
#include "core/optim/adam.h"

#include <QTest>

#include <cmath>

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
};

QTEST_APPLESS_MAIN(TestAdam)
#include "tst_adam.moc"
