// The depth lab's parameters: defaults are valid and are the chapter's values, conversions fill the
// studies' structs, and refused input names the key and its range.
#include "core/labs/depth_gradients_spec.h"

#include <QTest>

using namespace fb;

class TestDepthLabSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keysAndDefaults()
    {
        const LabSpec &spec = depthLabSpec();
        QCOMPARE(QString::fromStdString(spec.name), QStringLiteral("depth-gradients"));
        QCOMPARE(QString::fromStdString(spec.keyList()),
                 QStringLiteral("study, depth, width, activation, norm, init_scale, seed, blocks, branch_gain, seq_len, "
                                "hidden, radius, forget_bias, steps, batch, lr"));
        DepthLabConfig c;
        QVERIFY(depthLabFrom(spec.defaults(), c).empty());
        QCOMPARE(c.study, DepthStudy::Depth);
        QCOMPARE(c.stack.depth, 100);
        QCOMPARE(c.stack.activation, Activation::Tanh);
        QCOMPARE(c.stack.norm, false);
        QCOMPARE(c.time.radius, 0.9);
        // the chapter's classifier cell
        QCOMPARE(c.classifier.hidden, 32);
        QCOMPARE(c.classifier.embed, 16);
        QCOMPARE(c.classifier.vocab, 20);
        QCOMPARE(c.classifier.seqLen, 10);
        QCOMPARE(c.classifier.batch, 8);
        QCOMPARE(c.classifier.steps, 200);
        QCOMPARE(c.classifier.lr, 1e-2);
        // the chapter's residual block cell (218.1)
        QCOMPARE(c.block.channels, 16);
        QCOMPARE(c.block.batch, 2);
        QCOMPARE(c.block.seed, std::uint64_t(0));
        QCOMPARE(c.block.blocks, 1);
        QCOMPARE(c.block.branchGain, 1.0);
    }

    void conversion()
    {
        ParamValues v = depthLabSpec().defaults();
        QVERIFY(setFromText(depthLabSpec(), v, "study", "time").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "activation", "relu").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "norm", "1").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "seed", "42").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "hidden", "64").empty());
        DepthLabConfig c;
        QVERIFY(depthLabFrom(v, c).empty());
        QCOMPARE(c.study, DepthStudy::Time);
        QCOMPARE(c.stack.activation, Activation::Relu);
        QVERIFY(c.stack.norm);
        QCOMPARE(c.stack.seed, std::uint64_t(42));
        QCOMPARE(c.time.seed, std::uint64_t(42));
        QCOMPARE(c.classifier.seed, std::uint64_t(42));
        QCOMPARE(c.time.hidden, 64);
        QCOMPARE(c.classifier.hidden, 64);
        QCOMPARE(c.block.seed, std::uint64_t(42));
        QVERIFY(setFromText(depthLabSpec(), v, "study", "block").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "blocks", "3").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "branch_gain", "0").empty());
        QVERIFY(depthLabFrom(v, c).empty());
        QCOMPARE(c.study, DepthStudy::Block);
        QCOMPARE(c.block.blocks, 3);
        QCOMPARE(c.block.branchGain, 0.0);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("depth") << "depth" << "201" << "depth (layers) must be an integer in [1, 200], got 201";
        QTest::newRow("width") << "width" << "1" << "width (units) must be an integer in [2, 512], got 1";
        QTest::newRow("activation") << "activation" << "gelu" << "activation must be one of relu|tanh, got 'gelu'";
        QTest::newRow("radius") << "radius" << "0" << "radius must be a number in [0.1, 2], got 0";
        QTest::newRow("seq_len") << "seq_len" << "501" << "seq_len (steps) must be an integer in [2, 500], got 501";
        QTest::newRow("norm") << "norm" << "2" << "norm must be an integer in [0, 1], got 2";
        QTest::newRow("study") << "study" << "width" << "study must be one of depth|block|time|classifier, got 'width'";
    }
    void refusals()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        ParamValues v = depthLabSpec().defaults();
        const ParamValues before = v;
        const std::string err = setFromText(depthLabSpec(), v, key.toStdString(), value.toStdString());
        QCOMPARE(QString::fromStdString(err), message);
        QVERIFY(v == before);
        // depthLabFrom refuses an out-of-range value that reached it and leaves its output alone
        ParamValues bad = before;
        if (depthLabSpec().find(key.toStdString())->kind == ParamKind::Choice) bad.texts[key.toStdString()] = value.toStdString();
        else bad.numbers[key.toStdString()] = value.toDouble();
        DepthLabConfig c;
        c.stack.depth = 7;
        QCOMPARE(QString::fromStdString(depthLabFrom(bad, c)), message);
        QCOMPARE(c.stack.depth, 7);
    }

    void trainSpec()
    {
        ParamValues v = lstmVsMeanSpec().defaults();
        ClassifierConfig c;
        std::vector<ClassifierArm> arms;
        QVERIFY(lstmVsMeanFrom(v, c, arms).empty());
        QCOMPARE(arms.size(), std::size_t(2));
        QCOMPARE(c.seqLen, 10);
        QCOMPARE(c.heldout, 512);
        QVERIFY(setFromText(lstmVsMeanSpec(), v, "arm", "mean-pooling").empty());
        QVERIFY(lstmVsMeanFrom(v, c, arms).empty());
        QCOMPARE(arms.size(), std::size_t(1));
        QCOMPARE(arms[0], ClassifierArm::MeanPooling);
        QCOMPARE(QString::fromStdString(setFromText(lstmVsMeanSpec(), v, "task", "phase")),
                 QStringLiteral("task must be one of lstm-vs-mean, got 'phase'"));
    }
};

QTEST_APPLESS_MAIN(TestDepthLabSpec)
#include "tst_depth_gradients_spec.moc"
