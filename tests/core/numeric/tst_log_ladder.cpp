// Logarithmic sliders stop at round values: 1-2-5 per decade, powers of two for sizes whose default
// is one; the range's ends and the default are always reachable; steps go rung by rung.
#include "core/numeric/log_ladder.h"

#include <QTest>

#include <algorithm>

#include <vector>

using namespace fb;

class TestLogLadder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void powersOfTwoForSizes()
    {
        const ParamSpec d = integerParam("d", "model width d", "", 1, 1048576, 4096, "", true);
        const std::vector<double> ladder = logLadder(d);
        QCOMPARE(ladder.size(), std::size_t(21));  // 2^0 ... 2^20
        QCOMPARE(ladder.front(), 1.0);
        QCOMPARE(ladder.back(), 1048576.0);
        QCOMPARE(stepAlongLadder(ladder, 4096, +1), 8192.0);
        QCOMPARE(stepAlongLadder(ladder, 4096, -1), 2048.0);
        QCOMPARE(stepAlongLadder(ladder, 4096, +3), 32768.0);
        QCOMPARE(stepAlongLadder(ladder, 1048576, +1), 1048576.0);  // clamped
    }

    void powersOfTwoKeepTheRangeEnd()
    {
        const ParamSpec tokens = integerParam("tokens", "context length", "", 1, 1e9, 131072, "", true);
        const std::vector<double> ladder = logLadder(tokens);
        QCOMPARE(ladder.back(), 1e9);
        QCOMPARE(ladder[ladder.size() - 2], 536870912.0);  // 2^29
        // A small drag moves one rung: 131072 -> 65536 or 262144, never to 595.
        const std::size_t i = nearestRung(ladder, 131072);
        QCOMPARE(ladder[i], 131072.0);
        QCOMPARE(ladder[i - 1], 65536.0);
        QCOMPARE(ladder[i + 1], 262144.0);
    }

    void oneTwoFiveForRealNumbers()
    {
        const ParamSpec lr = realParam("lr", "learning rate", "", 1e-4, 1, 3e-3, "", true);
        const std::vector<double> ladder = logLadder(lr);
        const std::vector<double> expected { 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 0.01, 0.02, 0.05,
                                             0.1, 0.2, 0.5, 1 };
        QCOMPARE(ladder, expected);  // exactly the literals: 0.002 is the double 0.002
        QCOMPARE(stepAlongLadder(ladder, 3e-3, +1), 5e-3);
        QCOMPARE(stepAlongLadder(ladder, 3e-3, -1), 2e-3);
    }

    void betweenRungsStepsToTheNextRound()
    {
        const ParamSpec samples = integerParam("samples", "samples", "", 1, 1e7, 400000, "", true);
        const std::vector<double> ladder = logLadder(samples);
        QCOMPARE(stepAlongLadder(ladder, 3000, +1), 5000.0);
        QCOMPARE(stepAlongLadder(ladder, 3000, -1), 2000.0);
        QCOMPARE(stepAlongLadder(ladder, 400000, +1), 500000.0);  // the default is a rung
        QCOMPARE(stepAlongLadder(ladder, 400000, -1), 200000.0);
        QCOMPARE(ladder[nearestRung(ladder, 4270)], 5000.0);
        QCOMPARE(ladder[nearestRung(ladder, 2900)], 2000.0);
    }

    void rangeFromZero()
    {
        const ParamSpec snr = realParam("snr", "SNR", "", 0, 1e6, 10, "", true);
        const std::vector<double> ladder = logLadder(snr);
        QCOMPARE(ladder.front(), 0.0);
        QCOMPARE(ladder[1], 1.0);
        QCOMPARE(ladder.back(), 1e6);
        QCOMPARE(nearestRung(ladder, 0.3), std::size_t(1));
        QCOMPARE(stepAlongLadder(ladder, 0, +1), 1.0);
    }

    void everyRungIsValid()
    {
        const std::vector<ParamSpec> specs {
            integerParam("d", "", "", 2, 1024, 64, "", true, 2),
            integerParam("v", "", "", 2, 1e6, 50257, "", true),
            realParam("base", "", "", 1.0001, 1e9, 10000, "", true),
            realParam("lr", "", "", 1e-5, 10, 0.1, "", true),
        };
        for (const ParamSpec &p : specs) {
            const std::vector<double> ladder = logLadder(p);
            QVERIFY(ladder.size() >= 3);
            for (std::size_t i = 0; i < ladder.size(); ++i) {
                QVERIFY2(checkNumber(p, ladder[i]).empty(), p.key.c_str());
                if (i > 0) QVERIFY(ladder[i] > ladder[i - 1]);
            }
            QCOMPARE(ladder.front(), p.min);
            QCOMPARE(ladder.back(), p.max);
            QVERIFY(std::find(ladder.begin(), ladder.end(), p.def) != ladder.end());
        }
    }

    void notLogarithmicHasNoLadder()
    {
        QVERIFY(logLadder(realParam("x", "", "", 0, 1, 0.5, "")).empty());
    }
};

QTEST_MAIN(TestLogLadder)
#include "tst_log_ladder.moc"
