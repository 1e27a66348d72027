// `fullband compute`: the built executable, run as a user would, reproduces the chapter's numbers
// and refuses bad input with exit code 2 and one line on stderr.
#include "support/fuzzy.h"
#include "support/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

namespace {

using Run = fb::test::CliRun;

Run runCompute(const QStringList &args)
{
    return fb::test::runFullband(QStringList { QStringLiteral("compute") } + args);
}

} // namespace

class TestComputeCli : public QObject {
    Q_OBJECT
private:
    // Runs compute with args, expects exit 0, nothing on stderr, one JSON object on stdout.
    QJsonObject json(const QStringList &args)
    {
        const Run r = runCompute(args);
        if (r.exitCode != 0 || !r.err.isEmpty()) {
            qWarning("compute %s: exit %d, stderr: %s", qPrintable(args.join(' ')), r.exitCode, r.err.constData());
            return {};
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) return {};
        return doc.object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN must point at the fullband executable");
    }
    void decayBound()
    {
        const QJsonObject o = json({ "decay-bound" });
        const QJsonArray distance = o["distance"].toArray(), bound = o["bound"].toArray();
        QCOMPARE(distance.size(), 512);
        QCOMPARE(bound.size(), 512);
        for (int i = 0; i < 512; ++i) QCOMPARE(distance[i].toDouble(), double(i + 1));
        FB_FUZZY_COMPARE(bound[0].toDouble(), 15.95, 0.005);
        FB_FUZZY_COMPARE(bound[63].toDouble(), 5.70, 0.005);
        FB_FUZZY_COMPARE(bound[511].toDouble(), 2.99, 0.005);
        const QJsonObject longer = json({ "decay-bound", "--set", "d=128", "--set=max_distance=2000", "--set",
                                          "scaling=yarn", "--set", "factor=4" });
        QCOMPARE(longer["bound"].toArray().size(), 2000);
    }
    void ropeInvariance()
    {
        const QJsonObject o = json({ "rope-invariance" });
        const double ref = o["reference_logit"].toDouble(), dev = o["max_deviation"].toDouble();
        QVERIFY(std::abs(ref) > 1e-3);
        QVERIFY2(dev <= 1e-12 * std::abs(ref), qPrintable(QStringLiteral("%1 vs %2").arg(dev).arg(ref)));
        const QJsonArray rope = o["rope_logits"].toArray(), sinus = o["sinusoidal_logits"].toArray();
        QCOMPARE(rope.size(), 256);
        QCOMPARE(sinus.size(), 256);
        double lo = INFINITY, hi = -INFINITY;
        for (const QJsonValue &v : sinus) {
            lo = std::min(lo, v.toDouble());
            hi = std::max(hi, v.toDouble());
        }
        QCOMPARE(o["sinusoidal_min"].toDouble(), lo);
        QCOMPARE(o["sinusoidal_max"].toDouble(), hi);
        QVERIFY(hi - lo > 1.0);  // the additive scheme drifts
        // The chapter's printed lines, from the same torch.manual_seed(0) draws.
        QVERIFY(std::abs(ref - 1.634715) <= 5e-7);
        QCOMPARE(o["max_deviation_float32"].toDouble(), 0.0);
        QVERIFY(std::abs(lo - 17.058) <= 5e-4 && std::abs(hi - 41.833) <= 5e-4);
        const QJsonObject far = json({ "rope-invariance", "--set", "positions=65536", "--set", "offset=-300" });
        QVERIFY(far["max_deviation"].toDouble() <= 1e-12 * std::abs(far["reference_logit"].toDouble()));
    }
    void contextExtension()
    {
        const QJsonObject plain = json({ "context-extension" });
        const QJsonArray f = plain["inv_freq"].toArray();
        QCOMPARE(f.size(), 32);
        for (int i = 0; i < 32; ++i) FB_FUZZY_COMPARE(f[i].toDouble(), std::pow(10000.0, -2.0 * i / 64), 1e-16);
        QCOMPARE(plain["base"].toDouble(), 10000.0);
        QCOMPARE(plain["attention_factor"].toDouble(), 1.0);
        const QJsonObject yarn = json({ "context-extension", "--set", "method=yarn", "--set", "factor=8" });
        FB_FUZZY_COMPARE(yarn["attention_factor"].toDouble(), 0.1 * std::log(8.0) + 1.0, 1e-15);
        const QJsonObject ntk = json({ "context-extension", "--set", "method=ntk", "--set", "factor=8" });
        FB_FUZZY_COMPARE(ntk["base"].toDouble(), 10000.0 * std::pow(8.0, 64.0 / 62.0), 1e-6);
    }
    void attention()
    {
        const QJsonObject o = json({ "attention" });
        const QJsonArray weights = o["weights"].toArray();
        QCOMPARE(weights.size(), 4);
        QCOMPARE(o["entropy"].toArray().size(), 4);
        QCOMPARE(o["tokens"].toArray().size(), 12);
        for (const QJsonValue &head : weights) {
            const QJsonArray rows = head.toArray();
            QCOMPARE(rows.size(), 12);
            for (const QJsonValue &row : rows) {
                double sum = 0.0;
                for (const QJsonValue &w : row.toArray()) sum += w.toDouble();
                QCOMPARE(row.toArray().size(), 12);
                FB_FUZZY_COMPARE(sum, 1.0, 1e-12);
            }
        }
        const QJsonObject sentence = json({ "attention", "--set", "content=sentence", "--set", "causal=1" });
        const QJsonArray tokens = sentence["tokens"].toArray();
        QCOMPARE(tokens.size(), 11);
        QCOMPARE(tokens[1].toString(), QStringLiteral("cat"));
        QCOMPARE(sentence["weights"].toArray()[0].toArray()[0].toArray()[1].toDouble(), 0.0);
    }
    void capacity()
    {
        const QJsonObject o = json({ "capacity" });
        FB_FUZZY_COMPARE(o["token_bits"].toDouble(), 16.97, 0.005);
        FB_FUZZY_COMPARE(o["latent_bits"].toDouble(), 7084.9, 0.05);
        FB_FUZZY_COMPARE(o["ratio"].toDouble(), 417.6, 0.05);
        FB_FUZZY_COMPARE(json({ "capacity", "--set", "vocab=256000" })["token_bits"].toDouble(), 17.97, 0.005);
        FB_FUZZY_COMPARE(json({ "capacity", "--set", "d=8192" })["latent_bits"].toDouble(), 14169.8, 0.05);
    }
    void accounting()
    {
        const QJsonObject o = json({ "accounting" });
        FB_FUZZY_COMPARE(o["param_overhead"].toDouble(), 0.0104, 0.00005);
        FB_FUZZY_COMPARE(o["decode_overhead"].toDouble(), 0.0104, 0.00005);
        FB_FUZZY_COMPARE(o["phase_multiplier"].toDouble(), 1.367, 0.0005);
        FB_FUZZY_COMPARE(o["run_multiplier"].toDouble(), 1.073, 0.0005);
        FB_FUZZY_COMPARE(o["total_multiplier"].toDouble(), 1.085, 0.0005);
        FB_FUZZY_COMPARE(o["saving"].toDouble(), 0.277, 0.0005);
    }
    void kvCache()
    {
        const QJsonObject o = json({ "kv-cache" });
        QCOMPARE(o["bytes_per_token"].toDouble(), 327680.0);
        QCOMPARE(o["bytes"].toDouble(), 327680.0 * 131072);
        FB_FUZZY_COMPARE(json({ "kv-cache", "--set", "kv_heads=64" })["bytes"].toDouble() / 1e9, 344.0, 0.5);
    }
    void bayesFloor()
    {
        const QJsonObject o = json({ "bayes-floor" });
        QCOMPARE(o["analytic"].toDouble(), 0.5);
        FB_FUZZY_COMPARE(o["monte_carlo"].toDouble(), 0.4999, 0.002);
    }
    // 218.1: "Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])" and
    // "Input gradient norm: 37.9606" (PyTorch's float32 37.9606094, FullBand's double 37.9606080).
    void residualBlock()
    {
        const QJsonObject o = json({ "residual-block" });
        FB_FUZZY_COMPARE(o["input_grad_norm"].toDouble(), 37.9606, 5e-5 + 1e-5);
        QCOMPARE(o["input_shape"].toArray(), (QJsonArray { 2, 16, 8, 8 }));
        QCOMPARE(o["output_shape"].toArray(), (QJsonArray { 2, 16, 8, 8 }));
        const QJsonArray printed = o["printed"].toArray();
        QCOMPARE(printed.size(), 2);
        QCOMPARE(printed[0].toString(),
                 QStringLiteral("Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])"));
        QCOMPARE(printed[1].toString(), QStringLiteral("Input gradient norm: 37.9606"));
        // The shortcut's share: without it the same block passes back far less.
        FB_FUZZY_COMPARE(o["plain_input_grad_norm"].toDouble(), 15.7796357027, 1e-9);
        const QJsonObject silent = json({ "residual-block", "--set", "branch_gain=0" });
        QVERIFY(silent["plain_input_grad_norm"].toDouble(-1) == 0.0);
        QCOMPARE(silent["input_grad_norm"].toDouble(), silent["identity_grad_norm"].toDouble());
    }
    // 218.4.5: "Positional encoding range: [-1.000, 1.000]" and "Output norm: 1.7207".
    void mha()
    {
        const QJsonObject o = json({ "mha" });
        FB_FUZZY_COMPARE(o["pe_min"].toDouble(), -1.000, 5e-4);
        FB_FUZZY_COMPARE(o["pe_max"].toDouble(), 1.000, 5e-4);
        FB_FUZZY_COMPARE(o["output_norm"].toDouble(), 1.7207, 5e-5 + 1e-6);
        QCOMPARE(o["output_shape"].toArray(), (QJsonArray { 3, 12, 64 }));
        const QJsonArray printed = o["printed"].toArray();
        QCOMPARE(printed.size(), 3);
        QCOMPARE(printed[0].toString(), QStringLiteral("Input: torch.Size([3, 12, 64]), Output: torch.Size([3, 12, 64])"));
        QCOMPARE(printed[1].toString(), QStringLiteral("Positional encoding range: [-1.000, 1.000]"));
        QCOMPARE(printed[2].toString(), QStringLiteral("Output norm: 1.7207"));
        QCOMPARE(json({ "mha", "--set", "heads=8", "--set", "seq_len=20" })["weights"].toArray().size(), 8);
    }
    // 218.6.2: "mean gate value 0.495, fraction of gates above 0.5: 0.493" and "with the h columns
    // zeroed, sensitivity to h_t: 0.0e+00".
    void gluFusion()
    {
        const QJsonObject o = json({ "glu-fusion" });
        FB_FUZZY_COMPARE(o["mean_gate"].toDouble(), 0.495, 5e-4 + 1e-6);
        FB_FUZZY_COMPARE(o["fraction_open"].toDouble(), 0.493, 5e-4);
        QCOMPARE(o["gates_open"].toInt(), 1009);
        QCOMPARE(o["gate_count"].toInt(), 2048);
        QVERIFY(o["sensitivity_h_zeroed"].toDouble(-1) == 0.0);
        FB_FUZZY_COMPARE(o["sensitivity"].toDouble(), 2.2596070691, 1e-9);
        QCOMPARE(o["next_input_shape"].toArray(), (QJsonArray { 4, 512 }));
        const QJsonArray printed = o["printed"].toArray();
        QCOMPARE(printed.size(), 4);
        QCOMPARE(printed[2].toString(), QStringLiteral("mean gate value 0.495, fraction of gates above 0.5: 0.493"));
        QCOMPARE(printed[3].toString(), QStringLiteral("with the h columns zeroed, sensitivity to h_t: 0.0e+00"));
        const QJsonObject overhead = o["overhead"].toObject();
        QCOMPARE(overhead["fusion_params"].toDouble(), 4.0 * 512 * 512);
        QCOMPARE(overhead["fusion_flops"].toDouble(), 8.0 * 512 * 512);
        QCOMPARE(overhead["stack_params"].toDouble(), 12.0 * 512 * 512 * 32);
        QCOMPARE(overhead["stack_flops"].toDouble(), 24.0 * 512 * 512 * 32);
        FB_FUZZY_COMPARE(overhead["param_ratio"].toDouble(), 0.0104, 0.00005);
        // The channel opened halfway, and closed: exactly 0 at alpha = 0.
        FB_FUZZY_COMPARE(json({ "glu-fusion", "--set", "alpha=0.5" })["sensitivity"].toDouble(), 1.0524599962, 1e-9);
        QVERIFY(json({ "glu-fusion", "--set", "alpha=0" })["sensitivity"].toDouble(-1) == 0.0);
    }
    void help()
    {
        const Run r = runCompute({ "--help" });
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        for (const char *lab : { "decay-bound", "rope-invariance", "context-extension", "attention", "capacity",
                                 "accounting", "kv-cache", "bayes-floor", "residual-block", "mha", "glu-fusion" })
            QVERIFY2(text.contains(QLatin1String(lab)), lab);
        QVERIFY(text.contains(QStringLiteral("max_distance: an integer in [1, 65536], default 512")));
        QVERIFY(text.contains(QStringLiteral("snr: a number in [0, 1000000], default 10")));
    }
    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("errorPart");  // the key (or the problem) the one stderr line names
        QTest::newRow("no lab") << QStringList {} << "compute needs a lab";
        QTest::newRow("unknown lab") << QStringList { "rope" } << "unknown lab 'rope'";
        QTest::newRow("extra argument") << QStringList { "capacity", "4096" } << "extra argument '4096'";
        QTest::newRow("unknown key") << QStringList { "capacity", "--set", "width=4096" } << "unknown key 'width'";
        QTest::newRow("not a number") << QStringList { "capacity", "--set", "d=wide" } << "d (coordinates) must be an integer in [1, 1048576]";
        QTest::newRow("no equals") << QStringList { "capacity", "--set", "d" } << "--set expects KEY=VALUE";
        QTest::newRow("unknown option") << QStringList { "capacity", "--fast" } << "Unknown option 'fast'";
        QTest::newRow("odd d") << QStringList { "decay-bound", "--set", "d=63" } << "d must be an even integer in [2, 1024]";
        QTest::newRow("base 1") << QStringList { "decay-bound", "--set", "base=1" } << "base must be a number in [1.0001";
        QTest::newRow("absurd distance") << QStringList { "decay-bound", "--set", "max_distance=100000000" } << "max_distance";
        QTest::newRow("negative snr") << QStringList { "capacity", "--set", "snr=-1" } << "snr must be a number in [0, 1000000]";
        QTest::newRow("vocab 1") << QStringList { "capacity", "--set", "vocab=1" } << "vocab";
        QTest::newRow("layers 0") << QStringList { "accounting", "--set", "layers=0" } << "layers must be an integer in [1, 1000]";
        QTest::newRow("phi 2") << QStringList { "accounting", "--set", "phi=2" } << "phi must be a number in [0, 1]";
        QTest::newRow("rho nan") << QStringList { "accounting", "--set", "rho=nan" } << "rho must be";
        QTest::newRow("tokens inf") << QStringList { "kv-cache", "--set", "tokens=inf" } << "tokens";
        QTest::newRow("heads do not divide") << QStringList { "attention", "--set", "d_model=66" } << "heads must divide d_model";
        QTest::newRow("odd rope head") << QStringList { "attention", "--set", "positional=rope", "--set", "heads=8", "--set", "d_model=72" }
                                       << "d_model / heads must be even";
        QTest::newRow("n 10000") << QStringList { "attention", "--set", "n=10000" } << "n (tokens) must be an integer in [1, 512]";
        QTest::newRow("channels 0") << QStringList { "residual-block", "--set", "channels=0" } << "channels must be an integer in [1, 32]";
        QTest::newRow("mha heads") << QStringList { "mha", "--set", "heads=5" } << "heads must be an integer from 1 to d_model that divides d_model (64)";
        QTest::newRow("mha odd width") << QStringList { "mha", "--set", "d_model=63" } << "d_model must be an even integer in [2, 256]";
        QTest::newRow("alpha 2") << QStringList { "glu-fusion", "--set", "alpha=2" } << "alpha must be a number in [0, 1]";
        QTest::newRow("alpha nan") << QStringList { "glu-fusion", "--set", "alpha=nan" } << "alpha must be";
        QTest::newRow("samples absurd") << QStringList { "bayes-floor", "--set", "samples=1e15" } << "samples";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, errorPart);
        const QString problem = fb::test::badInputProblem(runCompute(args), errorPart);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(TestComputeCli)
#include "tst_compute_cli.moc"
