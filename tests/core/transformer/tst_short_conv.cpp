// The short convolution (core/transformer/short_conv.h, key short_conv): its forward against its
// definition written out here (whole and in chunks), the identity it starts as, decoding position by
// position against the parallel pass, the parameter count and state bytes against their formulas, the
// refusals, and every tensor's gradient against central differences in double with FullBand's one
// checker (support/gradient_check.h): relative error below kTol = 1e-6, up to kEntries entries per
// tensor, at d 8, 2 heads, T 6, 2 layers, with softmax attention and each linear mixer.
#include "core/compare/kv_footprint.h"
#include "core/labs/transformer_spec.h"
#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/short_conv.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_workspace.h"
#include "support/transformer_gradients.h"

#include <QTest>

#include <cmath>

using namespace fb;

namespace {

constexpr double kTol = 1e-6;
constexpr int kEntries = 16;
constexpr double kStep = 1e-6;  // as tst_linear_mixers: the gated delta rule bends sharply
constexpr int kB = 2, kT = 6;

struct Variant {
    std::vector<Mixer> mixers { Mixer::Softmax, Mixer::Softmax };
    int taps = 4, heads = 2, kvHeads = 0, loops = 1;
    PositionalScheme pos = PositionalScheme::Rope;
    FeedbackMode feedback = FeedbackMode::Off;
    bool qkNorm = false;
};

TransformerShape shapeOf(const Variant &v)
{
    TransformerShape s;
    s.vocab = 5;
    s.dModel = 8;
    s.layers = int(v.mixers.size());
    s.heads = v.heads;
    s.kvHeads = v.kvHeads;
    s.loops = v.loops;
    s.qkNorm = v.qkNorm;
    s.feedback = v.feedback != FeedbackMode::Off;
    s.mixers = v.mixers;
    s.shortConv = v.taps;
    return s;
}

struct Setup {
    TransformerShape shape;
    TransformerBatch batch;
    PositionTables<double> pos;
    TransformerWorkspace<double> ws;
    Setup(const Variant &v, bool grad) : shape(shapeOf(v))
    {
        batch.resize(kB, kT, true, false);
        Rng rng(11);
        for (int &t : batch.tokens) t = int(rng.below(std::uint64_t(shape.vocab)));
        for (int &t : batch.targets) t = int(rng.below(std::uint64_t(shape.vocab)));
        pos.build(v.pos, shape.dModel, shape.heads, 30.0, kT);
        ws.reserve(shape, kB * kT, kT, grad);
    }
};

Eigen::MatrixXd drawn(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed)
{
    Rng rng(seed);
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
    return m;
}

} // namespace

class TestShortConv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // y_t = sum_{j < K, j <= t} w_j .* x_{t - j} for each of B sequences, column t B + b; the same in
    // chunks of columns, and its two backward halves against the transposed sums.
    void forwardIsItsDefinition()
    {
        const Eigen::Index rows = 5, K = 3, B = 2, T = 7, N = B * T;
        const Eigen::MatrixXd x = drawn(rows, N, 1), w = drawn(rows, K, 2), dy = drawn(rows, N, 3);
        Eigen::MatrixXd expect = Eigen::MatrixXd::Zero(rows, N), dxExpect = Eigen::MatrixXd::Zero(rows, N);
        Eigen::MatrixXd dwExpect = Eigen::MatrixXd::Zero(rows, K);
        for (Eigen::Index b = 0; b < B; ++b)
            for (Eigen::Index t = 0; t < T; ++t)
                for (Eigen::Index j = 0; j < K && j <= t; ++j) {
                    const Eigen::Index out = t * B + b, in = (t - j) * B + b;
                    expect.col(out) += w.col(j).cwiseProduct(x.col(in));
                    dxExpect.col(in) += w.col(j).cwiseProduct(dy.col(out));
                    dwExpect.col(j) += dy.col(out).cwiseProduct(x.col(in));
                }
        Eigen::MatrixXd y = Eigen::MatrixXd::Constant(rows, N, 9.0), dx = y;
        nn::short_conv_forward<double>(y.data(), x.data(), w.data(), rows, K, B, 0, N);
        QVERIFY((y - expect).cwiseAbs().maxCoeff() < 1e-14);
        // chunks of 3 columns (a chunk's first column reads another chunk's earlier positions)
        y.setConstant(9.0);
        for (Eigen::Index c = 0; c < N; c += 3)
            nn::short_conv_forward<double>(y.data(), x.data(), w.data(), rows, K, B, c, std::min<Eigen::Index>(3, N - c));
        QVERIFY((y - expect).cwiseAbs().maxCoeff() < 1e-14);
        for (Eigen::Index c = 0; c < N; c += 4)
            nn::short_conv_backward_data<double>(dx.data(), dy.data(), w.data(), rows, K, B, N, c,
                                                 std::min<Eigen::Index>(4, N - c));
        QVERIFY((dx - dxExpect).cwiseAbs().maxCoeff() < 1e-14);
        Eigen::MatrixXd dw = Eigen::MatrixXd::Constant(rows, K, 1.0);
        nn::short_conv_backward_weight<double>(dw.data(), dy.data(), x.data(), rows, K, B, N);
        QVERIFY((dw - Eigen::MatrixXd::Constant(rows, K, 1.0) - dwExpect).cwiseAbs().maxCoeff() < 1e-13);  // accumulates
    }

    // Initialised, the convolution is the identity and spends no draw: the same seed gives the same
    // loss with it and without it, bit for bit.
    void startsAsTheIdentity()
    {
        for (Mixer m : { Mixer::Softmax, Mixer::GatedDeltaNet }) {
            Variant with, without;
            with.mixers = without.mixers = { m, m };
            without.taps = 0;
            double losses[2];
            int i = 0;
            for (const Variant *v : { &with, &without }) {
                Setup su(*v, false);
                TransformerNet<double> net(su.shape);
                Rng rng(5);
                net.init(rng);
                losses[i++] = net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
            }
            QCOMPARE(losses[0], losses[1]);
        }
    }

    void gradients_data()
    {
        QTest::addColumn<QString>("mixers");
        QTest::addColumn<int>("taps");
        QTest::addColumn<int>("feedback");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<QString>("flags");  // "q" qk_norm, "2" loop 2, "n" no positions
        const int off = int(FeedbackMode::Off), exact = int(FeedbackMode::Exact);
        for (const char *m : { "softmax", "linear", "deltanet", "gated-deltanet" }) {
            const QString two = QString("%1,%1").arg(m);
            QTest::newRow(qPrintable(QString("%1, 4 taps").arg(m))) << two << 4 << off << 0 << QString();
            QTest::newRow(qPrintable(QString("%1, 2 taps, kv_heads 1").arg(m))) << two << 2 << off << 1 << QString();
            QTest::newRow(qPrintable(QString("%1, 3 taps, exact feedback").arg(m))) << two << 3 << exact << 0 << QString();
        }
        QTest::newRow("softmax, 8 taps (more than T), qk_norm, loop 2") << "softmax,softmax" << 8 << off << 0 << "q2";
        QTest::newRow("gated-deltanet then softmax, 4 taps, no positions")
            << "gated-deltanet,softmax" << 4 << off << 0 << "n";
    }
    void gradients()
    {
        QFETCH(QString, mixers);
        QFETCH(int, taps);
        QFETCH(int, feedback);
        QFETCH(int, kvHeads);
        QFETCH(QString, flags);
        Variant v;
        v.mixers.clear();
        for (const QString &name : mixers.split(',')) {
            Mixer m = Mixer::Softmax;
            QVERIFY(parseMixer(name.toStdString(), m));
            v.mixers.push_back(m);
        }
        v.taps = taps;
        v.feedback = FeedbackMode(feedback);
        v.kvHeads = kvHeads;
        v.qkNorm = flags.contains('q');
        v.loops = flags.contains('2') ? 2 : 1;
        if (flags.contains('n')) v.pos = PositionalScheme::None;
        Setup su(v, true);
        TransformerNet<double> net(su.shape);
        test::randomiseTransformer(net, 21);
        net.zeroGrad();
        net.forward(su.ws, su.batch, su.pos, v.feedback, 1);
        net.backward(su.ws, su.batch, su.pos, v.feedback, 1);
        const Eigen::VectorXd analytic = net.grads;
        const TransformerLayout::Slot conv = net.layout().blocks[0].conv;
        QVERIFY(analytic.segment(conv.offset, conv.size()).norm() > 0.0);
        auto loss = [&] { return net.forward(su.ws, su.batch, su.pos, v.feedback, 1); };
        test::GradCheck check;
        test::checkTransformerSlots(check, net, analytic, loss, kEntries, kStep);
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries", QTest::currentDataTag(), check.maxRelError, check.checked);
        QVERIFY2(check.maxRelError < kTol, check.worst.c_str());
    }

    // Decoding position by position in a fresh workspace (a KV cache's way) reads the raw q, k, v
    // of the positions before it: the same logits as the parallel pass. And the exact recurrence of
    // latent feedback: its stepwise forward against its parallel-looking loss on a second workspace.
    void stepwiseEqualsParallel()
    {
        for (Mixer m : { Mixer::Softmax, Mixer::DeltaNet, Mixer::GatedDeltaNet }) {
            Variant v;
            v.mixers = { m, Mixer::Softmax };
            v.taps = 3;
            Setup su(v, false);
            TransformerNet<double> net(su.shape);
            test::randomiseTransformer(net, 4);
            net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
            const Eigen::MatrixXd logits = su.ws.logits.leftCols(su.ws.columns());
            TransformerWorkspace<double> cache;
            cache.reserve(su.shape, kB * kT, kT, false);
            cache.setBatch(kB, kT);
            for (int t = 0; t < kT; ++t) net.forwardPosition(cache, su.batch.tokens.data() + t * kB, nullptr, t, su.pos);
            QVERIFY((cache.logits.leftCols(kB * kT) - logits).cwiseAbs().maxCoeff() < 1e-12);
            // without the raw columns of earlier positions the decoding differs: the check can fail
            cache.layer[0].qkvRaw.leftCols(kB).setZero();
            net.forwardPosition(cache, su.batch.tokens.data() + kB, nullptr, 1, su.pos);
            QVERIFY((cache.logits.middleCols(kB, kB) - logits.middleCols(kB, kB)).cwiseAbs().maxCoeff() > 1e-6);
        }
    }

    // K weights per row of q, k, v per layer; the state adds the raw q, k, v of K - 1 positions.
    void sizes()
    {
        TransformerConfig c;
        c.shortConv = 4;
        QCOMPARE(transformerParameterCount(c), 101632LL + 2 * (3 * 64) * 4);
        c.kvHeads = 1;  // q 64 rows, k and v 16 each
        TransformerConfig plain = c;
        plain.shortConv = 0;
        QCOMPARE(transformerParameterCount(c), transformerParameterCount(plain) + 2 * (64 + 2 * 16) * 4);
        c = TransformerConfig {};
        c.shortConv = 4;
        c.mixer = "softmax,gated-deltanet";
        QCOMPARE(transformerStateBytes(c, 0, 32), 2.0 * 4 * 16 * 32 * 4 + 3 * 192 * 4);
        QCOMPARE(transformerStateBytes(c, 1, 32), 4.0 * 16 * 16 * 4 + 3 * 192 * 4);
        QCOMPARE(transformerStateBytes(c, 1, 2), 4.0 * 16 * 16 * 4 + 2 * 192 * 4);  // fewer positions than taps - 1
        // the comparison's footprint: the state and both layers' convolutions, the KV cache per token apart
        const KvFootprint f = kvFootprint(c);
        QCOMPARE(f.bytesPerToken, 2.0 * 4 * 16 * 4);
        QCOMPARE(f.stateBytes, 4.0 * 16 * 16 * 4 + 2 * 3 * 192 * 4);
        QCOMPARE(f.cacheBytes, f.bytesPerToken * 32 + f.stateBytes);
    }

    void refusals_data()
    {
        QTest::addColumn<double>("taps");
        QTest::addColumn<QString>("needle");
        QTest::newRow("1") << 1.0 << "short_conv must be 0 (off) or an integer in [2, 8]";
        QTest::newRow("9") << 9.0 << "short_conv must be";
        QTest::newRow("-1") << -1.0 << "short_conv must be";
        QTest::newRow("2.5") << 2.5 << "short_conv must be";
    }
    void refusals()
    {
        QFETCH(double, taps);
        QFETCH(QString, needle);
        ParamValues v = transformerCommandSpec().defaults();
        v.numbers["short_conv"] = taps;
        TransformerConfig c;
        c.steps = 77;
        const std::string err = transformerFrom(v, c);
        QVERIFY2(err.find(needle.toStdString()) != std::string::npos, err.c_str());
        QCOMPARE(c.steps, 77);  // unchanged
        QVERIFY(err.find('\n') == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestShortConv)
#include "tst_short_conv.moc"
