// The kernels of the linear mixers (core/transformer/linear_mixer.cpp), one head at a time, at
// each head size compiled in (16, 32) and at sizes the run-time kernel takes (4, 24), and their
// chunked training form (core/transformer/chunked_mixer.cpp) against the recurrent kernels: gradients
// against central differences in double with FullBand's one checker (support/gradient_check.h).
// tst_linear_mixers checks the mixers inside the model, at d_head 4 and (the chunked form) 64.
// FULLBAND_SHOW_ERRORS=1 prints the largest error of each row.
#include "core/numeric/rng.h"
#include "core/transformer/chunked_mixer.h"
#include "core/transformer/linear_mixer.h"
#include "support/gradient_check.h"
#include "support/mixer_head_inputs.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace fb;
using fb::test::HeadInputs;

namespace {

constexpr double kTol = test::kMixerTol;
constexpr int kEntries = test::kMixerEntries;
constexpr double kStep = test::kMixerStep;

} // namespace

class TestMixerKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each compiled head size of the mixers' kernels (linear_mixer.cpp: d_head 16 and 32 at compile
    // time, any other at run time) against central differences in double: the gradients of
    // L = sum(W .* y) with respect to q, k, v and the pre-activations of beta and alpha, over T 5,
    // every entry of the gates and up to kEntries of each tensor. The model-level check above runs
    // d_head 4 (the run-time kernel) only.
    void everyKernelSizeIsItsGradient_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("dh");
        for (int dh : { 4, 16, 24, 32 })
            for (Mixer kind : { Mixer::Linear, Mixer::DeltaNet, Mixer::GatedDeltaNet })
                QTest::newRow(qPrintable(QString("%1, d_head %2").arg(QString::fromStdString(mixerName(kind))).arg(dh)))
                    << int(kind) << dh;
    }
    void everyKernelSizeIsItsGradient()
    {
        QFETCH(int, kind);
        QFETCH(int, dh);
        const Eigen::Index T = 5;
        HeadInputs in(dh, T, 11 + std::uint64_t(dh));
        Rng rng(3);
        Eigen::MatrixXd W(dh, T);
        for (Eigen::Index i = 0; i < W.size(); ++i) W.data()[i] = rng.normal();
        // the gates through their sigmoids: beta = sigma(zb), alpha = sigma(za)
        auto logit = [](double p) { return std::log(p / (1.0 - p)); };
        Eigen::VectorXd zb = in.beta.unaryExpr(logit), za = in.alpha.unaryExpr(logit);
        auto sigmoid = [](double z) { return 1.0 / (1.0 + std::exp(-z)); };
        test::HeadBuffers<double> buf(dh, T);
        Eigen::VectorXd &dbeta = buf.dbeta, &dalpha = buf.dalpha;
        auto head = [&] {
            in.beta = zb.unaryExpr(sigmoid);
            in.alpha = za.unaryExpr(sigmoid);
            return buf.head(Mixer(kind), dh, in.beta.data(), in.alpha.data(), false);
        };
        auto loss = [&] {
            const nn::MixerHead<double> m = head();
            Eigen::MatrixXd y(dh, T);
            nn::linear_mixer_forward<double>(m, y, in.q, in.k, in.v, 0, nullptr, 0);
            return W.cwiseProduct(y).sum();
        };
        loss();
        Eigen::MatrixXd dq = Eigen::MatrixXd::Zero(dh, T), dk = dq, dv = dq;
        dbeta.setZero();
        dalpha.setZero();
        nn::linear_mixer_backward<double>(head(), dq, dk, dv, W, in.q, in.k, in.v, 0, true);
        test::GradCheck check;
        test::checkTensor(check, "q", in.q.data(), dq.data(), in.q.size(), loss, kEntries, kStep);
        test::checkTensor(check, "k", in.k.data(), dk.data(), in.k.size(), loss, kEntries, kStep);
        test::checkTensor(check, "v", in.v.data(), dv.data(), in.v.size(), loss, kEntries, kStep);
        if (Mixer(kind) != Mixer::Linear) {
            const Eigen::VectorXd db = dbeta, da = dalpha;  // the loss below rewrites the head's scratch
            test::checkTensor(check, "beta", zb.data(), db.data(), T, loss, kEntries, kStep);
            if (Mixer(kind) == Mixer::GatedDeltaNet)
                test::checkTensor(check, "alpha", za.data(), da.data(), T, loss, kEntries, kStep);
        }
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries", QTest::currentDataTag(), check.maxRelError, check.checked);
        QVERIFY2(check.checked >= 3 * std::min<int>(kEntries, dh * int(T)), "every tensor was checked");
        QVERIFY2(check.maxRelError < kTol, check.worst.c_str());
    }
    // The chunked training form (chunked_mixer.h) against the recurrent kernel and against central
    // differences, in double: over T 37 (two whole chunks of 16 and a part of 5, so the state and the
    // carry cross chunk boundaries), and at d_head 4 over T 1, 16 and 17 (one position, one whole
    // chunk, a chunk and one position), and with one decay of exactly 0. Outputs, the states (and
    // linear attention's z) at the chunks' last positions and every gradient agree with the recurrent
    // form within 1e-11 (relative to the largest entry); the gradients of the chunked form itself
    // within kTol of the differences.
    void theChunkedFormIsTheRecurrentOne_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("dh");
        QTest::addColumn<int>("T");
        QTest::addColumn<bool>("zeroDecay");
        for (Mixer kind : { Mixer::Linear, Mixer::DeltaNet, Mixer::GatedDeltaNet }) {
            const QString name = QString::fromStdString(mixerName(kind));
            for (int dh : { 4, 32 })
                QTest::newRow(qPrintable(QString("%1, d_head %2, T 37").arg(name).arg(dh))) << int(kind) << dh << 37 << false;
            for (int T : { 1, 16, 17 })
                QTest::newRow(qPrintable(QString("%1, d_head 4, T %2").arg(name).arg(T))) << int(kind) << 4 << T << false;
        }
        QTest::newRow("gated-deltanet, d_head 4, T 37, alpha 0 at position 20")
            << int(Mixer::GatedDeltaNet) << 4 << 37 << true;
    }
    void theChunkedFormIsTheRecurrentOne()
    {
        QFETCH(int, kind);
        QFETCH(int, dh);
        QFETCH(int, T);
        QFETCH(bool, zeroDecay);
        HeadInputs in(dh, T, 29 + std::uint64_t(dh));
        Rng rng(5);
        Eigen::MatrixXd W(dh, T);
        for (Eigen::Index i = 0; i < W.size(); ++i) W.data()[i] = rng.normal();
        auto logit = [](double p) { return std::log(p / (1.0 - p)); };
        auto sigmoid = [](double z) { return 1.0 / (1.0 + std::exp(-z)); };
        Eigen::VectorXd zb = in.beta.unaryExpr(logit), za = in.alpha.unaryExpr(logit);
        if (zeroDecay) za[20] = -1000.0;  // sigmoid(-1000) is exactly 0 in double
        test::HeadBuffers<double> buf(dh, T);
        Eigen::VectorXd &states = buf.states, &zden = buf.zden, &dbeta = buf.dbeta, &dalpha = buf.dalpha;
        std::vector<Eigen::Index> ends;  // the chunks' last positions
        for (Eigen::Index e = nn::kMixerChunk - 1; e < T - 1; e += nn::kMixerChunk) ends.push_back(e);
        ends.push_back(T - 1);
        auto head = [&](bool chunked) {
            in.beta = zb.unaryExpr(sigmoid);
            in.alpha = za.unaryExpr(sigmoid);
            return buf.head(Mixer(kind), dh, in.beta.data(), in.alpha.data(), chunked);
        };
        struct Pass {
            Eigen::MatrixXd y, ends, dq, dk, dv;
            Eigen::VectorXd dbeta, dalpha;
        };
        auto run = [&](bool chunked) {
            Pass p;
            p.y.resize(dh, T);
            states.setConstant(std::nan(""));
            zden.setConstant(std::nan(""));
            nn::linear_mixer_forward<double>(head(chunked), p.y, in.q, in.k, in.v, 0, nullptr, 0);
            p.ends.resize(dh * dh + dh, Eigen::Index(ends.size()));
            for (std::size_t i = 0; i < ends.size(); ++i) {
                p.ends.col(Eigen::Index(i)).head(dh * dh) = states.segment(ends[i] * dh * dh, dh * dh);
                p.ends.col(Eigen::Index(i)).tail(dh) =
                    Mixer(kind) == Mixer::Linear ? Eigen::VectorXd(zden.segment(ends[i] * (dh + 1), dh)) : Eigen::VectorXd::Zero(dh);
            }
            p.dq = Eigen::MatrixXd::Zero(dh, T);
            p.dk = p.dq;
            p.dv = p.dq;
            dbeta.setZero();
            dalpha.setZero();
            nn::linear_mixer_backward<double>(head(chunked), p.dq, p.dk, p.dv, W, in.q, in.k, in.v, 0, true);
            p.dbeta = dbeta;
            p.dalpha = dalpha;
            return p;
        };
        const Pass r = run(false), c = run(true);
        auto near = [](const auto &a, const auto &b) { return (a - b).cwiseAbs().maxCoeff() <= 1e-11 * std::max(1.0, b.cwiseAbs().maxCoeff()); };
        QVERIFY2(near(c.y, r.y), "outputs");
        QVERIFY2(c.y.allFinite() && c.dq.allFinite() && c.dk.allFinite() && c.dv.allFinite(), "finite");
        QVERIFY2(near(c.ends, r.ends), "the states (and z) at the chunks' last positions");
        QVERIFY2(near(c.dq, r.dq) && near(c.dk, r.dk) && near(c.dv, r.dv), "dq, dk, dv");
        if (Mixer(kind) != Mixer::Linear) QVERIFY2(near(c.dbeta, r.dbeta), "dbeta");
        if (Mixer(kind) == Mixer::GatedDeltaNet) QVERIFY2(near(c.dalpha, r.dalpha), "dalpha");

        auto loss = [&] {
            Eigen::MatrixXd y(dh, T);
            nn::linear_mixer_forward<double>(head(true), y, in.q, in.k, in.v, 0, nullptr, 0);
            return W.cwiseProduct(y).sum();
        };
        test::GradCheck check;
        // linear attention over one position returns v whatever q and k are: their gradients are exactly
        // 0 (compared with the recurrent form's above)
        const bool qkMatter = !(Mixer(kind) == Mixer::Linear && T == 1);
        if (qkMatter) test::checkTensor(check, "q", in.q.data(), c.dq.data(), in.q.size(), loss, kEntries, kStep);
        if (qkMatter) test::checkTensor(check, "k", in.k.data(), c.dk.data(), in.k.size(), loss, kEntries, kStep);
        test::checkTensor(check, "v", in.v.data(), c.dv.data(), in.v.size(), loss, kEntries, kStep);
        if (Mixer(kind) != Mixer::Linear) test::checkTensor(check, "beta", zb.data(), c.dbeta.data(), T, loss, kEntries, kStep);
        if (Mixer(kind) == Mixer::GatedDeltaNet)
            test::checkTensor(check, "alpha", za.data(), c.dalpha.data(), T, loss, kEntries, kStep);
        if (qEnvironmentVariableIsSet("FULLBAND_SHOW_ERRORS"))
            qInfo("%s: max relative error %.3g over %d entries", QTest::currentDataTag(), check.maxRelError, check.checked);
        QVERIFY2(check.checked >= (qkMatter ? 3 : 1) * std::min<int>(kEntries, dh * T), "every tensor was checked");
        QVERIFY2(check.maxRelError < kTol, check.worst.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMixerKernels)
#include "tst_mixer_kernels.moc"
