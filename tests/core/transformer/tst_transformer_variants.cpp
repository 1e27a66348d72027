// The model options of 004_21534ea083b6ce9c.txt's "Recent Developments" (issue 29) in the tiny
// transformer (core/transformer): every option alone and all of them together, gradient-checked in
// double against central differences with FullBand's one checker (tests/support/gradient_check.h):
// the relative error of each tensor's gradient, ||a - n|| / max(||a||, ||n||), below kTol = 1e-6,
// up to kEntries entries per tensor, at d 8, 2 heads, T 6, 2 layers. Also what each option does to
// the forward pass (the window's zeros, ALiBi's slopes), decoding position by position against the
// parallel pass, and the parameter counts against each option's formula. The tasks with exact
// answers are tst_answer_tasks'.
// FULLBAND_SHOW_ERRORS=1 prints the largest error of each configuration.
#include "core/interpret/ablation.h"
#include "core/interpret/head_scores.h"
#include "core/labs/transformer_spec.h"
#include "core/numeric/rng.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_tasks.h"
#include "core/transformer/transformer_trainer.h"
#include "support/transformer_gradients.h"

#include <QTest>

#include <cmath>

using namespace fb;

namespace {

constexpr double kTol = 1e-6;
constexpr int kEntries = 16;
constexpr int kB = 2, kT = 6;

struct Variant {
    PositionalScheme pos = PositionalScheme::Rope;
    int window = 0;
    FeedbackMode feedback = FeedbackMode::Off;
    int heads = 2;
    int kvHeads = 0;
    bool rmsNorm = false;
    bool qkNorm = false;
    bool attnGate = false;
    int loops = 1;
    int layers = 2;
    bool ignored = false;  // every third target nn::kIgnoreTarget (the answer tasks' non-answers)
};

TransformerShape shapeOf(const Variant &v)
{
    TransformerShape s;
    s.vocab = 5;
    s.dModel = 8;
    s.layers = v.layers;
    s.heads = v.heads;
    s.window = v.window;
    s.kvHeads = v.kvHeads;
    s.rmsNorm = v.rmsNorm;
    s.qkNorm = v.qkNorm;
    s.attnGate = v.attnGate;
    s.loops = v.loops;
    s.feedback = v.feedback != FeedbackMode::Off;
    return s;
}

struct Setup {
    TransformerShape shape;
    TransformerBatch batch;
    PositionTables<double> pos;
    TransformerWorkspace<double> ws;
    explicit Setup(const Variant &v) : shape(shapeOf(v))
    {
        batch.resize(kB, kT, true, false);
        Rng rng(11);
        for (int &t : batch.tokens) t = int(rng.below(std::uint64_t(shape.vocab)));
        for (int &t : batch.targets) t = int(rng.below(std::uint64_t(shape.vocab)));
        if (v.ignored)
            for (std::size_t n = 0; n < batch.targets.size(); n += 3) batch.targets[n] = nn::kIgnoreTarget;
        pos.build(v.pos, shape.dModel, shape.heads, 30.0, kT);
        ws.reserve(shape, kB * kT, kT, true);
    }
};

// Parameters away from the initialisation's tiny scale, so that every term of the gradient matters.
void randomise(TransformerNet<double> &net, std::uint64_t seed, double scale = 0.4)
{
    test::randomiseTransformer(net, seed, scale);
}

TransformerConfig defaults()
{
    return TransformerConfig {};
}

} // namespace

class TestTransformerVariants : public QObject {
    Q_OBJECT
private:
    // Every tensor's gradient after forward + backward against central differences of the loss.
    static double gradientCheck(const Variant &v, const char *what)
    {
        Setup su(v);
        TransformerNet<double> net(su.shape);
        randomise(net, 21);
        net.zeroGrad();
        net.forward(su.ws, su.batch, su.pos, v.feedback, 1);
        net.backward(su.ws, su.batch, su.pos, v.feedback, 1);
        const Eigen::VectorXd analytic = net.grads;
        auto loss = [&] { return net.forward(su.ws, su.batch, su.pos, v.feedback, 1); };
        test::GradCheck check;
        test::checkTransformerSlots(check, net, analytic, loss, kEntries);
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries", what, check.maxRelError, check.checked);
        if (!(analytic.norm() > 0.0)) return 1.0;
        if (!(check.maxRelError < kTol)) qWarning("%s: %s", what, check.worst.c_str());
        return check.maxRelError;
    }

private Q_SLOTS:
    void gradients_data()
    {
        QTest::addColumn<int>("pos");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("feedback");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<QString>("flags");  // "r": norm=rmsnorm, "q": qk_norm=on, "g": attn_gate=on, "2": loop=2,
                                             // "i": every third target ignored
        const int rope = int(PositionalScheme::Rope), alibi = int(PositionalScheme::Alibi);
        const int off = int(FeedbackMode::Off), exact = int(FeedbackMode::Exact);
        QTest::newRow("window 3") << rope << 3 << off << 2 << 0 << QString();
        QTest::newRow("window 1") << rope << 1 << off << 2 << 0 << QString();
        QTest::newRow("alibi") << alibi << 0 << off << 2 << 0 << QString();
        QTest::newRow("window 2, alibi, exact feedback") << alibi << 2 << exact << 2 << 0 << QString();
        QTest::newRow("kv_heads 1 (multi-query)") << rope << 0 << off << 2 << 1 << QString();
        QTest::newRow("kv_heads 2 of 4 heads") << rope << 0 << off << 4 << 2 << QString();
        QTest::newRow("kv_heads 1, exact feedback") << rope << 0 << exact << 2 << 1 << QString();
        QTest::newRow("rmsnorm") << rope << 0 << off << 2 << 0 << QString("r");
        QTest::newRow("qk_norm") << rope << 0 << off << 2 << 0 << QString("q");
        QTest::newRow("qk_norm, kv_heads 1, no positions") << int(PositionalScheme::None) << 0 << off << 2 << 1 << QString("q");
        QTest::newRow("rmsnorm, qk_norm, exact feedback") << rope << 0 << exact << 2 << 0 << QString("rq");
        QTest::newRow("attn_gate") << rope << 0 << off << 2 << 0 << QString("g");
        QTest::newRow("attn_gate, exact feedback") << rope << 0 << exact << 2 << 0 << QString("g");
        QTest::newRow("loop 2") << rope << 0 << off << 2 << 0 << QString("2");
        QTest::newRow("loop 3, kpass feedback") << rope << 0 << int(FeedbackMode::KPass) << 2 << 0 << QString("3");
        QTest::newRow("loop 2, exact feedback") << rope << 0 << exact << 2 << 0 << QString("2");
        QTest::newRow("all: window 2, alibi, kv_heads 2 of 4, rmsnorm, qk_norm, attn_gate, loop 2, exact feedback")
            << alibi << 2 << exact << 4 << 2 << QString("rqg2");
        QTest::newRow("ignored targets") << rope << 0 << off << 2 << 0 << QString("i");
        QTest::newRow("ignored targets, exact feedback") << rope << 0 << exact << 2 << 0 << QString("i");
    }
    void gradients()
    {
        QFETCH(int, pos);
        QFETCH(int, window);
        QFETCH(int, feedback);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(QString, flags);
        Variant v;
        v.rmsNorm = flags.contains('r');
        v.qkNorm = flags.contains('q');
        v.attnGate = flags.contains('g');
        v.ignored = flags.contains('i');
        v.loops = flags.contains('3') ? 3 : flags.contains('2') ? 2 : 1;
        v.heads = heads;
        v.kvHeads = kvHeads;
        v.pos = PositionalScheme(pos);
        v.window = window;
        v.feedback = FeedbackMode(feedback);
        const double err = gradientCheck(v, QTest::currentDataTag());
        QVERIFY2(err < kTol, QTest::currentDataTag());
    }

    // The window: query i's weights are 0 on keys j <= i - window and sum to 1 over the rest.
    void windowMasksOldKeys()
    {
        Variant v;
        v.window = 3;
        Setup su(v);
        TransformerNet<double> net(su.shape);
        randomise(net, 5);
        net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
        const Eigen::Index R = nn::attentionRows(kT);
        for (const auto &layer : su.ws.layer)
            for (Eigen::Index bh = 0; bh < kB * su.shape.heads; ++bh) {
                const Eigen::Map<const Eigen::MatrixXd> att(layer.att.data() + bh * R * kT, R, kT);
                for (Eigen::Index i = 0; i < kT; ++i) {
                    double visible = 0.0;
                    for (Eigen::Index j = 0; j < R; ++j) {
                        const bool seen = j <= i && j > i - v.window;
                        if (!seen) QCOMPARE(att(j, i), 0.0);
                        else visible += att(j, i);
                    }
                    QVERIFY(std::abs(visible - 1.0) < 1e-12);
                }
            }
    }

    // The gate: what enters W_O is every head's attention output times sigmoid(W_theta LN1(x)).
    void gateMultipliesTheHeads()
    {
        Variant v;
        v.attnGate = true;
        Setup su(v);
        TransformerNet<double> net(su.shape);
        randomise(net, 7);
        net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
        const auto &a = su.ws.layer[1];
        const Eigen::Index N = su.ws.columns();
        const Eigen::MatrixXd pre = net.P(net.layout().blocks[1].Wg) * a.ln1.leftCols(N);
        const Eigen::MatrixXd gate = (1.0 + (-pre.array()).exp()).inverse().matrix();
        QVERIFY((a.atty.leftCols(N) - a.sdpa.leftCols(N).cwiseProduct(gate)).cwiseAbs().maxCoeff() < 1e-14);
        QVERIFY(a.sdpa.leftCols(N).cwiseAbs().maxCoeff() > 0.1);
    }

    // Looped depth: the same weights twice equal two layers holding copies of them; the logit lens's
    // last layer is the forward's own readout; an ablated head is off in every loop.
    void loopIsTheStackTwice()
    {
        Variant looped;
        looped.loops = 2;
        looped.layers = 1;
        Setup a(looped);
        TransformerNet<double> net(a.shape);
        randomise(net, 3);
        const double loss = net.forward(a.ws, a.batch, a.pos, FeedbackMode::Off, 1);
        QVERIFY(std::abs(net.readLayer(a.ws, a.batch, 0) - loss) < 1e-14);
        Variant twoLayers;
        twoLayers.layers = 2;
        Setup b(twoLayers);
        TransformerNet<double> copy(b.shape);
        const TransformerLayout &from = net.layout(), &to = copy.layout();
        copy.P(to.E) = net.P(from.E);
        copy.P(to.lnfw) = net.P(from.lnfw);
        copy.P(to.lnfb) = net.P(from.lnfb);
        copy.P(to.Wu) = net.P(from.Wu);
        for (int l = 0; l < 2; ++l) {
            const Eigen::Index n = to.blocks[1].ln1w.offset - to.blocks[0].ln1w.offset;
            copy.params.segment(to.blocks[std::size_t(l)].ln1w.offset, n) = net.params.segment(from.blocks[0].ln1w.offset, n);
        }
        QVERIFY(std::abs(copy.forward(b.ws, b.batch, b.pos, FeedbackMode::Off, 1) - loss) < 1e-13);
        Ablation off;
        off.heads = { { 0, 1 } };
        Ablation offBoth;
        offBoth.heads = { { 0, 1 }, { 1, 1 } };
        const double ablated = net.forward(a.ws, a.batch, a.pos, FeedbackMode::Off, 1, &off);
        QVERIFY(std::abs(copy.forward(b.ws, b.batch, b.pos, FeedbackMode::Off, 1, &offBoth) - ablated) < 1e-13);
        QVERIFY(std::abs(ablated - loss) > 1e-6);
    }

    // ALiBi's slopes m_h = 2^(-8h/H), h = 1..H: 1/16, 1/256 for two heads; 2^-1 .. 2^-8 for eight.
    void alibiSlopes()
    {
        PositionTables<double> pos;
        pos.build(PositionalScheme::Alibi, 8, 2, 10000.0, 4);
        QCOMPARE(pos.slopes.size(), std::size_t(2));
        QCOMPARE(pos.slope(0), 1.0 / 16);
        QCOMPARE(pos.slope(1), 1.0 / 256);
        pos.build(PositionalScheme::Alibi, 64, 8, 10000.0, 4);
        for (int h = 0; h < 8; ++h) QCOMPARE(pos.slope(h), std::exp2(-(h + 1.0)));
        QVERIFY(pos.pe.size() == 0 && pos.cos.size() == 0);  // nothing added to x, nothing rotated
        pos.build(PositionalScheme::Rope, 64, 8, 10000.0, 4);
        QCOMPARE(pos.slope(3), 0.0);
        // one query's weights: softmax(scale s_j - m (i - j)) over its keys
        double a[8] = { 0.3, -0.2, 0.5, 0.1, 0, 0, 0, 0 };
        const double scores[4] = { 0.3, -0.2, 0.5, 0.1 };
        nn::masked_softmax_columns<double>(a, 3, 1, 8, 0.5, 0, 0.25);
        double z = 0.0, e[4];
        for (int j = 0; j < 4; ++j) z += e[j] = std::exp(0.5 * scores[j] - 0.25 * (3 - j));
        for (int j = 0; j < 4; ++j) QVERIFY(std::abs(a[j] - e[j] / z) < 1e-15);
        for (int j = 4; j < 8; ++j) QCOMPARE(a[j], 0.0);
    }

    // Decoding one position at a time (the KV cache) gives the parallel pass's logits.
    void forwardPositionMatchesForward()
    {
        Variant v;
        v.pos = PositionalScheme::Alibi;
        v.window = 2;
        v.kvHeads = 1;
        v.rmsNorm = true;
        v.qkNorm = true;
        v.attnGate = true;
        v.loops = 2;
        Setup su(v);
        TransformerNet<double> net(su.shape);
        randomise(net, 51);
        net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
        const Eigen::MatrixXd logits = su.ws.logits.leftCols(su.ws.columns());
        TransformerWorkspace<double> cache;
        cache.reserve(su.shape, kB * kT, kT, false);
        cache.setBatch(kB, kT);
        for (int t = 0; t < kT; ++t) net.forwardPosition(cache, su.batch.tokens.data() + t * kB, nullptr, t, su.pos);
        QVERIFY((cache.logits.leftCols(kB * kT) - logits).cwiseAbs().maxCoeff() < 1e-12);
    }

    // Grouped-query attention's backward runs one task per key/value head: threads change nothing.
    void groupedQueryThreads()
    {
        TransformerShape s = shapeOf(Variant {});
        s.heads = 4;
        s.kvHeads = 1;
        TransformerBatch batch;
        batch.resize(16, 40, true, false);
        Rng rng(9);
        for (int &t : batch.tokens) t = int(rng.below(5));
        for (int &t : batch.targets) t = int(rng.below(5));
        PositionTables<float> pos;
        pos.build(PositionalScheme::Rope, s.dModel, s.heads, 10000.0, 40);
        std::vector<Eigen::VectorXf> grads;
        for (int threads : { 1, 2 }) {
            TransformerWorkspace<float> ws;
            ws.reserve(s, 640, 40, true);
            TransformerNet<float> net(s, threads);
            Rng init(1);
            net.init(init);
            net.zeroGrad();
            net.forward(ws, batch, pos, FeedbackMode::Off, 1);
            net.backward(ws, batch, pos, FeedbackMode::Off, 1);
            grads.push_back(net.grads);
        }
        QVERIFY(grads[0] == grads[1]);
    }

    // The sink share: the mean of att(0, i) over the queries i >= 1, per head and overall.
    void sinkShare()
    {
        const Eigen::Index R = 8, T = 4;
        Eigen::MatrixXf att = Eigen::MatrixXf::Zero(R, T);  // column = query
        att(0, 0) = 1.0f;
        att(0, 1) = 0.5f, att(1, 1) = 0.5f;
        att(0, 2) = 0.2f, att(2, 2) = 0.8f;
        att(0, 3) = 0.3f, att(3, 3) = 0.7f;
        double sum = 0.0;
        long long count = 0;
        HeadScores::addSink(att.data(), R, T, sum, count);
        QCOMPARE(count, 3LL);
        QVERIFY(std::abs(sum - 1.0) < 1e-6);
        // a run reports it for every head, and overall the mean of the heads (equal counts)
        TransformerConfig c;
        c.seqLen = 8;
        c.batch = 4;
        c.layers = 2;
        c.heads = 2;
        c.dModel = 8;
        c.steps = 3;
        c.evalEvery = 0;
        c.kvHeads = 1;
        c.window = 3;
        const TransformerResult r = trainTransformer(c);
        QCOMPARE(r.sinkShareByHead.size(), std::size_t(2));
        double mean = 0.0;
        for (const auto &layer : r.sinkShareByHead) {
            QCOMPARE(layer.size(), std::size_t(2));
            for (double s : layer) {
                QVERIFY(s > 0.0 && s < 1.0);
                mean += s / 4;
            }
        }
        QVERIFY(std::abs(r.sinkShare - mean) < 1e-12);
        // A linear mixer's map is no distribution (a Gated DeltaNet's weights may be negative: a
        // pure one reported -0.008): only softmax layers have a sink share, the others none (NaN)
        c.window = 0;
        c.mixer = "gated-deltanet,softmax";
        const TransformerResult hybrid = trainTransformer(c);
        QVERIFY2(hybrid.message.empty(), hybrid.message.c_str());
        for (double s : hybrid.sinkShareByHead[0]) QVERIFY(std::isnan(s));
        for (double s : hybrid.sinkShareByHead[1]) QVERIFY(s > 0.0 && s < 1.0);
        QVERIFY(std::abs(hybrid.sinkShare - (hybrid.sinkShareByHead[1][0] + hybrid.sinkShareByHead[1][1]) / 2) < 1e-12);
        c.mixer = "gated-deltanet";
        QVERIFY(std::isnan(trainTransformer(c).sinkShare));
    }

    // The count at the defaults stays the reference's 101,632; each option changes it by its formula.
    void parameterCounts()
    {
        TransformerConfig c = defaults();
        QCOMPARE(transformerParameterCount(c), 101632LL);
        const long long d = 64, L = 2, H = 4, dh = d / H;
        // grouped-query: W_K and W_V are d x (kv dh): kv = 1 saves 2 d (d - dh) per layer
        c.kvHeads = 1;
        QCOMPARE(transformerParameterCount(c), 101632LL - L * 2 * d * (d - dh));
        c.kvHeads = 2;
        QCOMPARE(transformerParameterCount(c), 101632LL - L * 2 * d * (d - 2 * dh));
        c.kvHeads = H;
        QCOMPARE(transformerParameterCount(c), 101632LL);
        c.kvHeads = 0;
        // RMSNorm drops the biases of LN1, LN2 (per layer) and LN_f; QK-norm adds 2 d_head per layer
        c.rmsNorm = true;
        QCOMPARE(transformerParameterCount(c), 101632LL - (2 * L + 1) * d);
        c.qkNorm = true;
        QCOMPARE(transformerParameterCount(c), 101632LL - (2 * L + 1) * d + L * 2 * dh);
        c.rmsNorm = false;
        QCOMPARE(transformerParameterCount(c), 101632LL + L * 2 * dh);
        c.qkNorm = false;
        // the gate adds W_theta, d x d per layer
        c.attnGate = true;
        QCOMPARE(transformerParameterCount(c), 101632LL + L * d * d);
        c.attnGate = false;
        // looped depth shares the weights: no parameter more
        c.loop = 3;
        QCOMPARE(transformerParameterCount(c), 101632LL);
        c.loop = 1;
        c.window = 8;
        QCOMPARE(transformerParameterCount(c), 101632LL);  // a mask, no parameters
        c.window = 0;
        c.pos = PositionalScheme::Alibi;
        QCOMPARE(transformerParameterCount(c), 101632LL);  // fixed slopes, no parameters
    }

    // FLOPs per step (forward + backward, 2 per multiply-add, three times the forward's products):
    // the gate adds W_theta ln1, kv_heads shrinks W_qkv, the loop multiplies the stack.
    void flops()
    {
        const TransformerConfig base = defaults();
        const double f0 = transformerFlopsPerStep(base), N = 32.0 * 31, d = 64, L = 2;
        TransformerConfig c = base;
        c.attnGate = true;
        QCOMPARE(transformerFlopsPerStep(c), f0 + 3 * L * 2 * d * d * N);
        c = base;
        c.kvHeads = 1;
        QCOMPARE(transformerFlopsPerStep(c), f0 - 3 * L * 2 * (2 * d - 2 * 16) * d * N);
        c = base;
        c.window = 4;
        c.pos = PositionalScheme::Alibi;
        c.rmsNorm = c.qkNorm = true;
        QCOMPARE(transformerFlopsPerStep(c), f0);  // masks, biases and norms: elementwise work
        const double head = 3 * 2 * 16 * d * N;  // W_u
        c = base;
        c.loop = 3;
        QCOMPARE(transformerFlopsPerStep(c), head + 3 * (f0 - head));
    }

    // Bad values and options that do not combine: one sentence naming the key and its range.
    void checks()
    {
        TransformerConfig c = defaults();
        c.window = -1;
        QVERIFY(checkTransformerConfig(c).find("window") == 0);
        c.window = 2049;
        QVERIFY(checkTransformerConfig(c).find("window") == 0);
        c.window = 256;
        QCOMPARE(checkTransformerConfig(c), std::string());
        c.window = 0;
        c.pos = PositionalScheme::Alibi;
        c.scaling = ScalingMethod::YaRN;
        QVERIFY(checkTransformerConfig(c).find("scaling") == 0);
        c = defaults();
        c.kvHeads = 3;  // does not divide 4 heads
        QVERIFY(checkTransformerConfig(c).find("kv_heads must divide heads = 4") == 0);
        c.kvHeads = 17;
        QVERIFY(checkTransformerConfig(c).find("kv_heads") == 0);
        c.kvHeads = 2;
        QCOMPARE(checkTransformerConfig(c), std::string());
        c.loop = 0;
        QVERIFY(checkTransformerConfig(c).find("loop") == 0);
        c.loop = 9;
        QVERIFY(checkTransformerConfig(c).find("loop") == 0);
        c.loop = 8;
        QCOMPARE(checkTransformerConfig(c), std::string());
    }
};

QTEST_APPLESS_MAIN(TestTransformerVariants)
#include "tst_transformer_variants.moc"
