// The linear mixers (core/transformer/linear_mixer.h, issue 30): linear attention, DeltaNet and
// Gated DeltaNet in place of softmax attention, alone, mixed with softmax layers and combined with
// the other model options, gradient-checked in double against central differences with FullBand's
// one checker (tests/support/gradient_check.h): the relative error of each tensor's gradient below
// kTol = 1e-6, up to kEntries entries per tensor, at d 8, 2 heads, T 6, 2 layers (a step of 1e-6), and at
// d 64 with one head (d_head 64, where training takes the chunked form) and T 20. Also the forward
// against each mixer's definition written out here, decoding position by position against the
// parallel pass, the maps against the outputs they explain, the parameter counts and state bytes
// against their formulas, and the configurations that do not combine.
// FULLBAND_SHOW_ERRORS=1 prints the largest error of each configuration.
#include "core/compare/kv_footprint.h"
#include "core/labs/transformer_spec.h"
#include "core/numeric/rng.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/linear_mixer.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_batch.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_trainer.h"
#include "core/transformer/transformer_workspace.h"
#include "support/mixer_head_inputs.h"
#include "support/transformer_gradients.h"

#include <QTest>

#include <cmath>

using namespace fb;
using fb::test::HeadInputs;

namespace {

constexpr double kTol = test::kMixerTol;
constexpr int kEntries = test::kMixerEntries;
constexpr double kStep = test::kMixerStep;
constexpr int kB = 2, kT = 6;

struct Variant {
    std::vector<Mixer> mixers { Mixer::Linear, Mixer::Linear };
    PositionalScheme pos = PositionalScheme::Rope;
    FeedbackMode feedback = FeedbackMode::Off;
    int heads = 2, kvHeads = 0, loops = 1;
    int dModel = 8, T = kT;  // d 64, 1 head and T 20: d_head 64, where training takes the chunked form (a chunk and a part)
    bool rmsNorm = false, qkNorm = false, attnGate = false;
};

TransformerShape shapeOf(const Variant &v)
{
    TransformerShape s;
    s.vocab = 5;
    s.dModel = v.dModel;
    s.layers = int(v.mixers.size());
    s.heads = v.heads;
    s.kvHeads = v.kvHeads;
    s.rmsNorm = v.rmsNorm;
    s.qkNorm = v.qkNorm;
    s.attnGate = v.attnGate;
    s.loops = v.loops;
    s.feedback = v.feedback != FeedbackMode::Off;
    s.mixers = v.mixers;
    return s;
}

struct Setup {
    TransformerShape shape;
    TransformerBatch batch;
    PositionTables<double> pos;
    TransformerWorkspace<double> ws;
    Setup(const Variant &v, bool grad) : shape(shapeOf(v))
    {
        batch.resize(kB, v.T, true, false);
        Rng rng(11);
        for (int &t : batch.tokens) t = int(rng.below(std::uint64_t(shape.vocab)));
        for (int &t : batch.targets) t = int(rng.below(std::uint64_t(shape.vocab)));
        pos.build(v.pos, shape.dModel, shape.heads, 30.0, v.T);
        ws.reserve(shape, kB * v.T, v.T, grad);
    }
};

void randomise(TransformerNet<double> &net, std::uint64_t seed)
{
    test::randomiseTransformer(net, seed);
}

Mixer mixerOf(const QString &name)
{
    Mixer m = Mixer::Softmax;
    parseMixer(name.toStdString(), m);
    return m;
}

} // namespace

class TestLinearMixers : public QObject {
    Q_OBJECT
private:
    static double gradientCheck(const Variant &v, const char *what)
    {
        Setup su(v, true);
        if ((v.dModel / v.heads >= nn::kChunkedFromHead) != (su.ws.layer[0].chunkWork.size() > 0)) {
            qWarning("%s: the chunked form's scratch is not where d_head says", what);
            return 1.0;
        }
        TransformerNet<double> net(su.shape);
        randomise(net, 21);
        net.zeroGrad();
        net.forward(su.ws, su.batch, su.pos, v.feedback, 1);
        net.backward(su.ws, su.batch, su.pos, v.feedback, 1);
        const Eigen::VectorXd analytic = net.grads;
        auto loss = [&] { return net.forward(su.ws, su.batch, su.pos, v.feedback, 1); };
        test::GradCheck check;
        test::checkTransformerSlots(check, net, analytic, loss, kEntries, kStep);
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries", what, check.maxRelError, check.checked);
        if (!(analytic.norm() > 0.0)) return 1.0;
        if (!(check.maxRelError < kTol)) qWarning("%s: %s", what, check.worst.c_str());
        return check.maxRelError;
    }

    // One head through linear_mixer_forward, all positions at once (or one at a time), with its map.
    static Eigen::MatrixXd runHead(Mixer kind, const HeadInputs &in, bool stepwise, Eigen::MatrixXd *map = nullptr)
    {
        const Eigen::Index dh = in.q.rows(), T = in.q.cols(), R = nn::attentionRows(T);
        Eigen::VectorXd states(dh * dh * T), zden((dh + 1) * T);
        Eigen::MatrixXd y(dh, T), att = Eigen::MatrixXd::Constant(R, T, 7.0);
        nn::MixerHead<double> m;
        m.kind = kind;
        m.dh = dh;
        m.states = states.data();
        m.zden = zden.data();
        m.beta = in.beta.data();
        m.alpha = in.alpha.data();
        m.gateStride = 1;
        if (!stepwise) {
            nn::linear_mixer_forward<double>(m, y, in.q, in.k, in.v, 0, att.data(), R);
        } else {
            for (Eigen::Index t = 0; t < T; ++t) {
                Eigen::MatrixXd yt(dh, 1);
                nn::linear_mixer_forward<double>(m, yt, in.q.col(t), in.k.leftCols(t + 1), in.v.leftCols(t + 1), t,
                                                 att.data(), R);
                y.col(t) = yt;
            }
        }
        if (map) *map = att;
        return y;
    }

private Q_SLOTS:
    void gradients_data()
    {
        QTest::addColumn<QString>("mixers");  // one name per layer
        QTest::addColumn<int>("pos");
        QTest::addColumn<int>("feedback");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<QString>("flags");  // "r" rmsnorm, "q" qk_norm, "g" attn_gate, "2" loop 2, "w" d 64 T 20
        const int rope = int(PositionalScheme::Rope), none = int(PositionalScheme::None);
        const int sinus = int(PositionalScheme::Sinusoidal);
        const int off = int(FeedbackMode::Off), exact = int(FeedbackMode::Exact), kpass = int(FeedbackMode::KPass);
        for (const char *m : { "linear", "deltanet", "gated-deltanet" }) {
            const QString two = QString("%1,%1").arg(m);
            QTest::newRow(m) << two << rope << off << 2 << 0 << QString();
            QTest::newRow(qPrintable(QString("%1, no positions").arg(m))) << two << none << off << 2 << 0 << QString();
            QTest::newRow(qPrintable(QString("%1, kv_heads 1 of 2").arg(m))) << two << rope << off << 2 << 1 << QString();
            QTest::newRow(qPrintable(QString("%1, exact feedback").arg(m))) << two << rope << exact << 2 << 0 << QString();
            QTest::newRow(qPrintable(QString("%1, kpass feedback").arg(m))) << two << rope << kpass << 2 << 0 << QString();
            QTest::newRow(qPrintable(QString("%1 then softmax").arg(m))) << QString("%1,softmax").arg(m) << rope << off << 2
                                                                          << 0 << QString();
            QTest::newRow(qPrintable(QString("%1, rmsnorm, qk_norm, attn_gate, loop 2").arg(m)))
                << two << sinus << off << 2 << 0 << QString("rqg2");
            QTest::newRow(qPrintable(QString("%1, d_head 64 (the chunked form)").arg(m)))
                << two << rope << off << 1 << 0 << QString("w");
        }
        QTest::newRow("gated-deltanet x3, softmax (3:1 hybrid), kv_heads 2 of 4, exact feedback")
            << QString("gated-deltanet,gated-deltanet,gated-deltanet,softmax") << rope << exact << 4 << 2 << QString("q");
    }
    void gradients()
    {
        QFETCH(QString, mixers);
        QFETCH(int, pos);
        QFETCH(int, feedback);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(QString, flags);
        Variant v;
        v.mixers.clear();
        for (const QString &name : mixers.split(',')) v.mixers.push_back(mixerOf(name));
        v.pos = PositionalScheme(pos);
        v.feedback = FeedbackMode(feedback);
        v.heads = heads;
        v.kvHeads = kvHeads;
        v.rmsNorm = flags.contains('r');
        v.qkNorm = flags.contains('q');
        v.attnGate = flags.contains('g');
        v.loops = flags.contains('2') ? 2 : 1;
        if (flags.contains('w')) {
            v.dModel = 64;
            v.T = 20;
        }
        const double err = gradientCheck(v, QTest::currentDataTag());
        QVERIFY2(err < kTol, QTest::currentDataTag());
    }

    // Linear attention against its quadratic form, out_i = sum_{j<=i} (phi(k_j) . phi(q_i)) v_j /
    // sum_{j<=i} phi(k_j) . phi(q_i); the map holds exactly those weights.
    void linearAttentionIsItsQuadraticForm()
    {
        const HeadInputs in(4, 9, 3);
        Eigen::MatrixXd map;
        const Eigen::MatrixXd y = runHead(Mixer::Linear, in, false, &map);
        auto phi = [](const Eigen::VectorXd &x) {
            return x.unaryExpr([](double e) { return e > 0 ? e + 1 : std::exp(e); }).eval();  // elu + 1
        };
        for (Eigen::Index i = 0; i < 9; ++i) {
            Eigen::VectorXd num = Eigen::VectorXd::Zero(4);
            double den = 0.0;
            for (Eigen::Index j = 0; j <= i; ++j) {
                const double w = phi(in.k.col(j)).dot(phi(in.q.col(i)));
                num += w * in.v.col(j);
                den += w;
            }
            QVERIFY((y.col(i) - num / den).cwiseAbs().maxCoeff() < 1e-12);
            for (Eigen::Index j = 0; j <= i; ++j)
                QVERIFY(std::abs(map(j, i) - phi(in.k.col(j)).dot(phi(in.q.col(i))) / den) < 1e-12);
            QVERIFY(std::abs(map.col(i).head(i + 1).sum() - 1.0) < 1e-12);
            for (Eigen::Index j = i + 1; j < map.rows(); ++j) QCOMPARE(map(j, i), 0.0);
        }
    }

    // The delta rule written out with dense matrices: S_t = alpha (S (I - beta k k') + beta v k'),
    // k L2-normalised; out = S_t q. Gated DeltaNet with alpha = 1 is DeltaNet. The map's
    // coefficients give the outputs back: out_i = sum_j map(j, i) v_j.
    void deltaRuleIsItsDefinition_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("deltanet") << int(Mixer::DeltaNet);
        QTest::newRow("gated-deltanet") << int(Mixer::GatedDeltaNet);
    }
    void deltaRuleIsItsDefinition()
    {
        QFETCH(int, kind);
        const HeadInputs in(4, 9, 5);
        Eigen::MatrixXd map;
        const Eigen::MatrixXd y = runHead(Mixer(kind), in, false, &map);
        Eigen::MatrixXd S = Eigen::MatrixXd::Zero(4, 4);
        for (Eigen::Index t = 0; t < 9; ++t) {
            const Eigen::VectorXd k = in.k.col(t) / std::sqrt(in.k.col(t).squaredNorm() + 1e-6);
            const double a = Mixer(kind) == Mixer::GatedDeltaNet ? in.alpha[t] : 1.0, b = in.beta[t];
            S = a * (S * (Eigen::MatrixXd::Identity(4, 4) - b * k * k.transpose()) + b * in.v.col(t) * k.transpose());
            QVERIFY((y.col(t) - S * in.q.col(t)).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY((y.col(t) - in.v.leftCols(t + 1) * map.col(t).head(t + 1)).cwiseAbs().maxCoeff() < 1e-12);
        }
    }

    // Decoding one position at a time from the kept states gives the parallel pass's outputs.
    void stepwiseEqualsParallel_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("linear") << int(Mixer::Linear);
        QTest::newRow("deltanet") << int(Mixer::DeltaNet);
        QTest::newRow("gated-deltanet") << int(Mixer::GatedDeltaNet);
    }
    void stepwiseEqualsParallel()
    {
        QFETCH(int, kind);
        const HeadInputs in(6, 11, 9);
        Eigen::MatrixXd mapAll, mapSteps;
        const Eigen::MatrixXd all = runHead(Mixer(kind), in, false, &mapAll);
        const Eigen::MatrixXd steps = runHead(Mixer(kind), in, true, &mapSteps);
        QVERIFY((all - steps).cwiseAbs().maxCoeff() < 1e-13);
        QVERIFY((mapAll - mapSteps).cwiseAbs().maxCoeff() < 1e-13);
        // and through the whole net: the last position's loss of a batch decoded position by position
        Variant v;
        v.mixers = { Mixer(kind), Mixer::Softmax };
        Setup su(v, false);
        TransformerNet<double> net(su.shape);
        randomise(net, 4);
        const double parallel = net.forward(su.ws, su.batch, su.pos, FeedbackMode::Off, 1);
        const Eigen::MatrixXd logits = su.ws.logits.leftCols(su.ws.columns());
        const double exact = net.forward(su.ws, su.batch, su.pos, FeedbackMode::Exact, 1);
        QVERIFY(std::abs(parallel - exact) < 1e-12);
        QVERIFY((logits - su.ws.logits.leftCols(su.ws.columns())).cwiseAbs().maxCoeff() < 1e-11);
    }

    // Linear attention keeps softmax attention's projections (the parameter count at the defaults
    // stays 101,632); the delta rule adds w_beta (H x d per layer), the gated one w_alpha and b_alpha.
    void parameterCounts()
    {
        TransformerConfig c;
        QCOMPARE(transformerParameterCount(c), 101632LL);
        c.mixer = "linear";
        QCOMPARE(transformerParameterCount(c), 101632LL);
        c.mixer = "deltanet";
        QCOMPARE(transformerParameterCount(c), 101632LL + 2 * 4 * 64);
        c.mixer = "gated-deltanet";
        QCOMPARE(transformerParameterCount(c), 101632LL + 2 * (2 * 4 * 64 + 4));
        c.mixer = "gated-deltanet,softmax";
        QCOMPARE(transformerParameterCount(c), 101632LL + 2 * 4 * 64 + 4);
    }

    // Bytes a layer keeps per sequence: softmax's KV cache grows with the length, a linear mixer's
    // state does not.
    void stateBytes()
    {
        TransformerConfig c;
        c.mixer = "softmax,linear";
        QCOMPARE(transformerStateBytes(c, 0, 32), 2.0 * 4 * 16 * 32 * 4);
        QCOMPARE(transformerStateBytes(c, 0, 2048), 2.0 * 4 * 16 * 2048 * 4);
        QCOMPARE(transformerStateBytes(c, 1, 32), 4.0 * (16 * 16 + 16) * 4);
        QCOMPARE(transformerStateBytes(c, 1, 2048), 4.0 * (16 * 16 + 16) * 4);
        c.mixer = "deltanet";
        QCOMPARE(transformerStateBytes(c, 1, 500), 4.0 * 16 * 16 * 4);
        c.kvHeads = 1;
        c.mixer = "softmax";
        QCOMPARE(transformerStateBytes(c, 0, 100), 2.0 * 1 * 16 * 100 * 4);
        // the comparison's footprint: per-token bytes of the softmax layers, the linear layers' states
        TransformerConfig h;
        h.mixer = "softmax,gated-deltanet";
        const KvFootprint f = kvFootprint(h);
        QCOMPARE(f.bytesPerToken, 2.0 * 4 * 16 * 4);
        QCOMPARE(f.stateBytes, 4.0 * 16 * 16 * 4);
        QCOMPARE(f.cacheBytes, 512.0 * 32 + 4096.0);
    }

    // The lab's state heatmaps (TransformerSnapshot::states): each linear head's S_t of the probe
    // sequence at the positions kept, the last T - 1; softmax heads keep none. They are the states the
    // trained model keeps when it reads the probe's tokens alone (a batch of one), head by head and
    // position by position (a wrong head, sequence or stride would differ). With every position kept
    // (T <= 32) consecutive states differ by one rank-one update (linear attention v phi(k)', the delta
    // rule u k').
    void snapshotStates_data()
    {
        QTest::addColumn<QString>("mixer");
        QTest::addColumn<int>("seqLen");
        QTest::newRow("linear") << "linear" << 24;
        QTest::newRow("deltanet") << "deltanet" << 24;
        QTest::newRow("hybrid T 64") << "softmax,gated-deltanet" << 64;
    }
    void snapshotStates()
    {
        QFETCH(QString, mixer);
        QFETCH(int, seqLen);
        TransformerConfig c;
        c.mixer = mixer.toStdString();
        c.seqLen = seqLen;
        c.steps = 2;
        c.evalEvery = 0;
        c.batch = 4;  // the held-out set and the tables after training evaluate 4 * batch sequences
        std::vector<TransformerSnapshot> snaps;
        const TransformerResult result = trainTransformer(c, {}, [&](const TransformerSnapshot &s) { snaps.push_back(s); });
        QVERIFY(!snaps.empty() && result.model);
        const TransformerSnapshot &s = snaps.back();  // the final one, of the model's weights
        // the model alone on the probe's tokens
        const TrainedTransformer &m = *result.model;
        TransformerNet<float> net(m.shape);
        net.params = m.params;
        TransformerBatch one;
        one.resize(1, seqLen, false, false);
        for (int t = 0; t < seqLen; ++t) one.tokens[std::size_t(t)] = s.probeTokens[std::size_t(t)];
        PositionTables<float> pos;
        pos.build(c.pos, c.dModel, c.heads, c.base, seqLen);
        TransformerWorkspace<float> ws;
        ws.reserve(m.shape, seqLen, seqLen, false);
        net.forward(ws, one, pos, FeedbackMode::Off, 1);
        const int kept = std::min(seqLen, TransformerSnapshot::kStatePositions), dh = c.dModel / c.heads;
        QCOMPARE(int(s.statePositions.size()), kept);
        QCOMPARE(s.statePositions.back(), seqLen - 1);
        for (std::size_t i = 1; i < s.statePositions.size(); ++i) QVERIFY(s.statePositions[i] > s.statePositions[i - 1]);
        QCOMPARE(int(s.states.size()), c.layers * c.heads);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                const std::vector<Eigen::MatrixXf> &head = s.states[std::size_t(l * c.heads + h)];
                const bool linear = transformerShape(c, c.vocab).linear(l);
                QCOMPARE(head.size(), linear ? std::size_t(kept) : std::size_t(0));
                if (!linear) continue;
                for (std::size_t i = 0; i < head.size(); ++i) {
                    QCOMPARE(int(head[i].rows()), dh);
                    QVERIFY(head[i].allFinite());
                    const Eigen::Index t = s.statePositions[i];
                    const Eigen::Map<const Eigen::MatrixXf> alone(
                        ws.layer[std::size_t(l)].state.data() + (Eigen::Index(h) * seqLen + t) * dh * dh, dh, dh);
                    const float err = (head[i] - alone).cwiseAbs().maxCoeff(), scale = 1.0f + alone.cwiseAbs().maxCoeff();
                    QVERIFY2(err <= 1e-4f * scale, qPrintable(QStringLiteral("L%1 H%2 position %3: %4 from the model's own")
                                                                  .arg(l).arg(h).arg(t).arg(double(err))));
                }
                if (mixer == QLatin1String("linear") || mixer == QLatin1String("deltanet")) {
                    for (int t = 1; t < kept; ++t) {
                        const Eigen::MatrixXd step = (head[std::size_t(t)] - head[std::size_t(t - 1)]).cast<double>();
                        // Rank one: every column is a multiple of the longest, c. The residual r of the
                        // projections on c bounds the second singular value (|r| >= s2, the best rank-one
                        // fit's error), and |c| <= s1, so |r| <= 1e-4 |c| asks s2 <= 1e-4 s1 at least.
                        Eigen::Index j = 0;
                        step.colwise().norm().maxCoeff(&j);
                        const Eigen::VectorXd c = step.col(j);
                        const Eigen::MatrixXd r = step - c * (c.transpose() * step) / c.squaredNorm();
                        QVERIFY2(c.norm() > 1e-6 && r.norm() <= 1e-4 * c.norm(),
                                 qPrintable(QStringLiteral("L%1 H%2 t %3: longest column %4, off it %5")
                                                .arg(l).arg(h).arg(t).arg(c.norm()).arg(r.norm())));
                    }
                } else {
                    // the gated rule's state stays bounded: |S_t| <= |S_{t-1}| + |v_t| at every step
                    QVERIFY(head.back().norm() < 1e3f);
                }
            }
    }

    // What does not combine is refused with one line naming the key and what is valid.
    void refusals_data()
    {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("needle");
        QTest::newRow("unknown") << "mixer=mamba" << "mixer must be softmax, linear, deltanet or gated-deltanet";
        QTest::newRow("count") << "mixer=linear,softmax,linear" << "one per layer (layers = 2), got 3";
        QTest::newRow("empty item") << "mixer=linear," << "mixer must be";
        QTest::newRow("window") << "mixer=deltanet;window=8" << "window must be 0 with mixer deltanet";
        QTest::newRow("alibi") << "mixer=linear,softmax;pos=alibi" << "got alibi";
        QTest::newRow("factor") << "seq_len=1024;factor=4" << "factor x seq_len must be at most 2048";
        QTest::newRow("seq_len") << "seq_len=4096" << "seq_len must be";
    }
    void refusals()
    {
        QFETCH(QString, set);
        QFETCH(QString, needle);
        ParamValues v = transformerCommandSpec().defaults();
        for (const QString &kv : set.split(';')) {
            const QString key = kv.section('=', 0, 0), value = kv.section('=', 1);
            const ParamSpec *p = transformerCommandSpec().find(key.toStdString());
            QVERIFY(p);
            if (p->kind == ParamKind::Integer || p->kind == ParamKind::Real) v.numbers[key.toStdString()] = value.toDouble();
            else v.texts[key.toStdString()] = value.toStdString();
        }
        TransformerConfig c;
        c.steps = 77;
        const std::string err = transformerFrom(v, c);
        QVERIFY2(err.find(needle.toStdString()) != std::string::npos, err.c_str());
        QCOMPARE(c.steps, 77);  // unchanged
        QVERIFY(err.find('\n') == std::string::npos);
    }

    // The list is normalised: one name when every layer agrees.
    void mixerText()
    {
        std::vector<Mixer> m;
        QCOMPARE(parseMixers(" linear , linear ", 2, m), std::string());
        QCOMPARE(mixersText(m), std::string("linear"));
        QCOMPARE(parseMixers("gated-deltanet", 4, m), std::string());
        QCOMPARE(int(m.size()), 4);
        QCOMPARE(parseMixers("gated-deltanet,gated-deltanet,gated-deltanet,softmax", 4, m), std::string());
        QCOMPARE(mixersText(m), std::string("gated-deltanet,gated-deltanet,gated-deltanet,softmax"));
    }
};

QTEST_GUILESS_MAIN(TestLinearMixers)
#include "tst_linear_mixers.moc"
