// Section 218.6.2's cell: the gated fusion's gate statistics and its sensitivity to h_t, and the
// continuous opening of the channel (alpha) the GLU-fusion lab shows.
#include "core/cells/glu_fusion.h"
#include "support/fuzzy.h"

#include <QTest>

#include <cmath>
#include <numeric>
#include <stdexcept>

using namespace fb;

class TestGluFusion : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chapterCell()
    {
        const GluFusionResult r = gluFusion(GluFusionParams{});
        // Printed: "mean gate value 0.495". Tolerance: the half-unit of the third decimal, 5e-4, plus 1e-6
        // for float32 against double: each float32 gate is within a few 1e-8 of the double one
        // (PyTorch's float32 mean 0.49532670, FullBand's double 0.49532669).
        FB_FUZZY_COMPARE(r.meanGate, 0.495, 5e-4 + 1e-6);
        // Printed: "fraction of gates above 0.5: 0.493": 1009 of 2048 = 0.49268 in float32 and double
        // alike. No float allowance: the count is exact because the pre-activation closest to 0 is
        // 7.4e-05 away from it, far beyond float32's rounding there (~1e-7).
        QCOMPARE(r.gatesOpen, 1009);
        FB_FUZZY_COMPARE(r.fractionOpen, 0.493, 5e-4);
        // Printed: "with the h columns zeroed, sensitivity to h_t: 0.0e+00": exactly zero at alpha = 0.
        GluFusionParams off;
        off.alpha = 0.0;
        // QCOMPARE of doubles is fuzzy about 0 (|x| <= 1e-12 passes): compare exactly.
        QVERIFY(gluFusion(off).sensitivity == 0.0);
        // PyTorch in float64 on the same float32 draws: the open channel's sensitivity.
        FB_FUZZY_COMPARE(r.sensitivity, 2.2596070691, 1e-9);
        FB_FUZZY_COMPARE(r.meanGate, 0.495326693533, 1e-10);
    }

    void channelOpensContinuously()
    {
        const GluFusion f(GluFusionParams{});
        GluFusionParams p;
        p.alpha = 0.5;
        const GluFusionResult half = f.at(p);
        FB_FUZZY_COMPARE(half.sensitivity, 1.0524599962, 1e-9);  // PyTorch, float64, columns times 0.5
        QCOMPARE(int(half.curveAlpha.size()), 51);
        QCOMPARE(half.curveAlpha.front(), 0.0);
        QCOMPARE(half.curveAlpha.back(), 1.0);
        QVERIFY(half.curveSensitivity.front() == 0.0);
        QCOMPARE(half.curveSensitivity[25], f.sensitivity(0.5));
        QCOMPARE(half.curveSensitivity.back(), f.sensitivity(1.0));
        for (std::size_t k = 1; k < half.curveSensitivity.size(); ++k) QVERIFY(half.curveSensitivity[k] > 0.0);
        // small alpha: the sensitivity grows linearly, ~ alpha |d x / d alpha| at 0
        const double s1 = f.sensitivity(1e-6), s2 = f.sensitivity(2e-6);
        FB_FUZZY_COMPARE(s2 / s1, 2.0, 1e-4);
        // the kept object gives what a fresh call gives
        const GluFusionResult fresh = gluFusion(p);
        QCOMPARE(fresh.meanGate, half.meanGate);
        QCOMPARE(fresh.gateHistogram, half.gateHistogram);
        QCOMPARE(fresh.curveSensitivity, half.curveSensitivity);
        QVERIFY(f.sameDraws(p));
        p.seed = 4;
        QVERIFY(!f.sameDraws(p));
    }

    void histogram()
    {
        GluFusionParams p;
        p.bins = 40;
        const GluFusionResult r = gluFusion(p);
        QCOMPARE(int(r.gateHistogram.size()), 40);
        QCOMPARE(std::accumulate(r.gateHistogram.begin(), r.gateHistogram.end(), 0), 4 * 512);
        // bins 20..39 hold the gates in [0.5, 1): the open ones (none is exactly 0.5)
        QCOMPARE(std::accumulate(r.gateHistogram.begin() + 20, r.gateHistogram.end(), 0), r.gatesOpen);
        // alpha = 0: the gates see only e; still symmetric about 0.5 on average
        p.alpha = 0.0;
        const GluFusionResult r0 = gluFusion(p);
        QVERIFY(std::fabs(r0.meanGate - 0.5) < 0.02);
    }

    void otherSizesMatchPyTorch()
    {
        // d = 384 + 384: sqrt(768) is not exact, so the float32 division by it matters.
        GluFusionParams p;
        p.dModel = 384;
        p.dEmb = 384;
        p.batch = 3;
        p.seed = 5;
        const GluFusionResult a = gluFusion(p);
        FB_FUZZY_COMPARE(a.meanGate, 0.492404786465, 1e-10);
        QCOMPARE(a.gatesOpen, 550);
        FB_FUZZY_COMPARE(a.sensitivity, 3.0227675150, 1e-9);
        // d_emb != d_model
        p.dModel = 300;
        p.dEmb = 200;
        p.batch = 5;
        p.seed = 1;
        const GluFusionResult b = gluFusion(p);
        FB_FUZZY_COMPARE(b.meanGate, 0.497581921304, 1e-10);
        FB_FUZZY_COMPARE(b.sensitivity, 2.5476371931, 1e-9);
    }

    void overhead()
    {
        // 4 d^2 parameters and 8 d^2 FLOPs per token against 12 d^2 L and 24 d^2 L: 1/(3L) = 1.04% at L = 32.
        const GluFusionOverhead o = gluFusionOverhead(GluFusionParams{});
        QCOMPARE(o.fusionParams, 4.0 * 512 * 512);
        QCOMPARE(o.fusionFlops, 8.0 * 512 * 512);
        QCOMPARE(o.stackParams, 12.0 * 512 * 512 * 32);
        QCOMPARE(o.stackFlops, 24.0 * 512 * 512 * 32);
        FB_FUZZY_COMPARE(o.paramRatio, 1.0 / 96.0, 1e-15);
        FB_FUZZY_COMPARE(100.0 * o.paramRatio, 1.04, 5e-3);  // the chapter's "approx 1.04%"
        FB_FUZZY_COMPARE(o.flopRatio, 1.0 / 96.0, 1e-15);
    }

    void validation()
    {
        QCOMPARE(checkGluFusionParams(GluFusionParams{}), std::string());
        GluFusionParams p;
        p.alpha = 1.5;
        QVERIFY(checkGluFusionParams(p).find("alpha") == 0);
        p = {};
        p.dModel = 4096;
        QVERIFY(checkGluFusionParams(p).find("d_model") == 0);
        p = {};
        p.batch = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gluFusion(p));
    }
};

QTEST_APPLESS_MAIN(TestGluFusion)
#include "tst_glu_fusion.moc"
