// The transformer's step loop allocates nothing: every buffer is sized before the first step
// (TransformerWorkspace::reserve, TransformerBatch::resize, the evaluator's held-out set, the
// snapshot's maps). Counted with support/malloc_count.h, as in tst_train_alloc: the C library's
// malloc interposed in a normal build, the sanitizer's allocation hook under AddressSanitizer or
// ThreadSanitizer.
#include "core/numeric/rng.h"
#include "support/malloc_count.h"
#include "support/sanitized.h"
#include "core/transformer/attention_kernel.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_tasks.h"
#include "core/transformer/transformer_trainer.h"

#include <QTest>

using namespace fb;

class TestTransformerAlloc : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void counterWorks()
    {
#ifdef FULLBAND_SANITIZER_ALLOCATOR
        QVERIFY2(hooksInstalled != 0, "the sanitizer did not accept the allocation hook");
#endif
        QVERIFY(countMallocs([] { Eigen::MatrixXf m(100, 100); m.setZero(); }) >= 1);
    }

    void forwardBackwardDoNotAllocate_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("passes");
        QTest::addColumn<int>("heads");  // one head: d_head 64, the linear mixers' chunked form
        QTest::addColumn<QString>("mixer");
        QTest::newRow("off") << int(FeedbackMode::Off) << 1 << 4 << "softmax";
        QTest::newRow("kpass k = 3") << int(FeedbackMode::KPass) << 3 << 4 << "softmax";
        QTest::newRow("exact") << int(FeedbackMode::Exact) << 1 << 4 << "softmax";
        QTest::newRow("gated-deltanet, d_head 64 (chunked)") << int(FeedbackMode::Off) << 1 << 1 << "gated-deltanet";
        QTest::newRow("linear, d_head 64 (chunked)") << int(FeedbackMode::Off) << 1 << 1 << "linear";
        QTest::newRow("softmax, d_head 4 (outside the attention kernel)") << int(FeedbackMode::Off) << 1 << 16 << "softmax";
    }
    void forwardBackwardDoNotAllocate()
    {
        QFETCH(int, mode);
        QFETCH(int, passes);
        QFETCH(int, heads);
        QFETCH(QString, mixer);
        TransformerConfig c;  // the reference's sizes
        c.feedback = FeedbackMode(mode);
        TransformerShape s;
        s.feedback = c.feedback != FeedbackMode::Off;
        s.heads = heads;
        QVERIFY(parseMixers(mixer.toStdString(), s.layers, s.mixers).empty());
        TransformerNet<float> net(s);
        Rng rng(1);
        net.init(rng);
        TransformerTasks tasks(c, nullptr, 4 * c.seqLen);
        TransformerBatch batch;
        tasks.resize(batch, c.batch, c.seqLen, true);
        PositionTables<float> pos;
        pos.build(PositionalScheme::Rope, s.dModel, s.heads, 10000.0, c.seqLen);
        TransformerWorkspace<float> ws;
        ws.reserve(s, batch.columns(), batch.positions, true);
        QCOMPARE(ws.layer[0].chunkWork.size() > 0, s.dHead() >= nn::kChunkedFromHead && s.mixer(0) != Mixer::Softmax);
        // the attention backward's scratch only for heads the float kernel does not take
        QCOMPARE(ws.datt.size() > 0, s.anySoftmax() && !nn::attention_kernel_fits(s.dHead(), batch.positions));
        TransformerWorkspace<double> exact;  // the gradient checks': the float kernel never takes a head
        exact.reserve(s, batch.columns(), batch.positions, true);
        QCOMPARE(exact.datt.size() > 0, s.anySoftmax());
        const long n = countMallocs([&] {
            for (int i = 0; i < 2; ++i) {
                tasks.drawTraining(rng, batch);
                net.forward(ws, batch, pos, c.feedback, passes);
                net.zeroGrad();
                net.backward(ws, batch, pos, c.feedback, passes);
            }
        });
        QCOMPARE(n, 0L);
    }

    // The whole of trainTransformer: allocations happen before the first step and after the last,
    // so 60 steps (12 under the sanitizers) allocate exactly what 2 do, with held-out evaluations and snapshots (and text
    // samples) along the way.
    void trainLoopDoesNotAllocate_data()
    {
        QTest::addColumn<int>("task");
        QTest::addColumn<int>("feedback");
        QTest::newRow("induction-fixed, off") << int(TransformerTask::InductionFixed) << int(FeedbackMode::Off);
        QTest::newRow("induction, kpass") << int(TransformerTask::Induction) << int(FeedbackMode::KPass);
        QTest::newRow("accumulator, exact") << int(TransformerTask::Accumulator) << int(FeedbackMode::Exact);
        QTest::newRow("text, kpass") << int(TransformerTask::Text) << int(FeedbackMode::KPass);
        QTest::newRow("mqar, off") << int(TransformerTask::Mqar) << int(FeedbackMode::Off);
        QTest::newRow("modular-addition, off") << int(TransformerTask::ModularAddition) << int(FeedbackMode::Off);
    }
    void trainLoopDoesNotAllocate()
    {
        QFETCH(int, task);
        QFETCH(int, feedback);
        TransformerConfig c;
        c.task = TransformerTask(task);
        c.feedback = FeedbackMode(feedback);
        c.seqLen = 16;
        if (transformerHasAnswers(c.task)) c.seqLen = answerSequenceLength(c);  // the task's own length
        c.batch = 8;
        c.dModel = 32;
        c.heads = 2;
        c.evalEvery = 1;
        c.probeEvery = 1;
        c.evalSequences = 16;
        c.sampleChars = 10;
        for (int i = 0; i < 30; ++i) c.text += "pack my box with five dozen liquor jugs. ";
        int snapshots = 0;
        auto onSnapshot = [&](const TransformerSnapshot &) { ++snapshots; };
        c.steps = 2;
        trainTransformer(c);  // once uncounted: the first call builds what lives for the process (transformerSpec)
        const long few = countMallocs([&] { trainTransformer(c, {}, onSnapshot); });
        c.steps = sanitizedBuild() ? 12 : 60;
        const long many = countMallocs([&] { trainTransformer(c, {}, onSnapshot); });
        QCOMPARE(many, few);
        QCOMPARE(snapshots, 2 + 2 + c.steps + 2);
    }
};

QTEST_APPLESS_MAIN(TestTransformerAlloc)
#include "tst_transformer_alloc.moc"
