// Gradient checks of the transformer's layers (core/transformer/transformer_layers.h, and the layers
// of core/training/layers.h it reuses), in double against central differences with FullBand's one
// checker (tests/support/gradient_check.h): the relative error of each tensor's gradient,
// ||analytic - numeric|| / max(||analytic||, ||numeric||), must stay below kTol = 1e-6. Central differences in double reach 1e-11 .. 1e-8 here (FULLBAND_SHOW_ERRORS=1
// prints the largest per layer); a missing or wrong term gives 1e-2 or more.
// Also: the layers' values against direct formulas, the causal mask, one-position attention against
// the whole sequence, and RoPE's invariance of the logits to a common shift (218.4.4).
#include "core/attention/positional.h"
#include "core/numeric/rng.h"
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_layers.h"
#include "support/gradient_check.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace fb;
using Md = Eigen::MatrixXd;
using Vd = Eigen::VectorXd;

namespace {

constexpr double kTol = 1e-6;

Md random(Rng &rng, Eigen::Index rows, Eigen::Index cols, double sd = 1.0)
{
    return test::randomMatrix(rng, rows, cols, sd);
}

#define CHECK_DONE(check, what)                                                                              \
    do {                                                                                                     \
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))                                               \
            qInfo("%s: max relative error %.3g over %d entries", what, check.maxRelError, check.checked);    \
        QVERIFY2(check.checked > 0, what);                                                                   \
        QVERIFY2(check.maxRelError < kTol, qPrintable(QString::fromStdString(check.worst)));                 \
    } while (0)

// A (3d, N) qkv buffer's view of one sequence and head, as TransformerStack reads it.
struct HeadViews {
    Eigen::Index B, d, dh;
    nn::Strided<double> view(Md &qkv, Eigen::Index part, Eigen::Index b, Eigen::Index h, Eigen::Index p0,
                             Eigen::Index n) const
    {
        return nn::Strided<double>(qkv.data() + (p0 * B + b) * 3 * d + part * d + h * dh, dh, n,
                                   Eigen::OuterStride<>(B * 3 * d));
    }
};

// The packet-wise causal softmax (attention_softmax.h) against the formula, column by column, in
// float and double: columns of every visible length from 1 to 45 (whole wide packets, a narrow
// one left over, a masked last packet), starting at p0 = 0 and p0 = 5, in groups of 4 and one by
// one. The rows past each column's visible keys hold NaN on entry: they leave exact zeros in the
// weights, and nothing of them reaches any value. Its backward against the formula too; the
// scratch's rows past the keys keep what they held.
template <typename S>
void softmaxColumnsAgainstFormula(S tol)
{
    Rng rng(11);
    const S nan = std::numeric_limits<S>::quiet_NaN(), scale = S(0.3);
    for (Eigen::Index p0 : { 0, 5 }) {
        const Eigen::Index nq = 45 - p0, rows = nn::attentionRows(45);
        const Md scores = random(rng, rows, nq, 3.0), up = random(rng, rows, nq);
        Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> a(rows, nq);
        for (Eigen::Index i = 0; i < nq; ++i)
            for (Eigen::Index j = 0; j < rows; ++j) a(j, i) = j <= p0 + i ? S(scores(j, i)) : nan;
        nn::causal_softmax_columns<S>(a.data(), p0, nq, rows, scale);
        // backward over the queries [p0, p0 + nq) and keys [0, 45): da holds NaN past row 45
        Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> da(rows, nq);
        for (Eigen::Index i = 0; i < nq; ++i)
            for (Eigen::Index j = 0; j < rows; ++j) da(j, i) = j < 45 ? S(up(j, i)) : nan;
        nn::causal_softmax_backward_columns<S>(da.data(), rows, a.data(), rows, p0, nq, 45, scale);
        for (Eigen::Index i = 0; i < nq; ++i) {
            const Eigen::Index n = p0 + i + 1;
            const double m = scores.col(i).head(n).maxCoeff();
            const Eigen::ArrayXd e = (double(scale) * (scores.col(i).head(n).array() - m)).exp();
            const Eigen::ArrayXd w = e / e.sum();
            const double dots = (w * up.col(i).head(n).array()).sum();
            for (Eigen::Index j = 0; j < rows; ++j) {
                if (j >= n) {
                    QCOMPARE(a(j, i), S(0));  // exactly: the causal mask
                    if (j < 45) QCOMPARE(da(j, i), S(0));
                    else QVERIFY(std::isnan(da(j, i)));  // untouched
                    continue;
                }
                QVERIFY2(std::abs(double(a(j, i)) - w(j)) <= double(tol) * (w(j) + 1e-30),
                         qPrintable(QStringLiteral("p0 %1, column %2, row %3").arg(p0).arg(i).arg(j)));
                const double g = double(scale) * w(j) * (up(j, i) - dots);
                QVERIFY2(std::abs(double(da(j, i)) - g) <= double(tol) * (std::abs(w(j) * up(j, i)) + w(j) * std::abs(dots) + 1e-30),
                         qPrintable(QStringLiteral("backward: p0 %1, column %2, row %3").arg(p0).arg(i).arg(j)));
            }
        }
    }
}

} // namespace

class TestTransformerLayers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // relu(W x + b) as the stack's FFN computes it: the bias and ReLU as the product's epilogue
    // (gemm_epilogue.h), in double a pass after Eigen's product
    void relu()
    {
        Rng rng(2);
        Md W = random(rng, 5, 4), x = random(rng, 4, 6), r = random(rng, 5, 6), out(5, 6);
        Vd b = random(rng, 5, 1).col(0);
        // keep every entry away from the kink at 0: a row's bias moves until none of its entries is near
        for (Eigen::Index i = 0; i < W.rows(); ++i)
            while (((W.row(i) * x).array() + b[i]).abs().minCoeff() < 0.1) b[i] += 0.25;
        nn::GemmEpilogue<double> biasRelu;
        biasRelu.bias = b.data();
        biasRelu.relu = true;
        auto loss = [&] {
            nn::product<double>(out, W, x, false, biasRelu);
            return (out.array() * r.array()).sum();
        };
        loss();
        QVERIFY((out - ((W * x).colwise() + b).cwiseMax(0.0)).norm() <= 1e-14);
        Md d = r;
        nn::relu_backward_inplace<double>(d, out);
        Vd db = Vd::Zero(5);
        nn::bias_backward<double>(db, d);
        const Md dx = W.transpose() * d;
        test::GradCheck check;
        test::checkTensor(check, "dx", x.data(), dx.data(), x.size(), loss);
        test::checkTensor(check, "dbias", b.data(), db.data(), b.size(), loss);
        CHECK_DONE(check, "relu");
        // a NaN stays NaN (a diverging run must show)
        Md nan = Md::Zero(4, 6);
        nan(2, 3) = std::numeric_limits<double>::quiet_NaN();
        nn::product<double>(out, W, nan, false, biasRelu);
        QVERIFY(std::isnan(out(0, 3)));
        QVERIFY(!std::isnan(out(0, 2)));
    }

    // x = E[tok] (+ PE(t)): the lookup and the table add, as the transformer's input stage
    void embeddingAndSinusoidal()
    {
        Rng rng(3);
        const Eigen::Index d = 6, V = 4, B = 2, T = 4, N = B * T;
        Md table = random(rng, d, V), r = random(rng, d, N), out(d, N);
        const int idx[N] = { 0, 3, 3, 1, 0, 2, 1, 3 };  // repeated tokens: their gradients add up
        PositionTables<double> pos;
        pos.build(PositionalScheme::Sinusoidal, int(d), 2, 10000.0, T);
        const Md ref = sinusoidalTable(int(T), int(d), 10000.0);  // (T, d)
        QVERIFY((pos.pe.transpose() - ref).norm() == 0.0);
        auto loss = [&] {
            nn::embedding_forward<double>(out, table, idx);
            for (Eigen::Index n = 0; n < N; ++n) out.col(n) += pos.pe.col(n / B);  // column n is at t = n / B
            return (out.array() * r.array()).sum();
        };
        Md dtable = Md::Zero(d, V);
        nn::embedding_backward<double>(dtable, r, idx);  // x += PE(t) passes the gradient through
        test::GradCheck check;
        test::checkTensor(check, "dtable", table.data(), dtable.data(), table.size(), loss);
        CHECK_DONE(check, "embedding + sinusoidal");
    }

    void rope()
    {
        Rng rng(4);
        const int d = 8, H = 2, B = 3, T = 5;
        PositionTables<double> pos;
        pos.build(PositionalScheme::Rope, d, H, 100.0, T);
        Md x = random(rng, d, B * T), r = random(rng, d, B * T), out;
        auto loss = [&] {
            out = x;
            nn::rope_forward<double>(out, pos.cos, pos.sin, 0, B);
            return (out.array() * r.array()).sum();
        };
        loss();
        // against core/attention/positional's applyRope, head by head, at position t = n / B
        const Vd theta = ropeInvFreq(d / H, 100.0);
        for (Eigen::Index n = 0; n < x.cols(); ++n)
            for (int h = 0; h < H; ++h) {
                const Vd ref = applyRope(Vd(x.col(n).segment(h * d / H, d / H)), double(n / B), theta);
                QVERIFY((out.col(n).segment(h * d / H, d / H) - ref).norm() < 1e-14);
            }
        // a block that starts mid-position (column 4 of B = 3) rotates by the same angles
        Md part = x.middleCols(4, 7);
        nn::rope_forward<double>(part, pos.cos, pos.sin, 4, B);
        QVERIFY((part - out.middleCols(4, 7)).norm() < 1e-15);
        Md d1 = r;
        nn::rope_backward_inplace<double>(d1, pos.cos, pos.sin, 0, B);
        test::GradCheck check;
        test::checkTensor(check, "dx", x.data(), d1.data(), x.size(), loss);
        CHECK_DONE(check, "rope");
    }

    // 218.4.4: (R_m q)'(R_n k) depends on n - m only, for the plain frequencies and the rescaled ones.
    void ropeLogitsShiftInvariant()
    {
        Rng rng(5);
        const int d = 16, H = 2, dh = d / H, n = 200;
        for (ScalingMethod m : { ScalingMethod::None, ScalingMethod::PI, ScalingMethod::NTK, ScalingMethod::YaRN }) {
            PositionTables<double> pos;
            pos.build(PositionalScheme::Rope, d, H, 10000.0, n, ContextExtension { m, 4.0, 32.0 });
            const Md q = random(rng, d, 1), k = random(rng, d, 1);
            auto logits = [&](Eigen::Index qm, Eigen::Index kn) {
                Md qr = q, kr = k;
                nn::rope_forward<double>(qr, pos.cos, pos.sin, qm, 1);
                nn::rope_forward<double>(kr, pos.cos, pos.sin, kn, 1);
                Vd out(H);
                for (int h = 0; h < H; ++h) out[h] = qr.col(0).segment(h * dh, dh).dot(kr.col(0).segment(h * dh, dh));
                return out;
            };
            double worst = 0.0, scale = 0.0;
            for (Eigen::Index offset : { 0, 3, 17 }) {
                const Vd ref = logits(0, offset);
                scale = std::max(scale, ref.cwiseAbs().maxCoeff());
                for (Eigen::Index shift = 1; shift + offset < n; shift += 7)
                    worst = std::max(worst, (logits(shift, shift + offset) - ref).cwiseAbs().maxCoeff());
            }
            QVERIFY2(worst < 1e-12 * std::max(scale, 1.0),
                     qPrintable(QStringLiteral("%1: %2").arg(QString::fromStdString(scalingMethodName(m))).arg(worst)));
        }
    }

    // The queries' pieces of attention_forward and attention_backward: a first half of whole packets
    // over the keys it sees, then the rest; fewer than 16 queries, and one query of the KV cache, are
    // one piece.
    void attentionPieces()
    {
        const nn::AttentionPieces t64(64), t19(19), t15(15), t1(1), t100(100);
        QCOMPARE(t64.count, 2);
        QCOMPARE(t64.first[1], 32);
        QCOMPARE(t64.size[0], 32);
        QCOMPARE(t64.size[1], 32);
        QCOMPARE(t19.count, 2);
        QCOMPARE(t19.size[0], 8);
        QCOMPARE(t19.first[1], 8);
        QCOMPARE(t19.size[1], 11);
        QCOMPARE(t100.size[0], 48);
        QCOMPARE(t100.size[1], 52);
        QCOMPARE(t15.count, 1);
        QCOMPARE(t15.size[0], 15);
        QCOMPARE(t1.count, 1);
        QCOMPARE(t1.size[0], 1);
    }

    // One (sequence, head) of causal attention inside a (3d, N) buffer of B sequences, as the stack
    // calls it: values, the mask, gradients, and queries one position at a time against the cache.
    // T = 19 runs in two pieces; the weights' and the scratch's unwritten rows hold NaN, which must
    // not reach any output. With a sliding window and ALiBi's bias too (masked_softmax.h's path).
    void causalAttention_data()
    {
        QTest::addColumn<int>("positions");
        QTest::addColumn<int>("window");
        QTest::addColumn<double>("slope");
        QTest::newRow("one piece (T 5)") << 5 << 0 << 0.0;
        QTest::newRow("two pieces (T 19)") << 19 << 0 << 0.0;
        QTest::newRow("two pieces, window 5, ALiBi 0.3") << 19 << 5 << 0.3;
    }
    void causalAttention()
    {
        QFETCH(int, positions);
        QFETCH(int, window);
        QFETCH(double, slope);
        Rng rng(6);
        const Eigen::Index B = 2, T = positions, d = 8, H = 2, dh = d / H, b = 1, h = 1;
        const double scale = 1.0 / std::sqrt(double(dh));
        const HeadViews hv { B, d, dh };
        Md qkv = random(rng, 3 * d, B * T), atty = Md::Zero(d, B * T), att(nn::attentionRows(T), T), r = random(rng, dh, T);
        att.setConstant(std::numeric_limits<double>::quiet_NaN());
        auto run = [&] {
            auto y = nn::Strided<double>(atty.data() + b * d + h * dh, dh, T, Eigen::OuterStride<>(B * d));
            nn::attention_forward<double>(y, att, hv.view(qkv, 0, b, h, 0, T), hv.view(qkv, 1, b, h, 0, T),
                                          hv.view(qkv, 2, b, h, 0, T), 0, scale, window, slope);
            return (Md(y).array() * r.array()).sum();
        };
        run();
        // against softmax(q'k / sqrt(dh) - slope (i - j)) over the keys lo <= j <= i (lo: the window's
        // first, 0 without one), 0 for the others
        const Md q = hv.view(qkv, 0, b, h, 0, T), k = hv.view(qkv, 1, b, h, 0, T), v = hv.view(qkv, 2, b, h, 0, T);
        for (Eigen::Index i = 0; i < T; ++i) {
            const Eigen::Index lo = nn::attentionFirstKey(i, window);
            Vd w = Vd::Zero(i + 1);
            for (Eigen::Index j = lo; j <= i; ++j) w[j] = std::exp(k.col(j).dot(q.col(i)) * scale - slope * double(i - j));
            w /= w.sum();
            QVERIFY((att.col(i).head(i + 1) - w).norm() < 1e-14);
            QVERIFY(att.col(i).tail(att.rows() - i - 1).isZero(0.0));  // the causal mask and the padding: exactly zero
            const Md y = nn::Strided<double>(atty.data() + b * d + h * dh, dh, T, Eigen::OuterStride<>(B * d));
            QVERIFY((y.col(i) - v.leftCols(i + 1) * w).norm() < 1e-14);
        }
        // the other sequence and head are untouched
        QVERIFY(atty.topRows(h * dh).isZero(0.0));
        // one position at a time, the earlier keys and values as the cache: the same numbers
        const Md full = atty;
        atty.setZero();
        for (Eigen::Index t = 0; t < T; ++t) {
            auto y = nn::Strided<double>(atty.data() + (t * B + b) * d + h * dh, dh, 1, Eigen::OuterStride<>(B * d));
            nn::attention_forward<double>(y, att, hv.view(qkv, 0, b, h, t, 1), hv.view(qkv, 1, b, h, 0, t + 1),
                                          hv.view(qkv, 2, b, h, 0, t + 1), t, scale, window, slope);
        }
        QVERIFY((atty - full).norm() < 1e-14);
        // gradients, with the whole sequence and position by position (the backward of the cache)
        for (bool stepwise : { false, true }) {
            run();
            Md dqkv = Md::Zero(3 * d, B * T), datt(att.rows(), T);
            datt.setConstant(std::numeric_limits<double>::quiet_NaN());
            const Md dy = r;
            if (!stepwise) {
                nn::attention_backward<double>(hv.view(dqkv, 0, b, h, 0, T), hv.view(dqkv, 1, b, h, 0, T),
                                               hv.view(dqkv, 2, b, h, 0, T), datt, dy, att, hv.view(qkv, 0, b, h, 0, T),
                                               hv.view(qkv, 1, b, h, 0, T), hv.view(qkv, 2, b, h, 0, T), 0, scale);
            } else {
                for (Eigen::Index t = T - 1; t >= 0; --t)
                    nn::attention_backward<double>(hv.view(dqkv, 0, b, h, t, 1), hv.view(dqkv, 1, b, h, 0, t + 1),
                                                   hv.view(dqkv, 2, b, h, 0, t + 1), datt, dy.col(t), att,
                                                   hv.view(qkv, 0, b, h, t, 1), hv.view(qkv, 1, b, h, 0, t + 1),
                                                   hv.view(qkv, 2, b, h, 0, t + 1), t, scale);
            }
            test::GradCheck check;
            test::checkTensor(check, "dqkv", qkv.data(), dqkv.data(), qkv.size(), run);
            CHECK_DONE(check, stepwise ? "attention, position by position" : "attention");
        }
    }

    // Float attention as the stack calls it, in whichever path takes the head (attention_kernel.h for
    // causal softmax at d_head 32 with AVX2 or AVX-512; the products for a sliding window's and ALiBi's
    // forward, whose weights the kernel's backward then reads) against the same calls in double: values,
    // weights and gradients within 1e-4 on values of order one.
    void floatAttention_data()
    {
        QTest::addColumn<int>("window");
        QTest::addColumn<double>("slope");
        QTest::newRow("causal") << 0 << 0.0;
        QTest::newRow("window 5, ALiBi 0.3") << 5 << 0.3;
    }
    void floatAttention()
    {
        QFETCH(int, window);
        QFETCH(double, slope);
        Rng rng(9);
        const Eigen::Index B = 2, T = 19, d = 64, H = 2, dh = d / H, b = 1, h = 1;
        const double scale = 1.0 / std::sqrt(double(dh));
        const HeadViews hv { B, d, dh };
        const Md qkv = random(rng, 3 * d, B * T), dy = random(rng, dh, T);
        const Eigen::MatrixXf qkvf = qkv.cast<float>(), dyf = dy.cast<float>();
        using Sf = nn::ConstStrided<float>;
        const auto viewf = [&](Eigen::Index part) {
            return Sf(qkvf.data() + b * 3 * d + part * d + h * dh, dh, T, Eigen::OuterStride<>(B * 3 * d));
        };
        Md y(dh, T), att(nn::attentionRows(T), T), datt(att.rows(), T), dqkv = Md::Zero(3 * d, B * T);
        Md qkvd = qkvf.cast<double>();  // the same inputs as float's
        nn::attention_forward<double>(y, att, hv.view(qkvd, 0, b, h, 0, T), hv.view(qkvd, 1, b, h, 0, T),
                                      hv.view(qkvd, 2, b, h, 0, T), 0, scale, window, slope);
        nn::attention_backward<double>(hv.view(dqkv, 0, b, h, 0, T), hv.view(dqkv, 1, b, h, 0, T),
                                       hv.view(dqkv, 2, b, h, 0, T), datt, dyf.cast<double>(), att,
                                       hv.view(qkvd, 0, b, h, 0, T), hv.view(qkvd, 1, b, h, 0, T),
                                       hv.view(qkvd, 2, b, h, 0, T), 0, scale, true, true);
        Eigen::MatrixXf yf(dh, T), attf(att.rows(), T), dattf(att.rows(), T), dq(dh, T), dk(dh, T), dv(dh, T);
        attf.setConstant(std::numeric_limits<float>::quiet_NaN());
        nn::attention_forward<float>(yf, attf, viewf(0), viewf(1), viewf(2), 0, float(scale), window, float(slope));
        nn::attention_backward<float>(dq, dk, dv, dattf, dyf, attf, viewf(0), viewf(1), viewf(2), 0, float(scale), true,
                                      true);
        QVERIFY2((yf.cast<double>() - y).cwiseAbs().maxCoeff() < 1e-4, "values");
        QVERIFY2((attf.cast<double>() - att).cwiseAbs().maxCoeff() < 1e-5, "weights");
        const Md dqd = hv.view(dqkv, 0, b, h, 0, T), dkd = hv.view(dqkv, 1, b, h, 0, T), dvd = hv.view(dqkv, 2, b, h, 0, T);
        QVERIFY2((dq.cast<double>() - dqd).cwiseAbs().maxCoeff() < 1e-4, "dq");
        QVERIFY2((dk.cast<double>() - dkd).cwiseAbs().maxCoeff() < 1e-4, "dk");
        QVERIFY2((dv.cast<double>() - dvd).cwiseAbs().maxCoeff() < 1e-4, "dv");
    }

    // The packet-wise softmax and its backward against the formula (softmaxColumnsAgainstFormula).
    void softmaxColumns()
    {
        // float: exp and the sums in float, within 64 of its epsilon relative to each weight
        softmaxColumnsAgainstFormula<float>(64 * std::numeric_limits<float>::epsilon());
        if (QTest::currentTestFailed()) return;
        softmaxColumnsAgainstFormula<double>(1e-12);
    }

    // The FFN of a block with its residual: out = x + W2 relu(W1 x + b1) + b2, with the products and
    // epilogues the stack uses.
    void feedForward()
    {
        Rng rng(7);
        const Eigen::Index d = 4, f = 16, N = 6;
        Md x = random(rng, d, N), W1 = random(rng, f, d), W2 = random(rng, d, f), r = random(rng, d, N);
        Md b1 = random(rng, f, 1), b2 = random(rng, d, 1), fc(f, N), out(d, N);
        nn::GemmEpilogue<double> biasRelu, residualBias;  // fc = relu(W1 x + b1), out = x + W2 fc + b2
        biasRelu.bias = b1.data();
        biasRelu.relu = true;
        residualBias.add = x.data();
        residualBias.ldAdd = d;
        residualBias.bias = b2.data();
        auto loss = [&] {
            nn::product<double>(fc, W1, x, false, biasRelu);
            nn::product<double>(out, W2, fc, false, residualBias);
            return (out.array() * r.array()).sum();
        };
        loss();
        Md dfc = Md::Zero(f, N), dx = Md::Zero(d, N), dW1 = Md::Zero(f, d), dW2 = Md::Zero(d, f);
        Vd db1 = Vd::Zero(f), db2 = Vd::Zero(d);
        nn::linear_backward<double>(dfc, dW2, db2, r, fc, W2);
        nn::relu_backward_inplace<double>(dfc, fc);
        nn::linear_backward<double>(dx, dW1, db1, dfc, x, W1);
        dx += r;  // the residual
        test::GradCheck check;
        test::checkTensor(check, "dx", x.data(), dx.data(), x.size(), loss);
        test::checkTensor(check, "dW1", W1.data(), dW1.data(), W1.size(), loss);
        test::checkTensor(check, "db1", b1.data(), db1.data(), b1.size(), loss);
        test::checkTensor(check, "dW2", W2.data(), dW2.data(), W2.size(), loss);
        test::checkTensor(check, "db2", b2.data(), db2.data(), b2.size(), loss);
        CHECK_DONE(check, "ffn");
    }

    // The GLU fusion x = (W_a u + b_a) * sigmoid(W_b u + b_b), u = [e; h] (218.6.2).
    void gluFusion()
    {
        Rng rng(8);
        const Eigen::Index d = 3, N = 5;
        Md u = random(rng, 2 * d, N), W = random(rng, 2 * d, 2 * d), bias = random(rng, 2 * d, 1), r = random(rng, d, N);
        Md fz(2 * d, N), x(d, N), sig(d, N);
        auto loss = [&] {
            nn::linear_forward<double>(fz, u, W, Vd(bias.col(0)));
            nn::glu_forward<double>(x, sig, fz);
            return (x.array() * r.array()).sum();
        };
        loss();
        Md dfz = Md::Zero(2 * d, N), du = Md::Zero(2 * d, N), dW = Md::Zero(2 * d, 2 * d);
        Vd db = Vd::Zero(2 * d);
        nn::glu_backward<double>(dfz, r, fz, sig);
        nn::linear_backward<double>(du, dW, db, dfz, u, W);
        test::GradCheck check;
        test::checkTensor(check, "du", u.data(), du.data(), u.size(), loss);
        test::checkTensor(check, "dW", W.data(), dW.data(), W.size(), loss);
        test::checkTensor(check, "db", bias.data(), db.data(), bias.size(), loss);
        CHECK_DONE(check, "glu fusion");
    }

    void crossEntropy()
    {
        Rng rng(9);
        const Eigen::Index V = 16, N = 8;
        Md logits = random(rng, V, N, 2.0), probs(V, N);
        Vd colmax(N), logsum(N);
        int targets[N];
        for (Eigen::Index n = 0; n < N; ++n) targets[n] = int(rng.below(V));
        logits(3, 4) = 90.0;  // the stable softmax must not overflow
        auto loss = [&] { return nn::crossentropy_forward<double>(logits, targets, probs, colmax, logsum) / double(N); };
        double expected = 0.0;
        for (Eigen::Index n = 0; n < N; ++n) {
            const double m = logits.col(n).maxCoeff();
            expected += std::log((logits.col(n).array() - m).exp().sum()) + m - logits(targets[n], n);
        }
        QVERIFY(std::abs(loss() - expected / double(N)) < 1e-13);
        // (the gradient is checked at ordinary logits: next to a logit of 90, central differences
        // lose their digits to the rounding of the loss)
        logits(3, 4) = 1.5;
        loss();
        Md dlogits = Md::Zero(V, N);
        nn::crossentropy_backward<double>(dlogits, probs, targets, 1.0);
        test::GradCheck check;
        test::checkTensor(check, "dlogits", logits.data(), dlogits.data(), logits.size(), loss);
        CHECK_DONE(check, "cross entropy");
    }
};

QTEST_APPLESS_MAIN(TestTransformerLayers)
#include "tst_transformer_layers.moc"
