// The whole transformer (core/transformer/transformer_net.h) in double: gradient checks of every
// parameter tensor in every positional scheme x feedback mode (off, kpass k = 1, 2, 3, exact) at
// tiny sizes, the parameter counts of the PyTorch reference, the k-pass objective's k = T limit,
// and decoding position by position against the parallel forward pass.
//
// Gradient check: central differences of the loss (the k-pass objective's last pass with the
// earlier passes' h held constant, as its stop-gradient says) against backward(), with FullBand's
// one checker (tests/support/gradient_check.h): the relative error of each tensor's gradient,
// ||a - n|| / max(||a||, ||n||), below kTol = 1e-6; up to kEntries entries per tensor (all of the
// small ones).
// FULLBAND_SHOW_ERRORS=1 prints the largest error of each configuration.
#include "core/numeric/rng.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_net.h"
#include "support/gradient_check.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace fb;

namespace {

constexpr double kTol = 1e-6;
constexpr int kEntries = 24;

TransformerShape tinyShape(bool feedback, bool accumulator = false, bool embedScale = false)
{
    TransformerShape s;
    s.vocab = 5;
    s.dModel = 8;
    s.layers = 2;
    s.heads = 2;
    s.feedback = feedback;
    s.obsInputs = accumulator ? 2 : 0;
    s.embedScale = embedScale;
    return s;
}

TransformerBatch tinyBatch(const TransformerShape &s, int B, int T, std::uint64_t seed)
{
    TransformerBatch batch;
    batch.resize(B, T, true, s.obsInputs > 0);
    Rng rng(seed);
    for (int &t : batch.tokens) t = int(rng.below(std::uint64_t(s.vocab)));
    for (int &t : batch.targets) t = int(rng.below(std::uint64_t(s.vocab)));
    for (Eigen::Index i = 0; i < batch.obs.size(); ++i) batch.obs.data()[i] = float(rng.uniform(-1.0, 1.0));
    return batch;
}

// Parameters away from the initialisation's tiny scale, so that every term of the gradient matters.
void randomise(TransformerNet<double> &net, std::uint64_t seed, double scale = 0.4)
{
    Rng rng(seed);
    net.init(rng);
    for (Eigen::Index i = 0; i < net.params.size(); ++i) net.params[i] += scale * rng.normal();
}

struct Setup {
    TransformerShape shape;
    TransformerBatch batch;
    PositionTables<double> pos;
    TransformerWorkspace<double> ws;
    Setup(const TransformerShape &s, PositionalScheme scheme, int B = 2, int T = 5) : shape(s)
    {
        batch = tinyBatch(s, B, T, 11);
        pos.build(scheme, s.dModel, s.heads, 30.0, T);
        ws.reserve(s, Eigen::Index(B) * T, T, true);
    }
};

} // namespace

class TestTransformerModel : public QObject {
    Q_OBJECT
private:
    // Every tensor's gradient after forward + backward in (mode, passes) against central differences.
    void gradientCheck(Setup &su, TransformerNet<double> &net, FeedbackMode mode, int passes, const char *what)
    {
        net.zeroGrad();
        net.forward(su.ws, su.batch, su.pos, mode, passes);
        net.backward(su.ws, su.batch, su.pos, mode, passes);
        const Eigen::VectorXd analytic = net.grads;
        // the loss whose gradient backward() computes
        Eigen::MatrixXd previousH;
        if (mode == FeedbackMode::KPass && passes > 1) {
            net.forward(su.ws, su.batch, su.pos, FeedbackMode::KPass, passes - 1);
            previousH = su.ws.h.leftCols(su.ws.columns());
        }
        auto loss = [&] {
            if (mode == FeedbackMode::KPass && passes > 1) return net.forwardFinalPass(su.ws, su.batch, su.pos, previousH);
            return net.forward(su.ws, su.batch, su.pos, mode, passes);
        };
        test::GradCheck check;
        int tensors = 0;
        net.layout().forEachSlot([&](const std::string &name, const TransformerLayout::Slot &s) {
            test::checkTensor(check, name, net.params.data() + s.offset, analytic.data() + s.offset, s.size(), loss,
                              kEntries);
            ++tensors;
        });
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries of %d tensors", what, check.maxRelError, check.checked,
                  tensors);
        QVERIFY2(analytic.norm() > 0.0, what);
        QVERIFY2(check.maxRelError < kTol, qPrintable(QStringLiteral("%1: %2").arg(what).arg(QString::fromStdString(check.worst))));
    }

private Q_SLOTS:
    void parameterCounts()
    {
        TransformerConfig c;
        QCOMPARE(transformerParameterCount(c), 101632LL);
        c.feedback = FeedbackMode::KPass;
        QCOMPARE(transformerParameterCount(c), 118144LL);
        c.feedback = FeedbackMode::Exact;
        QCOMPARE(transformerParameterCount(c), 118144LL);
        // by the formula: V d + L (4d + 3d^2 + d^2 + 4d^2 + 4d + 4d^2 + d) + 2d + V d (+ 4d^2 + 2d)
        const long long V = 16, d = 64, L = 2;
        QCOMPARE(101632LL, V * d + L * (4 * d + 12 * d * d + 5 * d) + 2 * d + V * d);
        QCOMPARE(118144LL - 101632LL, 4 * d * d + 2 * d);
        // the accumulator adds W_obs, (d, 2)
        c.task = TransformerTask::Accumulator;
        c.feedback = FeedbackMode::Off;
        QCOMPARE(transformerParameterCount(c), 101632LL - 2 * 16 * 64 + 2 * 4 * 64 + 2 * 64);
    }

    void gradients_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("passes");
        const std::pair<const char *, PositionalScheme> schemes[] = {
            { "none", PositionalScheme::None }, { "sinusoidal", PositionalScheme::Sinusoidal },
            { "rope", PositionalScheme::Rope } };
        for (const auto &[name, scheme] : schemes) {
            QTest::addRow("%s, off", name) << int(scheme) << int(FeedbackMode::Off) << 1;
            for (int k : { 1, 2, 3 }) QTest::addRow("%s, kpass k=%d", name, k) << int(scheme) << int(FeedbackMode::KPass) << k;
            QTest::addRow("%s, exact", name) << int(scheme) << int(FeedbackMode::Exact) << 1;
        }
    }
    void gradients()
    {
        QFETCH(int, scheme);
        QFETCH(int, mode);
        QFETCH(int, passes);
        const FeedbackMode m = FeedbackMode(mode);
        Setup su(tinyShape(m != FeedbackMode::Off), PositionalScheme(scheme));
        TransformerNet<double> net(su.shape);
        randomise(net, 21);
        gradientCheck(su, net, m, passes, QTest::currentDataTag());
    }

    // The accumulator's input (E[y_{t-1}] + W_obs obs_t) and the sqrt(d) embedding scale.
    void gradientsAccumulatorAndScale()
    {
        for (bool feedback : { false, true }) {
            Setup su(tinyShape(feedback, true, true), PositionalScheme::Rope);
            TransformerNet<double> net(su.shape);
            randomise(net, 31);
            gradientCheck(su, net, feedback ? FeedbackMode::Exact : FeedbackMode::Off, 1,
                          feedback ? "accumulator, scaled, exact" : "accumulator, scaled, off");
        }
    }

    // With k >= T passes the k-pass forward is the exact recurrence (h^(k)_t = h_t for t < k);
    // with k = T - 1 it is not. The weights are scaled up so that h carries far along the sequence.
    void kPassAtTEqualsExact()
    {
        const int T = 6;
        Setup su(tinyShape(true), PositionalScheme::Rope, 3, T);
        TransformerNet<double> net(su.shape);
        randomise(net, 41, 0.8);
        net.P(net.layout().Wf) *= 3.0;
        const double exact = net.forward(su.ws, su.batch, su.pos, FeedbackMode::Exact, 1);
        const Eigen::MatrixXd logits = su.ws.logits.leftCols(su.ws.columns());
        for (int k : { T, T + 3 }) {
            const double kpass = net.forward(su.ws, su.batch, su.pos, FeedbackMode::KPass, k);
            const double diff = (su.ws.logits.leftCols(su.ws.columns()) - logits).cwiseAbs().maxCoeff();
            qInfo("k = %d against exact: loss %.3g, logits %.3g (max abs)", k, std::abs(kpass - exact), diff);
            QVERIFY(std::abs(kpass - exact) < 1e-12 && diff < 1e-12);
        }
        net.forward(su.ws, su.batch, su.pos, FeedbackMode::KPass, T - 1);
        const Eigen::MatrixXd fewer = su.ws.logits.leftCols(su.ws.columns());
        // positions t < T - 1 agree, the last differs
        const Eigen::Index B = su.ws.B;
        QVERIFY((fewer.leftCols((T - 1) * B) - logits.leftCols((T - 1) * B)).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY((fewer.rightCols(B) - logits.rightCols(B)).cwiseAbs().maxCoeff() > 1e-6);
    }

    // The same in float, as the trainer runs it: the difference is rounding only.
    void kPassAtTEqualsExactFloat()
    {
        const TransformerShape s = tinyShape(true);
        const int T = 8, B = 4;
        TransformerBatch batch = tinyBatch(s, B, T, 5);
        PositionTables<float> pos;
        pos.build(PositionalScheme::Rope, s.dModel, s.heads, 10000.0, T);
        TransformerWorkspace<float> ws;
        ws.reserve(s, B * T, T, false);
        TransformerNet<float> net(s);
        Rng rng(3);
        net.init(rng);
        for (Eigen::Index i = 0; i < net.params.size(); ++i) net.params[i] += float(0.5 * rng.normal());
        const double exact = net.forward(ws, batch, pos, FeedbackMode::Exact, 1);
        const Eigen::MatrixXf logits = ws.logits.leftCols(ws.columns());
        const double kpass = net.forward(ws, batch, pos, FeedbackMode::KPass, T);
        const double diff = (ws.logits.leftCols(ws.columns()) - logits).cwiseAbs().maxCoeff() / logits.cwiseAbs().maxCoeff();
        qInfo("float, k = T against exact: loss %.3g, logits %.3g (relative)", std::abs(kpass - exact), diff);
        QVERIFY(std::abs(kpass - exact) < 1e-5 && diff < 1e-5);
    }

    // Decoding one position at a time (the KV cache) gives the logits of the exact forward pass.
    void forwardPositionMatchesForward()
    {
        for (bool feedback : { false, true }) {
            Setup su(tinyShape(feedback, true), PositionalScheme::Sinusoidal, 3, 6);
            TransformerNet<double> net(su.shape);
            randomise(net, 51);
            const FeedbackMode mode = feedback ? FeedbackMode::Exact : FeedbackMode::Off;
            net.forward(su.ws, su.batch, su.pos, mode, 1);
            const Eigen::MatrixXd logits = su.ws.logits.leftCols(su.ws.columns());
            TransformerWorkspace<double> cache;
            cache.reserve(su.shape, 3 * 6, 6, false);
            cache.setBatch(3, 6);
            for (int t = 0; t < 6; ++t)
                net.forwardPosition(cache, su.batch.tokens.data() + t * 3, su.batch.obs.data() + 2 * t * 3, t, su.pos);
            QVERIFY((cache.logits.leftCols(18) - logits).cwiseAbs().maxCoeff() < 1e-12);
        }
    }

    // The backward pass writes the dq, dk and dv it no longer zeroes first (softmax attention over the
    // whole sequence: TransformerStack::writesQkvGradient) and zeroes the rest (linear mixers, the exact
    // backward's positions one by one): with every layer's dqkv NaN on entry, the same gradients, bit for
    // bit, as from a fresh workspace. Plain, grouped-query with looped depth, a DeltaNet layer beside a
    // softmax one with the short convolution, and latent feedback's exact backward at T = 5 and T = 1.
    void backwardWritesWhatItDoesNotZero()
    {
        struct Case {
            const char *what;
            TransformerShape shape;
            FeedbackMode mode;
            int T;
        };
        std::vector<Case> cases;
        cases.push_back({ "plain", tinyShape(false), FeedbackMode::Off, 5 });
        TransformerShape gqa = tinyShape(false);
        gqa.kvHeads = 1;
        gqa.loops = 2;
        cases.push_back({ "grouped-query, looped", gqa, FeedbackMode::Off, 5 });
        TransformerShape mixed = tinyShape(false);
        mixed.mixers = { Mixer::DeltaNet, Mixer::Softmax };
        mixed.shortConv = 3;
        cases.push_back({ "DeltaNet and softmax, short convolution", mixed, FeedbackMode::Off, 5 });
        cases.push_back({ "exact feedback, T 5", tinyShape(true), FeedbackMode::Exact, 5 });
        cases.push_back({ "exact feedback, T 1", tinyShape(true), FeedbackMode::Exact, 1 });
        for (const Case &c : cases) {
            Setup su(c.shape, PositionalScheme::Rope, 2, c.T);
            TransformerNet<double> net(c.shape);
            randomise(net, 5);
            Eigen::VectorXd grads[2];
            for (int run = 0; run < 2; ++run) {
                if (run == 1)
                    for (auto &layer : su.ws.layer) layer.dqkv.setConstant(std::numeric_limits<double>::quiet_NaN());
                net.zeroGrad();
                net.forward(su.ws, su.batch, su.pos, c.mode, 1);
                net.backward(su.ws, su.batch, su.pos, c.mode, 1);
                grads[run] = net.grads;
            }
            QVERIFY2(grads[0].allFinite() && grads[0].norm() > 0.0, c.what);
            QVERIFY2(grads[1] == grads[0], c.what);
        }
    }

    // Threads change nothing: the pieces of every loop are the same whatever the thread count.
    void threadsGiveTheSameNumbers()
    {
        const TransformerShape s = tinyShape(true);
        TransformerBatch batch = tinyBatch(s, 16, 40, 9);  // 640 columns: several column pieces
        PositionTables<float> pos;
        pos.build(PositionalScheme::Rope, s.dModel, s.heads, 10000.0, 40);
        std::vector<Eigen::VectorXf> grads;
        for (int threads : { 1, 2 }) {
            TransformerWorkspace<float> ws;
            ws.reserve(s, 640, 40, true);
            TransformerNet<float> net(s, threads);
            Rng rng(1);
            net.init(rng);
            net.zeroGrad();
            net.forward(ws, batch, pos, FeedbackMode::KPass, 2);
            net.backward(ws, batch, pos, FeedbackMode::KPass, 2);
            grads.push_back(net.grads);
        }
        QVERIFY(grads[0] == grads[1]);
    }
};

QTEST_APPLESS_MAIN(TestTransformerModel)
#include "tst_transformer_model.moc"
