// The PyTorch-compatible generator: the same numbers as torch.randn on the CPU (values recorded
// from PyTorch 1.13, Debian's python3-torch: torch.manual_seed(0); torch.randn(n, dtype=float64) twice).
#include "core/torch/torch_generator.h"

#include <QTest>

using namespace fb;

class TestTorchGenerator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesPyTorch_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("firstOfA");
        QTest::addColumn<double>("lastOfA");
        QTest::addColumn<double>("lastOfB");
        // n < 16: scalar Box-Muller with the cached sine half; n >= 16: blocks of 16, tail redrawn.
        QTest::newRow("5") << 5 << 1.5409961082440433 << -1.084522342424021 << -0.40334352493217457;
        QTest::newRow("8") << 8 << 1.5409961082440433 << 0.8380263329976598 << 0.12270123916331216;
        QTest::newRow("20") << 20 << -2.310411800234176 << -0.7498915228391941 << -3.4796352415709877;
        QTest::newRow("64") << 64 << -2.310411800234176 << -0.007855617400547969 << -0.6036839371988663;
        QTest::newRow("100") << 100 << -2.310411800234176 << 0.7255481446372165 << -0.7667240679927507;
    }
    void matchesPyTorch()
    {
        QFETCH(int, n);
        QFETCH(double, firstOfA);
        QFETCH(double, lastOfA);
        QFETCH(double, lastOfB);
        TorchGenerator g(0);
        const std::vector<double> a = g.randn(n);
        const std::vector<double> b = g.randn(n);
        // Bit for bit up to the last place of libm's log/cos/sin.
        QVERIFY(std::fabs(a.front() - firstOfA) <= 1e-15 * std::fabs(firstOfA));
        QVERIFY(std::fabs(a.back() - lastOfA) <= 1e-14 * std::fabs(lastOfA));
        QVERIFY(std::fabs(b.back() - lastOfB) <= 1e-14 * std::fabs(lastOfB));
    }
    void uniformIsInUnitInterval()
    {
        TorchGenerator g(123);
        for (int i = 0; i < 10000; ++i) {
            const double u = g.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
        }
    }
};

QTEST_APPLESS_MAIN(TestTorchGenerator)
#include "tst_torch_generator.moc"
