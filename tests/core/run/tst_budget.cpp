// The one work and memory budget (core/run/budget.h): its figures round up (never "needs 2.0 GiB (at most
// 2)"), and every trainer refuses a run over it before allocating anything, with the figure in the
// message: the toy trainer (one arm, both arms at once) and the LSTM classifier (the command line's
// task=lstm-vs-mean and the depth lab's).
#include "core/run/budget.h"
#include "core/labs/training_spec.h"
#include "core/labs/depth_gradients_spec.h"
#include "core/depth/lstm_classifier.h"
#include "core/labs/attention_lab.h"
#include "core/labs/bayes_floor_lab.h"
#include "core/labs/decay_bound_lab.h"
#include "core/labs/rope_invariance_lab.h"
#include "core/training/trainer.h"

#include <cmath>

#include <QTest>

#include <stdexcept>

using namespace fb;

namespace {
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}
} // namespace

class TestBudget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void figuresRoundUp()
    {
        QCOMPARE(gibText(2.0 * GiB), std::string("2"));
        QCOMPARE(gibText(2.4 * GiB), std::string("2.4"));
        QCOMPARE(gibText(2.04 * GiB), std::string("2.1"));  // "%.1f" printed 2.0 here
        QCOMPARE(gibText(2.0 * GiB + 1), std::string("2.1"));
        QCOMPARE(gibText(0.01 * GiB), std::string("0.1"));
        QCOMPARE(flopsText(5e13), std::string("5e13"));
        QCOMPARE(flopsText(2.61e14), std::string("2.7e14"));
        QCOMPARE(flopsText(9.96e14), std::string("1e15"));
    }

    void oneMessageFormat()
    {
        QCOMPARE(checkBudget("it", { 2.4 * GiB, 1.0 }, "lower x"), std::string("it needs 2.4 GiB of memory, at most 2 GiB; lower x"));
        QCOMPARE(checkBudget("it", { 1.0, 2.61e14 }, "lower y"),
                 std::string("it needs 2.7e14 floating-point operations, at most 5e13; lower y"));
        QCOMPARE(checkBudget("it", { 2.0 * GiB, 5e13 }, "hint"), std::string());  // the limits themselves fit
        QVERIFY(!checkBudget("it", { std::nan(""), 1.0 }, "").empty());           // a broken figure never passes
    }

    void toyTrainerRefusesOverBudget()
    {
        TrainConfig c;
        c.arm = Arm::TokenOnly;
        c.batch = 4096;
        c.seqLen = 256;
        c.dHid = 1024;
        const std::string err = checkTrainConfig(c);
        QVERIFY2(contains(err, "GiB of memory, at most 2 GiB"), err.c_str());
        QVERIFY2(contains(err, "needs " + gibText(trainCost(c).bytes) + " GiB"), err.c_str());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, train(c));
        // A config just over the limit says 2.1, not 2.0: find the smallest batch over it.
        c.seqLen = 64;
        c.batch = 1;
        while (trainCost(c).bytes <= kMaxRunBytes) c.batch += 8;
        QVERIFY2(contains(checkTrainConfig(c), "needs 2.1 GiB of memory, at most 2 GiB"), checkTrainConfig(c).c_str());
        // Work: 100,000 steps at the chapter's widths fit (minutes); at the widest layers they do not.
        TrainConfig longRun;
        longRun.steps = 100000;
        QCOMPARE(checkTrainConfig(longRun), std::string());
        longRun.dHid = 1024;
        longRun.batch = 1024;
        QVERIFY2(contains(checkTrainConfig(longRun), "floating-point operations, at most 5e13"), checkTrainConfig(longRun).c_str());
        QCOMPARE(checkTrainConfig(TrainConfig {}), std::string());
    }

    void bothArmsAddUp()
    {
        // One arm fits, the two at once (arm=both trains them together) do not.
        const LabSpec &spec = trainSpec();
        ParamValues v = spec.defaults();
        TrainConfig probe;
        probe.dHid = 256;
        probe.batch = 512;
        probe.arm = Arm::LatentFeedback;
        const double latentStep = trainFlopsPerStep(probe);
        probe.arm = Arm::TokenOnly;
        const double tokenStep = trainFlopsPerStep(probe);
        const int steps = int(0.95 * kMaxRunFlops / latentStep);  // one arm fits, with 5 % to spare
        QVERIFY(steps <= 100000 && (latentStep + tokenStep) * steps > kMaxRunFlops);
        QVERIFY(setFromText(spec, v, "steps", std::to_string(steps)).empty());
        QVERIFY(setFromText(spec, v, "d_hid", "256").empty());
        QVERIFY(setFromText(spec, v, "batch", "512").empty());
        TrainConfig c;
        bool both = false;
        QVERIFY(setFromText(spec, v, "arm", "latent-feedback").empty());
        const std::string one = trainFrom(v, c, both);
        QVERIFY(setFromText(spec, v, "arm", "both").empty());
        const std::string two = trainFrom(v, c, both);
        QVERIFY2(one.empty(), one.c_str());
        QVERIFY2(contains(two, "both arms") && contains(two, "at most 5e13"), two.c_str());
    }

    void lstmClassifierRefusesOverBudget()
    {
        // The run: 22.4 GB resident before it was killed, or std::bad_alloc under a limit.
        const LabSpec &spec = lstmVsMeanSpec();
        ParamValues v = spec.defaults();
        const std::vector<std::pair<std::string, std::string>> sets { { "steps", "5" }, { "batch", "4096" },
            { "hidden", "512" }, { "embed", "512" }, { "seq_len", "1000" }, { "vocab", "10000" }, { "heldout", "100000" } };
        for (const auto &[key, value] : sets)
            QVERIFY(setFromText(spec, v, key, value).empty());
        ClassifierConfig c;
        std::vector<ClassifierArm> arms;
        const std::string err = lstmVsMeanFrom(v, c, arms);
        ClassifierConfig big;
        big.steps = 5;
        big.batch = 4096;
        big.seqLen = 1000;
        big.hidden = 512;
        big.embed = 512;
        big.vocab = 10000;
        big.heldout = 100000;
        QVERIFY2(contains(err, "needs " + gibText(classifierCost(big, ClassifierArm::Lstm).bytes) + " GiB of memory, at most 2 GiB"),
                 err.c_str());
        // trainClassifier refuses it too, before allocating.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainClassifier(big, ClassifierArm::Lstm));
        // Work alone: small memory, far too many steps of a wide LSTM.
        ClassifierConfig slow;
        slow.steps = 100000;
        slow.batch = 256;
        slow.hidden = 512;
        slow.seqLen = 100;
        slow.heldout = 16;
        QVERIFY2(contains(checkClassifierConfig(slow, { ClassifierArm::Lstm }), "floating-point operations"),
                 checkClassifierConfig(slow, { ClassifierArm::Lstm }).c_str());
        // The chapter's cell and the depth lab's values fit.
        QCOMPARE(checkClassifierConfig(ClassifierConfig {}, { ClassifierArm::Lstm, ClassifierArm::MeanPooling }), std::string());
        DepthLabConfig d;
        QCOMPARE(depthLabFrom(depthLabSpec().defaults(), d), std::string());
    }
    // The labs that allocate with their sizes check the same budget; at the maxima their specs allow
    // they fit it (and their figures are real, growing with the sizes).
    void analyticLabsFitAtTheirMaxima()
    {
        auto atMaxima = [](const LabSpec &spec) {
            ParamValues v = spec.defaults();
            for (const ParamSpec &p : spec.params)
                if (p.kind == ParamKind::Integer || p.kind == ParamKind::Real)
                    v.numbers[p.key] = p.multipleOf > 1 ? std::floor(p.max / double(p.multipleOf)) * double(p.multipleOf) : p.max;
            return v;
        };
        auto verify = [&](const LabSpec &spec, auto check, auto cost) {
            const ParamValues small = spec.defaults(), big = atMaxima(spec);
            const std::string err = check(big);
            QVERIFY2(err.find("needs") == std::string::npos, err.c_str());
            const Cost a = cost(small), b = cost(big);
            QVERIFY2(a.bytes > 0 && a.flops > 0 && b.bytes > a.bytes && b.flops > a.flops, spec.name.c_str());
            QVERIFY(b.bytes <= kMaxRunBytes && b.flops <= kMaxRunFlops);
        };
        verify(DecayBoundLab::spec(), &DecayBoundLab::check, &DecayBoundLab::cost);
        verify(RopeInvarianceLab::spec(), &RopeInvarianceLab::check, &RopeInvarianceLab::cost);
        verify(AttentionLab::spec(), &AttentionLab::check, &AttentionLab::cost);
        verify(BayesFloorLab::spec(), &BayesFloorLab::check, &BayesFloorLab::cost);
    }
};

QTEST_APPLESS_MAIN(TestBudget)
#include "tst_budget.moc"
