// Section 218.6.4 and Part C of the cell in 218.6.5: what the wider channel costs.
#include "core/channel/accounting.h"
#include "support/fuzzy.h"

#include <QTest>

using namespace fb;

class TestAccounting : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passMultipliers()
    {
        // M_1 = 1, M_2 = 4/3 ~ 1.333, M_3 = 5/3 ~ 1.667.
        QCOMPARE(passMultiplier(1), 1.0);
        QCOMPARE(passMultiplier(2), 4.0 / 3.0);
        QCOMPARE(passMultiplier(3), 5.0 / 3.0);
    }
    void chapterNumbers_data()
    {
        // Printed at L = 32, phi = 0.2, rho = 0.1, ratio 1.5, k = 2, k' = 3, with the printed precision.
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<double>("printed");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("GLU parameter overhead 1.04%") << "param" << 0.0104 << 0.00005;
        QTest::newRow("decode FLOP overhead 1.04%") << "decode" << 0.0104 << 0.00005;
        QTest::newRow("latent-phase multiplier 1.367") << "phase" << 1.367 << 0.0005;
        QTest::newRow("whole-run multiplier 1.073") << "run" << 1.073 << 0.0005;
        QTest::newRow("with parameter overhead 1.085") << "total" << 1.085 << 0.0005;
        QTest::newRow("compute saved 27.7%") << "saving" << 0.277 << 0.0005;
    }
    void chapterNumbers()
    {
        QFETCH(QString, quantity);
        QFETCH(double, printed);
        QFETCH(double, tolerance);
        const AccountingResult r = accounting(AccountingParams {});
        const double value = quantity == "param"    ? r.paramOverhead
                           : quantity == "decode"   ? r.decodeOverhead
                           : quantity == "phase"    ? r.phaseMultiplier
                           : quantity == "run"      ? r.runMultiplier
                           : quantity == "total"    ? r.totalMultiplier
                                                    : r.saving;
        FB_FUZZY_COMPARE(value, printed, tolerance);
    }
    void formulas()
    {
        AccountingParams p;
        p.layers = 12;
        p.phi = 1.0;
        p.rho = 0.0;
        p.passes = 4;
        p.dataRatio = 2.0;
        const AccountingResult r = accounting(p);
        QCOMPARE(r.paramOverhead, 4.0 / (12.0 * 12));
        QCOMPARE(r.decodeOverhead, 1.0 / 36.0);
        QCOMPARE(r.phaseMultiplier, 2.0);  // M_4 = 6/3
        QCOMPARE(r.runMultiplier, 2.0);
        FB_FUZZY_COMPARE(r.totalMultiplier, 2.0 * (1 + 4.0 / 144), 1e-15);
        FB_FUZZY_COMPARE(r.saving, 1.0 - r.totalMultiplier / 2.0, 1e-15);
        // phi = 0: an ordinary run, whatever the passes; only the GLU's parameters remain.
        p.phi = 0.0;
        FB_FUZZY_COMPARE(accounting(p).runMultiplier, 1.0, 0.0);
    }
    void chapterComputeComparison()
    {
        // "C_fb = 1.085 x 6ND = 6.51ND" against "C_base = 6N(1.5D) = 9ND".
        const AccountingResult r = accounting(AccountingParams {});
        FB_FUZZY_COMPARE(6.0 * r.totalMultiplier, 6.51, 0.005);
    }
};

QTEST_APPLESS_MAIN(TestAccounting)
#include "tst_accounting.moc"
