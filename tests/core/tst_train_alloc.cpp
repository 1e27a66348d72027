// The training step allocates nothing: every workspace is sized before the loop (ToyNet::reserve,
// ToyBatch::resize). This executable counts calls to malloc (glibc: the definition below interposes
// the C library's, and forwards to __libc_malloc) around forward, backward and a whole train() step
// loop.
#include "core/rng.h"
#include "core/training/toy_model.h"
#include "core/training/trainer.h"

#include <QTest>

#include <atomic>
#include <cstddef>

extern "C" void *__libc_malloc(std::size_t);

namespace {
std::atomic<bool> counting { false };
std::atomic<long> mallocs { 0 };
} // namespace

extern "C" void *malloc(std::size_t size)
{
    if (counting.load(std::memory_order_relaxed)) mallocs.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
}

namespace {

// Runs f with malloc counted; returns the number of calls.
template <typename F>
long countMallocs(F &&f)
{
    mallocs = 0;
    counting = true;
    f();
    counting = false;
    return mallocs.load();
}

} // namespace

using namespace fb;

class TestTrainAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void counterWorks()
    {
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
    // (held-out evaluation, result), so 200 steps allocate exactly what 2 steps do.
    void trainLoopDoesNotAllocate()
    {
        for (Arm arm : { Arm::TokenOnly, Arm::LatentFeedback }) {
            TrainConfig c;
            c.arm = arm;
            c.evalSequences = 64;
            c.steps = 2;
            const long few = countMallocs([&] { train(c); });
            c.steps = 200;
            const long many = countMallocs([&] { train(c); });
            QCOMPARE(many, few);
        }
    }
};

QTEST_APPLESS_MAIN(TestTrainAlloc)
#include "tst_train_alloc.moc"
