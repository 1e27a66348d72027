// The training step allocates nothing: every workspace is sized before the loop (ToyNet::reserve,
// ToyBatch::resize). This executable counts allocations around forward, backward and a whole
// train() step loop, with support/malloc_count.h (the C library's malloc interposed in a normal
// build, the sanitizer's allocation hook under AddressSanitizer or ThreadSanitizer).
#include "core/numeric/rng.h"
#include "support/malloc_count.h"
#include "support/sanitized.h"
#include "core/training/toy_model.h"
#include "core/training/trainer.h"

#include <QTest>

using namespace fb;

class TestTrainAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void counterWorks()
    {
#ifdef FULLBAND_SANITIZER_ALLOCATOR
        QVERIFY2(hooksInstalled != 0, "the sanitizer did not accept the allocation hook");
#endif
        const long n = countMallocs([] {
            Eigen::MatrixXf m(100, 100);
            m.setZero();
        });
        QVERIFY(n >= 1);
    }

    void stepDoesNotAllocate_data()
    {
        QTest::addColumn<int>("arm");
        QTest::addColumn<int>("passes");
        QTest::newRow("token-only") << int(Arm::TokenOnly) << 0;
        QTest::newRow("latent exact") << int(Arm::LatentFeedback) << 0;
        QTest::newRow("latent k = 1") << int(Arm::LatentFeedback) << 1;
        QTest::newRow("latent k = 3") << int(Arm::LatentFeedback) << 3;
    }
    void stepDoesNotAllocate()
    {
        QFETCH(int, arm);
        QFETCH(int, passes);
        TrainConfig c;
        c.arm = Arm(arm);
        ToyNet<float> net(c.arm, toySizes(c));
        Rng rng(1);
        net.init(rng);
        net.reserve(c.batch);
        ToyBatch batch;
        batch.resize(c.batch, c.seqLen);
        const long n = countMallocs([&] {
            for (int i = 0; i < 3; ++i) {
                makeToyBatch(rng, c.buckets, batch);
                net.forward(batch, passes);
                net.zero_grad();
                net.backward(batch, passes);
            }
        });
        QCOMPARE(n, 0L);
    }

    // The whole loop of train(): allocations happen before the first step and after the last one
    // (held-out evaluation, result), so 200 steps (20 under the sanitizers) allocate exactly what
    // 2 steps do.
    void trainLoopDoesNotAllocate()
    {
        for (Arm arm : { Arm::TokenOnly, Arm::LatentFeedback }) {
            TrainConfig c;
            c.arm = arm;
            c.evalSequences = 64;
            c.steps = 2;
            const long few = countMallocs([&] { train(c); });
            c.steps = sanitizedBuild() ? 20 : 200;
            const long many = countMallocs([&] { train(c); });
            QCOMPARE(many, few);
        }
    }
};

QTEST_APPLESS_MAIN(TestTrainAlloc)
#include "tst_train_alloc.moc"
