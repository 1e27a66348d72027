// Taking the trained transformer apart (core/interpret/), on hand-made inputs (no model trained):
//   - the keys that name what to ablate (heads, layers, FFNs, the feedback gate), and what they refuse;
//   - previous-token and induction scores on hand-made attention patterns (1e-12);
//   - the phase change on hand-made curves;
//   - the replay's run history stays within its bound, evenly spaced, the newest offer always last.
// The checks against a trained model are tst_interpret's.
#include "core/interpret/ablation.h"
#include "core/interpret/head_scores.h"
#include "core/interpret/phase_change.h"
#include "core/interpret/run_history.h"
#include "core/transformer/transformer_layers.h"

#include <QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace fb;

namespace {

// att(key j, query i) = att[i * R + j] of a hand-made (T, T) pattern given as rows = queries
std::vector<float> block(const Eigen::MatrixXd &pattern, Eigen::Index R)
{
    const Eigen::Index T = pattern.rows();
    std::vector<float> att(std::size_t(R * T), 0.0f);
    for (Eigen::Index i = 0; i < T; ++i)
        for (Eigen::Index j = 0; j <= i; ++j) att[std::size_t(i * R + j)] = float(pattern(i, j));
    return att;
}

} // namespace

class TestInterpretHandMade : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");  // the names, or "error"
        QTest::newRow("two heads") << "L2H1,L2H3" << "L2H1,L2H3";
        QTest::newRow("a layer") << "L1" << "L1H1,L1H2,L1H3,L1H4";
        QTest::newRow("repeats kept once") << "L2H2, l2h2,L1H1" << "L2H2,L1H1";
        QTest::newRow("layer beyond") << "L3H1" << "error";
        QTest::newRow("head beyond") << "L1H5" << "error";
        QTest::newRow("zero-based") << "L0H1" << "error";
        QTest::newRow("empty item") << "L1H1," << "error";
        QTest::newRow("no layer") << "H1" << "error";
        QTest::newRow("trailing") << "L1H1x" << "error";
        QTest::newRow("huge") << "L99999999999H1" << "error";
        QTest::newRow("empty") << "" << "error";
    }
    void headList()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        std::vector<HeadId> heads;
        const std::string err = parseHeadList(text.toStdString(), 2, 4, heads);
        if (expected == QLatin1String("error")) {
            QVERIFY(err.rfind("ablate must be", 0) == 0);
            QVERIFY(err.find("layer in 1..2, head in 1..4") != std::string::npos);
            return;
        }
        QVERIFY2(err.empty(), err.c_str());
        QStringList names;
        for (const HeadId &id : heads) names << QString::fromStdString(headName(id));
        QCOMPARE(names.join(QLatin1Char(',')), expected);
    }

    // The key ablate in full: heads, layers, FFNs and the feedback gate.
    void ablationList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("feedback");
        QTest::addColumn<QString>("expected");  // the names, or "error"
        QTest::newRow("heads and an FFN") << "L2H1,F1" << false << "L2H1,F1";
        QTest::newRow("FFN repeats kept once") << "F2,f2,L1H2" << false << "L1H2,F2";
        QTest::newRow("feedback") << "feedback,F1" << true << "F1,feedback";
        QTest::newRow("feedback without it") << "feedback" << false << "error";
        QTest::newRow("FFN beyond") << "F3" << false << "error";
        QTest::newRow("FFN zero") << "F0" << false << "error";
        QTest::newRow("FFN trailing") << "F1H1" << false << "error";
    }
    void ablationList()
    {
        QFETCH(QString, text);
        QFETCH(bool, feedback);
        QFETCH(QString, expected);
        Ablation a;
        const std::string err = parseAblation(text.toStdString(), 2, 4, feedback, a);
        if (expected == QLatin1String("error")) {
            QVERIFY(err.rfind("ablate must be", 0) == 0);
            QVERIFY(err.find("layer in 1..2, head in 1..4") != std::string::npos);
            QVERIFY(a.empty());
            return;
        }
        QVERIFY2(err.empty(), err.c_str());
        QStringList names;
        for (const std::string &name : ablationNames(a)) names << QString::fromStdString(name);
        QCOMPARE(names.join(QLatin1Char(',')), expected);
        std::vector<HeadId> heads;  // the head list alone refuses FFNs
        QCOMPARE(parseHeadList(text.toStdString(), 2, 4, heads).empty(), !text.contains(QLatin1Char('F'), Qt::CaseInsensitive) && !feedback);
    }

    // Hand-made patterns, T = 6 (R = 8): a pure previous-token head, a pure induction head for the
    // repeat a = 0, s = 3, and the uniform causal head.
    void headScores()
    {
        const Eigen::Index T = 6, R = nn::attentionRows(T);
        Eigen::MatrixXd prev = Eigen::MatrixXd::Zero(T, T), ind = prev, uniform = prev;
        prev(0, 0) = 1.0;
        for (Eigen::Index i = 1; i < T; ++i) prev(i, i - 1) = 1.0;
        for (Eigen::Index i = 0; i < T; ++i) {
            if (i >= 3) ind(i, i - 3 + 1) = 1.0;
            else ind(i, i) = 1.0;
            for (Eigen::Index j = 0; j <= i; ++j) uniform(i, j) = 1.0 / double(i + 1);
        }
        auto score = [&](const Eigen::MatrixXd &p, bool induction) -> double {
            const std::vector<float> att = block(p, R);
            double sum = 0.0;
            long long count = 0;
            if (induction) HeadScores::addInduction(att.data(), R, T, 0, 3, sum, count);
            else HeadScores::addPreviousToken(att.data(), R, T, sum, count);
            if (count != (induction ? 3 : 5)) return std::nan("");  // queries 3..5, or 1..5
            return sum / double(count);
        };
        QVERIFY(std::abs(score(prev, false) - 1.0) < 1e-12);
        QVERIFY(std::abs(score(ind, false) - 0.0) < 1e-12);  // i = 3..5 attend i - 2
        QVERIFY(std::abs(score(ind, true) - 1.0) < 1e-12);
        QVERIFY(std::abs(score(prev, true) - 0.0) < 1e-12);
        // uniform: query i gives key i - 1 the weight 1 / (i + 1), i = 1..5; key i - 2 likewise
        const double prevUniform = (1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 5.0;
        const double indUniform = (1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 3.0;
        QVERIFY(std::abs(score(uniform, false) - prevUniform) < 1e-7);  // float weights
        QVERIFY(std::abs(score(uniform, true) - indUniform) < 1e-7);
    }

    void phaseChange()
    {
        const std::vector<int> steps { 0, 100, 200, 300, 400, 500 };
        // central slopes: 200: -0.0085, 300: -0.012, 400: -0.0045 per step
        QCOMPARE(PhaseChange::step(steps, { 2.7, 2.7, 2.6, 1.0, 0.2, 0.1 }), 300);
        QCOMPARE(PhaseChange::step(steps, { 2.7, 2.7, 2.7, 2.7, 2.7, 2.7 }), -1);  // flat: none
        QCOMPARE(PhaseChange::step(steps, { 1.0, 1.1, 1.2, 1.3, 1.4, 1.5 }), -1);  // rising: none
        QCOMPARE(PhaseChange::step(steps, { 2.7, 0.5, 0.3, 0.2, 0.1, 0.1 }), 100);  // never the first point
        QCOMPARE(PhaseChange::step(steps, { 2.7, 2.7, 2.7, 2.7, 2.7, 0.1 }), 400);  // nor the last
        QCOMPARE(PhaseChange::step({ 0, 100 }, { 2.0, 1.0 }), 100);
        QCOMPARE(PhaseChange::step({ 0 }, { 2.0 }), -1);
        const double nan = std::nan("");
        QCOMPARE(PhaseChange::step(steps, { nan, nan, 2.6, 1.0, nan, nan }), 300);  // the finite points
        QCOMPARE(PhaseChange::step(steps, { 2.7, nan, 2.6, 1.0, nan, 0.5 }), 300);  // -0.007 against -0.0057
    }

    // A long run in a small history: never more than capacity + 1 entries, the kept ones evenly
    // spaced from step 0, the newest offer last; a short run is kept whole.
    void runHistoryBounded()
    {
        RunHistory<int> h(8);
        for (int step = 0; step < 5; ++step) h.add(step, step * 10);
        QCOMPARE(int(h.size()), 5);
        QCOMPARE(h.value(4), 40);
        for (int step = 5; step < 1000; ++step) {
            h.add(step, step * 10);
            QVERIFY(h.size() <= h.capacity() + 1);
        }
        QVERIFY(h.size() >= h.capacity() / 2);
        QCOMPARE(h.step(0), 0);
        QCOMPARE(h.step(h.size() - 1), 999);  // the newest, kept or not
        QCOMPARE(h.value(h.size() - 1), 9990);
        const int stride = int(h.stride());
        QVERIFY(stride >= 64);  // 1000 offers in 8 entries
        for (std::size_t i = 0; i + 2 < h.size(); ++i) QCOMPARE(h.step(i + 1) - h.step(i), stride);
        QCOMPARE(int(h.indexAt(-5)), 0);
        QCOMPARE(h.step(h.indexAt(stride + 1)), stride);
        QCOMPARE(int(h.indexAt(5000)), int(h.size()) - 1);
        h.clear();
        QVERIFY(h.empty());
        QCOMPARE(int(h.stride()), 1);
    }
};

QTEST_GUILESS_MAIN(TestInterpretHandMade)
#include "tst_interpret_hand_made.moc"
