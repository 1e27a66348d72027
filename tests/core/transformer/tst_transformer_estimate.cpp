// The expected time of a transformer run (core/transformer/transformer_estimate.h), said before it
// starts on the command line and beside Start in the window: the FLOPs formula over the measured speed,
// the threads counted only up to the machine's cores.
#include "core/transformer/transformer_estimate.h"

#include <QTest>

#include <cmath>

using namespace fb;

class TestTransformerEstimate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void flopsOverSpeed()
    {
        TransformerConfig c;  // the reference's defaults: 1500 steps
        const double perStep = transformerFlopsPerStep(c);
        QCOMPARE(transformerExpectedSeconds(c, 1e9), 1500.0 * perStep / 1e9);
        c.steps = 3000;
        QCOMPARE(transformerExpectedSeconds(c, 1e9), 3000.0 * perStep / 1e9);
        // Threads beyond the cores do not count.
        c.threads = 64;
        const int cores = availableCores();
        QVERIFY(cores >= 1);
        QCOMPARE(transformerExpectedSeconds(c, 1e9), 3000.0 * perStep / (1e9 * std::min(cores, 64)));
    }

    void theIssuesLongRunIsMinutes()
    {
        // 8 layers, d 512, T 256, 256 k-passes: at 5e10 operations a second, a long run.
        TransformerConfig c;
        c.layers = 8;
        c.dModel = 512;
        c.heads = 8;
        c.seqLen = 256;
        c.feedback = FeedbackMode::KPass;
        c.passes = 256;
        QVERIFY(transformerExpectedSeconds(c, 5e10) > 15 * 60.0);
    }

    void measuredOnceAndSaid()
    {
        const double speed = measuredFlopsPerSecond(64);
        QVERIFY(std::isfinite(speed) && speed > 0.0);
        QCOMPARE(measuredFlopsPerSecond(64), speed);  // remembered, not measured again
        const std::string text = transformerExpectedText(TransformerConfig {});
        QVERIFY2(text.rfind("about ", 0) == 0, text.c_str());
        QVERIFY2(text.find("(1500 steps of ") != std::string::npos, text.c_str());
        QVERIFY2(text.find(" floating-point operations at ") != std::string::npos, text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTransformerEstimate)
#include "tst_transformer_estimate.moc"
