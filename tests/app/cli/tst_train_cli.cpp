// `fullband train` as a person or a script runs it: the built binary (FULLBAND_BIN), its JSON on
// stdout, and one clear stderr line with exit code 2 for every bad input.
#include "support/cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

class TestTrainCli : public QObject {
    Q_OBJECT
private:
    using Run = fb::test::CliRun;

    Run run(const QStringList &args)
    {
        return fb::test::runFullband(QStringList { QStringLiteral("train") } + args);
    }

    static QStringList sets(const QStringList &kv)
    {
        QStringList args;
        for (const QString &s : kv) args << QStringLiteral("--set") << s;
        return args;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("FULLBAND_BIN").isEmpty(), "FULLBAND_BIN is not set (run through ctest)");
    }

    void bothArmsJson()
    {
        const Run r = run(sets({ "steps=25", "batch=32" }));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.out.count('\n'), 1);  // one JSON object on one line
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &perr);
        QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
        const QJsonArray arms = doc.object().value(QStringLiteral("arms")).toArray();
        QCOMPARE(arms.size(), 2);
        const QStringList names { QStringLiteral("token-only"), QStringLiteral("latent-feedback") };
        const int params[] = { 5700, 8356 };
        for (int i = 0; i < 2; ++i) {
            const QJsonObject a = arms.at(i).toObject();
            for (const char *key : { "arm", "params", "heldout_loss", "accuracy", "curve", "seconds", "status" })
                QVERIFY2(a.contains(QLatin1String(key)), key);
            QCOMPARE(a.value(QStringLiteral("arm")).toString(), names[i]);
            QCOMPARE(a.value(QStringLiteral("params")).toInt(), params[i]);
            QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
            const QJsonArray curve = a.value(QStringLiteral("curve")).toArray();
            QCOMPARE(curve.size(), 25);
            QVERIFY(std::abs(curve.first().toDouble() - std::log(4.0)) < 0.2);  // starts near ln 4
            const double held = a.value(QStringLiteral("heldout_loss")).toDouble();
            const double acc = a.value(QStringLiteral("accuracy")).toDouble();
            QVERIFY(held > 0.3 && held < 1.45);
            QVERIFY(acc > 0.2 && acc <= 1.0);
            QVERIFY(a.value(QStringLiteral("seconds")).toDouble() > 0.0);
        }
    }

    void singleArmAndKPass()
    {
        const Run r = run(sets({ "arm=latent-feedback", "steps=10", "passes=3", "seq_len=8", "d_hid=32" }));
        QCOMPARE(r.exitCode, 0);
        const QJsonArray arms = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("arms")).toArray();
        QCOMPARE(arms.size(), 1);
        const QJsonObject a = arms.first().toObject();
        QCOMPARE(a.value(QStringLiteral("arm")).toString(), QStringLiteral("latent-feedback"));
        QCOMPARE(a.value(QStringLiteral("passes")).toInt(), 3);
        QCOMPARE(a.value(QStringLiteral("curve")).toArray().size(), 10);
        QVERIFY(a.value(QStringLiteral("kpass_heldout_loss")).isDouble());
    }

    void divergedRun()
    {
        const Run r = run(sets({ "arm=token-only", "steps=30", "lr=10" }));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject a =
            QJsonDocument::fromJson(r.out).object().value(QStringLiteral("arms")).toArray().first().toObject();
        QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("diverged"));
        QVERIFY(a.value(QStringLiteral("message")).toString().contains(QStringLiteral("diverged at step")));
        QVERIFY(a.value(QStringLiteral("curve")).toArray().size() < 30);
        QVERIFY(a.value(QStringLiteral("heldout_loss")).isDouble());
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("key");  // the stderr line must name it
        QTest::newRow("unknown key") << sets({ "foo=1" }) << "foo";
        QTest::newRow("lr not a number") << sets({ "lr=abc" }) << "lr";
        QTest::newRow("lr zero") << sets({ "lr=0" }) << "lr";
        QTest::newRow("passes above seq_len") << sets({ "passes=17" }) << "passes";
        QTest::newRow("passes above short seq_len") << sets({ "seq_len=4", "passes=5" }) << "passes";
        QTest::newRow("unknown arm") << sets({ "arm=foo" }) << "arm";
        QTest::newRow("zero steps") << sets({ "steps=0" }) << "steps";
        QTest::newRow("fractional batch") << sets({ "batch=1.5" }) << "batch";
        QTest::newRow("no equals sign") << sets({ "steps" }) << "KEY=VALUE";
        QTest::newRow("stray argument") << QStringList { QStringLiteral("extra") } << "extra";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, key);
        const QString problem = fb::test::badInputProblem(run(args), key);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void help()
    {
        const Run r = run({ QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        for (const char *key : { "arm", "steps", "batch", "lr", "seq_len", "buckets", "d_emb", "d_hid", "d_fuse",
                                 "passes", "seed", "clip" })
            QVERIFY2(text.contains(QStringLiteral("\n  %1 ").arg(QLatin1String(key))), key);
        QVERIFY(text.contains(QStringLiteral("default 220")));
        QVERIFY(text.contains(QStringLiteral("token-only|latent-feedback|both")));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_train_cli.moc"
