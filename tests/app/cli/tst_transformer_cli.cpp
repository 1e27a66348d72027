// `fullband train --set model=transformer` as a script runs it: the built binary (FULLBAND_BIN), one
// JSON object on stdout, and one stderr line naming the key with exit code 2 for bad values.
// Runs are a few steps of small models: seconds each, also under the sanitizers.
#include "core/model/model_file.h"
#include "support/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string_view>

class TestTransformerCli : public QObject {
    Q_OBJECT
private:
    using Run = fb::test::CliRun;

    static Run run(const QStringList &kv)
    {
        QStringList args { QStringLiteral("train"), QStringLiteral("--set"), QStringLiteral("model=transformer") };
        for (const QString &s : kv) args << QStringLiteral("--set") << s;
        return fb::test::runFullband(args);
    }

    static QJsonObject parse(const Run &r)
    {
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &perr);
        if (perr.error != QJsonParseError::NoError) qWarning("%s", qPrintable(perr.errorString()));
        return doc.object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN is not set (run through ctest)");
    }

    // A small induction run: every key of the JSON, the curve's length, the scores' shape.
    void smallInductionRun()
    {
        const Run r = run({ "task=induction", "seq_len=8", "batch=4", "layers=1", "heads=2", "d_model=16",
                            "steps=20", "eval_every=10" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.out.count('\n'), 1);
        const QJsonObject o = parse(r);
        for (const char *key : { "params", "curve", "heldout_loss", "second_half_loss", "induction_score",
                                 "length_generalisation", "ms_per_step", "seconds", "status", "config" })
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        const QJsonArray curve = o.value(QStringLiteral("curve")).toArray();
        QCOMPARE(curve.size(), 20);
        QVERIFY(std::abs(curve.first().toDouble() - std::log(16.0)) < 0.5);  // starts near ln V
        QVERIFY(o.value(QStringLiteral("heldout_loss")).toDouble() > 0.0);
        QVERIFY(o.value(QStringLiteral("second_half_loss")).isDouble());
        const QJsonArray scores = o.value(QStringLiteral("induction_score")).toArray();
        QCOMPARE(scores.size(), 1);                  // layers
        QCOMPARE(scores.at(0).toArray().size(), 2);  // heads
        const QJsonArray lengths = o.value(QStringLiteral("length_generalisation")).toArray();
        QVERIFY(lengths.size() >= 4);  // rope and its three rescalings
        QCOMPARE(lengths.at(0).toObject().value(QStringLiteral("label")).toString(), QStringLiteral("rope"));
        QCOMPARE(lengths.at(0).toObject().value(QStringLiteral("lengths")).toArray().size(), 3);  // T, 2T, 4T
        QCOMPARE(o.value(QStringLiteral("heldout_curve")).toArray().size(), 3);  // steps 0, 10, 20
        QVERIFY(o.value(QStringLiteral("ms_per_step")).toDouble() > 0.0);
    }

    // The trained model taken apart: every key of issue 27 with its shape, the logit lens' last layer
    // equal to heldout_loss (1e-9 nats), and ablate=L2H1,L1 (1-based) evaluated with those heads off.
    void anatomyKeys()
    {
        const Run r = run({ "task=induction-fixed", "seq_len=8", "batch=4", "layers=2", "heads=2", "d_model=16",
                            "steps=30", "eval_every=10", "ablate=L2H1,L1" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = parse(r);
        for (const char *key : { "prev_token_score", "ablation_heldout_loss", "ablation_second_half_loss",
                                 "composition", "logit_lens", "offset_profile", "offset_profile_pairs" }) {
            QVERIFY2(o.contains(QLatin1String(key)), key);
            QCOMPARE(o.value(QLatin1String(key)).toArray().size(), 2);  // layers
            if (std::string_view(key) != "logit_lens")  // [layer][head]...
                QVERIFY2(o.value(QLatin1String(key)).toArray().at(0).toArray().size() > 0, key);
        }
        QVERIFY(o.value(QStringLiteral("phase_change_step")).isDouble() || o.value(QStringLiteral("phase_change_step")).isNull());
        QCOMPARE(o.value(QStringLiteral("prev_token_score")).toArray().at(1).toArray().size(), 2);  // heads
        QVERIFY(o.value(QStringLiteral("composition")).toArray().at(1).toArray().at(0).isNull());  // last layer
        QVERIFY(o.value(QStringLiteral("composition")).toArray().at(0).toArray().at(0).isDouble());
        const QJsonArray lens = o.value(QStringLiteral("logit_lens")).toArray();
        QVERIFY(std::abs(lens.at(1).toDouble() - o.value(QStringLiteral("heldout_loss")).toDouble()) <= 1e-9);
        // offset_profile[layer][head][delta], delta = 0 .. T - 2 (the induction tasks' 7 input positions)
        QCOMPARE(o.value(QStringLiteral("offset_profile")).toArray().at(0).toArray().at(1).toArray().size(), 7);
        // offset_profile_pairs[layer][head][pair][delta]: d_head / 2 = 4 pairs
        QCOMPARE(o.value(QStringLiteral("offset_profile_pairs")).toArray().at(0).toArray().at(0).toArray().size(), 4);
        const QJsonObject ablated = o.value(QStringLiteral("ablated")).toObject();
        const QJsonArray heads = ablated.value(QStringLiteral("heads")).toArray();
        QCOMPARE(heads.size(), 3);
        QCOMPARE(heads.at(0).toString(), QStringLiteral("L2H1"));
        QCOMPARE(heads.at(2).toString(), QStringLiteral("L1H2"));
        QVERIFY(ablated.value(QStringLiteral("heldout_loss")).toDouble() > 0.0);
        QVERIFY(ablated.value(QStringLiteral("second_half_loss")).isDouble());
    }

    // Outside the induction tasks: no repeat loss in the table, no phase change, no composition.
    void anatomyWithoutRepeat()
    {
        const Run r = run({ "task=accumulator", "seq_len=8", "batch=4", "layers=1", "heads=2", "d_model=16",
                            "steps=5", "pos=sinusoidal", "ablate=L1H2" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parse(r);
        QVERIFY(o.value(QStringLiteral("phase_change_step")).isNull());
        QVERIFY(!o.contains(QStringLiteral("ablation_second_half_loss")));
        QVERIFY(!o.contains(QStringLiteral("offset_profile_pairs")));  // RoPE only
        QCOMPARE(o.value(QStringLiteral("composition")).toArray().size(), 0);
        QCOMPARE(o.value(QStringLiteral("ablation_heldout_loss")).toArray().at(0).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("offset_profile")).toArray().at(0).toArray().at(0).toArray().size(), 8);
        QVERIFY(o.value(QStringLiteral("ablated")).toObject().value(QStringLiteral("second_half_loss")).isNull());
    }

    // The reference's parameter counts at its sizes: 101,632, and 118,144 with feedback.
    void parameterCounts_data()
    {
        QTest::addColumn<QString>("feedback");
        QTest::addColumn<int>("params");
        QTest::newRow("off") << "off" << 101632;
        QTest::newRow("kpass") << "kpass" << 118144;
    }
    void parameterCounts()
    {
        QFETCH(QString, feedback);
        QFETCH(int, params);
        const Run r = run({ "steps=1", "batch=2", "eval_every=0", "feedback=" + feedback });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parse(r);
        QCOMPARE(o.value(QStringLiteral("params")).toInt(), params);
        if (feedback != QLatin1String("off")) QVERIFY(o.value(QStringLiteral("gate_mean")).isDouble());
    }

    // The model options together: the count by their formulas (kv_heads = 1: -2 d (d - d_head) per
    // layer; RMSNorm: -(2L + 1) d; QK-norm: +2 d_head per layer; the gate: +d^2 per layer; the loop
    // and the window: none), the options echoed, and the sink share per head and overall.
    void modelOptions()
    {
        const Run r = run({ "steps=1", "batch=2", "eval_every=0", "window=8", "pos=alibi", "kv_heads=1", "norm=rmsnorm",
                            "qk_norm=on", "attn_gate=on", "loop=2" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parse(r);
        const int d = 64, dh = 16, L = 2;
        QCOMPARE(o.value(QStringLiteral("params")).toInt(),
                 101632 - L * 2 * d * (d - dh) - (2 * L + 1) * d + L * 2 * dh + L * d * d);
        const QJsonObject c = o.value(QStringLiteral("config")).toObject();
        QCOMPARE(c.value(QStringLiteral("kv_heads")).toInt(), 1);
        QCOMPARE(c.value(QStringLiteral("pos")).toString(), QStringLiteral("alibi"));
        QCOMPARE(c.value(QStringLiteral("loop")).toInt(), 2);
        const double sink = o.value(QStringLiteral("sink_share")).toDouble(-1.0);
        QVERIFY(sink > 0.0 && sink < 1.0);
        const QJsonArray byHead = o.value(QStringLiteral("sink_share_by_head")).toArray();
        QCOMPARE(byHead.size(), 2);
        QCOMPARE(byHead.at(1).toArray().size(), 4);
    }

    // Outside the induction tasks there is no second half: null, not a number.
    void accumulatorHasNoSecondHalf()
    {
        const Run r = run({ "task=accumulator", "seq_len=8", "batch=4", "layers=1", "heads=2", "d_model=16",
                            "steps=5", "feedback=exact" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = parse(r);
        QVERIFY(o.value(QStringLiteral("second_half_loss")).isNull());
        QVERIFY(o.value(QStringLiteral("heldout_loss")).toDouble() > 0.0);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("kv");
        QTest::addColumn<QString>("key");  // the stderr line names it
        QTest::newRow("model") << QStringList { "model=gpt" } << "model";
        QTest::newRow("task") << QStringList { "task=translate" } << "task";
        QTest::newRow("pos") << QStringList { "pos=learned" } << "pos";
        QTest::newRow("window negative") << QStringList { "window=-1" } << "window";
        QTest::newRow("window beyond") << QStringList { "window=3000" } << "window";
        QTest::newRow("scaling with alibi") << QStringList { "pos=alibi", "scaling=yarn" } << "scaling";
        QTest::newRow("kv_heads not dividing") << QStringList { "kv_heads=3" } << "kv_heads";
        QTest::newRow("kv_heads beyond") << QStringList { "kv_heads=17" } << "kv_heads";
        QTest::newRow("norm") << QStringList { "norm=batchnorm" } << "norm";
        QTest::newRow("qk_norm") << QStringList { "qk_norm=yes" } << "qk_norm";
        QTest::newRow("attn_gate") << QStringList { "attn_gate=1" } << "attn_gate";
        QTest::newRow("loop zero") << QStringList { "loop=0" } << "loop";
        QTest::newRow("loop beyond") << QStringList { "loop=9" } << "loop";
        QTest::newRow("feedback") << QStringList { "feedback=some" } << "feedback";
        QTest::newRow("heads not dividing") << QStringList { "heads=5" } << "heads";
        QTest::newRow("odd seq_len") << QStringList { "seq_len=7" } << "seq_len";
        QTest::newRow("passes above T") << QStringList { "feedback=kpass", "passes=40" } << "passes";
        QTest::newRow("scaling without rope") << QStringList { "pos=sinusoidal", "scaling=pi" } << "scaling";
        QTest::newRow("text without file") << QStringList { "task=text" } << "text";
        QTest::newRow("text file missing") << QStringList { "task=text", "text=/nonexistent/file.txt" } << "text";
        QTest::newRow("lr zero") << QStringList { "lr=0" } << "lr";
        QTest::newRow("steps zero") << QStringList { "steps=0" } << "steps";
        QTest::newRow("d_model huge") << QStringList { "d_model=1024" } << "d_model";
        QTest::newRow("unknown key") << QStringList { "arm=both" } << "arm";
        QTest::newRow("ablate layer beyond") << QStringList { "ablate=L3H1" } << "ablate";
        QTest::newRow("ablate head beyond") << QStringList { "ablate=L2H5" } << "ablate";
        QTest::newRow("ablate zero-based") << QStringList { "ablate=L0" } << "ablate";
        QTest::newRow("ablate garbage") << QStringList { "ablate=L2H1,,x" } << "ablate";
        QTest::newRow("ablate after layers") << QStringList { "ablate=L2", "layers=1" } << "ablate";
        QTest::newRow("ablation kind") << QStringList { "ablation=half" } << "ablation";
    }
    void badInput()
    {
        QFETCH(QStringList, kv);
        QFETCH(QString, key);
        const QString problem = fb::test::badInputProblem(run(kv), key);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The text task: its sample is the characters themselves (no HTML entities), save=FILE writes a
    // model file, and `fullband generate` writes with it, with the KV cache and without.
    void textTrainSaveAndGenerate()
    {
        QTemporaryDir dir;
        const QString text = dir.filePath(QStringLiteral("notes.txt")), model = dir.filePath(QStringLiteral("m.fbmodel"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < 80; ++i) f.write("A2[\"layer &Array2<f32>\"] --> B & C\n");
        }
        const Run r = run({ "task=text", "text=" + text, "seq_len=16", "batch=4", "layers=1", "heads=2", "d_model=16",
                            "steps=30", "eval_every=10", "save=" + model });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = parse(r);
        const QString sample = o.value(QStringLiteral("sample")).toString();
        QVERIFY(sample.size() > 16);
        for (const char *entity : { "&gt;", "&lt;", "&amp;", "&quot;" }) QVERIFY2(!sample.contains(QLatin1String(entity)), qPrintable(sample));
        const int best = o.value(QStringLiteral("best_step")).toInt(-1);
        QVERIFY(best >= 0 && best <= 30 && best % 10 == 0);  // a held-out evaluation's step
        const QJsonObject config = o.value(QStringLiteral("config")).toObject();
        QCOMPARE(config.value(QStringLiteral("weight_decay")).toDouble(), 0.1);  // the text task's default
        QCOMPARE(config.value(QStringLiteral("layers")).toInt(), 1);             // a key given wins
        QVERIFY(QFileInfo(model).size() > 0);
        // the file keeps a replay, as the window's does: here a snapshot of every step (30 < 96), the
        // untrained model's and the final one
        fb::SavedModel saved;
        QCOMPARE(fb::ModelFile::load(model.toStdString(), saved), std::string());
        QVERIFY2(saved.replay.size() >= 31 && saved.replay.size() <= 32, qPrintable(QString::number(saved.replay.size())));
        QCOMPARE(saved.replay.front().step, 0);
        QCOMPARE(saved.replay.back().step, 30);
        for (std::size_t i = 1; i < saved.replay.size(); ++i) QVERIFY(saved.replay[i].step >= saved.replay[i - 1].step);

        const Run g = fb::test::runFullband({ QStringLiteral("generate"), model, QStringLiteral("--prompt"),
                                              QStringLiteral("A2[\"la"), QStringLiteral("--chars"), QStringLiteral("50"),
                                              QStringLiteral("--set"), QStringLiteral("temperature=0.5"),
                                              QStringLiteral("--set"), QStringLiteral("top_k=3") });
        QCOMPARE(g.exitCode, 0);
        QVERIFY2(g.err.isEmpty(), g.err.constData());
        const QJsonObject w = parse(g);
        QCOMPARE(w.value(QStringLiteral("text")).toString().size(), 50);  // ASCII characters here
        QCOMPARE(w.value(QStringLiteral("chars")).toInt(), 50);
        QVERIFY(w.value(QStringLiteral("chars_per_second")).toDouble() > 0.0);
        QVERIFY(w.value(QStringLiteral("chars_per_second_without_cache")).toDouble() > 0.0);
        QVERIFY(w.value(QStringLiteral("same_text")).toBool());

        // Bad values and bad files: one line, exit 2, nothing on stdout.
        QFile damaged(dir.filePath(QStringLiteral("damaged.fbmodel")));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        QFile good(model);
        QVERIFY(good.open(QIODevice::ReadOnly));
        QByteArray bytes = good.readAll();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x40);
        damaged.write(bytes);
        damaged.close();
        const QString induction = dir.filePath(QStringLiteral("induction.fbmodel"));
        QCOMPARE(run({ "seq_len=8", "batch=2", "layers=1", "heads=2", "d_model=16", "steps=2", "save=" + induction }).exitCode, 0);
        auto generate = [&](const QString &file, const QStringList &more) {
            return fb::test::runFullband(QStringList { QStringLiteral("generate"), file } + more);
        };
        const std::pair<fb::test::CliRun, QString> bad[] = {
            { generate(dir.filePath(QStringLiteral("none.fbmodel")), {}), QStringLiteral("none.fbmodel") },
            { generate(text, {}), QStringLiteral("not a FullBand model file") },
            { generate(damaged.fileName(), {}), QStringLiteral("damaged (its CRC-32") },
            { generate(induction, {}), QStringLiteral("task=text") },
            { generate(model, { QStringLiteral("--chars"), QStringLiteral("0") }), QStringLiteral("chars") },
            { generate(model, { QStringLiteral("--set"), QStringLiteral("top_k=-1") }), QStringLiteral("top_k") },
            { generate(model, { QStringLiteral("--set"), QStringLiteral("temperature=nan") }), QStringLiteral("temperature") },
            { run({ "steps=1", "save=" + dir.filePath(QStringLiteral("no/such/m.fbmodel")) }), QStringLiteral("save") },
        };
        for (const auto &[result, names] : bad) {
            const QString problem = fb::test::badInputProblem(result, names);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    // task=text starts from nanoGPT's CPU size; the keys given still win.
    void textDefaults()
    {
        QTemporaryDir dir;
        const QString text = dir.filePath(QStringLiteral("t.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 40; ++i) f.write("to be or not to be, that is the question\n");
        f.close();
        const Run r = run({ "task=text", "text=" + text, "layers=1", "steps=1", "eval_every=0" });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject config = parse(r).value(QStringLiteral("config")).toObject();
        QCOMPARE(config.value(QStringLiteral("layers")).toInt(), 1);
        QCOMPARE(config.value(QStringLiteral("heads")).toInt(), 4);
        QCOMPARE(config.value(QStringLiteral("d_model")).toInt(), 128);
        QCOMPARE(config.value(QStringLiteral("seq_len")).toInt(), 64);
        QCOMPARE(config.value(QStringLiteral("batch")).toInt(), 12);
        QCOMPARE(config.value(QStringLiteral("weight_decay")).toDouble(), 0.1);
    }

    // --help calls text a file path.
    void helpCallsTextAFile()
    {
        const fb::test::CliText h = fb::test::runFullbandText({ QStringLiteral("train"), QStringLiteral("--help") });
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.contains(QStringLiteral("a file path of at most 4096 characters")));
        QVERIFY(!h.out.contains(QStringLiteral("a text of at most 4096")));
        QVERIFY(h.out.contains(QStringLiteral("weight_decay")));
    }

    // fullband compare (issue 29): one row per --config, in order, the same held-out loss as
    // `train` gives that configuration alone (same seed), and the KV bytes per token of each.
    void compareRows()
    {
        const QStringList base { "task=induction", "seq_len=8", "batch=4", "layers=1", "heads=2", "d_model=16",
                                 "steps=20", "eval_every=10" };
        QStringList args { QStringLiteral("compare") };
        for (const QString &s : base) args << QStringLiteral("--set") << s;
        args << QStringLiteral("--config") << QStringLiteral("kv_heads=1") << QStringLiteral("--config")
             << QStringLiteral("") << QStringLiteral("--config") << QStringLiteral("attn_gate=on, window=4");
        const Run r = fb::test::runFullband(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.out.count('\n'), 1);
        const QJsonArray rows = parse(r).value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 3);
        const QStringList labels { "kv_heads=1", "base", "attn_gate=on, window=4" };
        for (int i = 0; i < 3; ++i) {
            const QJsonObject row = rows.at(i).toObject();
            QCOMPARE(row.value(QStringLiteral("label")).toString(), labels[i]);
            for (const char *key : { "overrides", "params", "flops_per_step", "kv_bytes_per_token", "ms_per_step",
                                     "heldout_loss", "accuracy", "sink_share", "sink_share_by_head", "steps_done",
                                     "status" })
                QVERIFY2(row.contains(QLatin1String(key)), key);
            QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
            QCOMPARE(row.value(QStringLiteral("steps_done")).toInt(), 20);
            QVERIFY(row.value(QStringLiteral("accuracy")).isNull());  // induction has no exact answers
        }
        // 2 x L 1 x kv_heads x d_head 8 x 4 bytes
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("kv_bytes_per_token")).toDouble(), 2.0 * 1 * 1 * 8 * 4);
        QCOMPARE(rows.at(1).toObject().value(QStringLiteral("kv_bytes_per_token")).toDouble(), 2.0 * 1 * 2 * 8 * 4);
        const QJsonObject alone = parse(run(base + QStringList { "kv_heads=1" }));
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("heldout_loss")).toDouble(),
                 alone.value(QStringLiteral("heldout_loss")).toDouble());
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("params")).toDouble(),
                 alone.value(QStringLiteral("params")).toDouble());
    }

    void compareBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        const QString c = QStringLiteral("--config");
        QTest::newRow("no config") << QStringList {} << "--config";
        QTest::newRow("six configs") << QStringList { c, "", c, "", c, "", c, "", c, "", c, "" } << "--config";
        QTest::newRow("bad value") << QStringList { c, "kv_heads=1", c, "kv_heads=3" } << "configuration 2";
        QTest::newRow("range") << QStringList { c, "window=3000" } << "window";
        QTest::newRow("unknown key") << QStringList { c, "colour=red" } << "colour";
        QTest::newRow("not key=value") << QStringList { c, "attn_gate" } << "attn_gate";
        QTest::newRow("seed shared") << QStringList { c, "seed=2" } << "seed";
        QTest::newRow("bad base") << QStringList { "--set", "loop=9", c, "" } << "loop";
    }
    void compareBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        const QString problem = fb::test::badInputProblem(fb::test::runFullband(QStringList { "compare" } + args), names);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The top-level --help lists the subcommand; its own --help names --config.
    void compareHelp()
    {
        const fb::test::CliText top = fb::test::runFullbandText({ QStringLiteral("--help") });
        QCOMPARE(top.code, 0);
        QVERIFY(top.out.contains(QStringLiteral("compare [--set KEY=VALUE]")));
        const fb::test::CliText h = fb::test::runFullbandText({ QStringLiteral("compare"), QStringLiteral("--help") });
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.contains(QStringLiteral("--config")));
        QVERIFY(h.out.contains(QStringLiteral("kv_bytes_per_token")));
    }
};

QTEST_GUILESS_MAIN(TestTransformerCli)
#include "tst_transformer_cli.moc"
