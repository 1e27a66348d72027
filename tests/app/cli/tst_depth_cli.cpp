// The depth lab's command line: the JSON builders behind `fullband compute depth-gradients`,
// `fullband compute rnn-gradients` and `fullband train --set task=lstm-vs-mean`, and the run
// functions themselves (stdout and stderr captured), including bad input (one line, exit 2).
#include "app/cli/depth_command.h"
#include "core/labs/depth_gradients_spec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryFile>
#include <QTest>

#include <cstdio>
#include <functional>
#include <unistd.h>

using namespace fb;

namespace {

// Runs fn with the stream fd (1 or 2) redirected to a temporary file; returns fn's result and the text.
int capture(int fd, const std::function<int()> &fn, QByteArray &text)
{
    QTemporaryFile file;
    if (!file.open()) return -1;
    std::fflush(fd == 1 ? stdout : stderr);
    const int saved = dup(fd);
    dup2(file.handle(), fd);
    const int rc = fn();
    std::fflush(fd == 1 ? stdout : stderr);
    dup2(saved, fd);
    close(saved);
    file.seek(0);
    text = file.readAll();
    return rc;
}

} // namespace

class TestDepthCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void depthJson()
    {
        ParamValues v = depthLabSpec().defaults();
        QVERIFY(setFromText(depthLabSpec(), v, "depth", "30").empty());
        QVERIFY(setFromText(depthLabSpec(), v, "width", "64").empty());
        QString error;
        const QJsonObject o = depthGradientsJson(v, &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(o.value("lab").toString(), QStringLiteral("depth-gradients"));
        const QJsonArray layers = o.value("layers").toArray(), plain = o.value("plain").toArray(),
                         residual = o.value("residual").toArray();
        QCOMPARE(layers.size(), 31);
        QCOMPARE(plain.size(), 31);
        QCOMPARE(residual.size(), 31);
        QCOMPARE(o.value("plain_weight_grad").toArray().size(), 30);
        QCOMPARE(layers[30].toInt(), 30);
        // the output layer gets the same gradient in both stacks; the plain one shrinks on the way down
        QCOMPARE(plain[30].toDouble(), residual[30].toDouble());
        QVERIFY(plain[0].toDouble() < 1e-3 * plain[30].toDouble());
        QVERIFY(residual[0].toDouble() > residual[30].toDouble());
        const QJsonObject id = o.value("identity_path").toObject();
        QVERIFY(std::fabs(id.value("residual_factor_measured").toDouble() / id.value("residual_factor_predicted").toDouble() - 1) < 0.03);
        QCOMPARE(o.value("params").toObject().value("depth").toInt(), 30);
    }

    void rnnJson()
    {
        ParamValues v = depthLabSpec().defaults();
        QVERIFY(setFromText(depthLabSpec(), v, "seq_len", "40").empty());
        const QJsonObject o = rnnGradientsJson(v);
        for (const char *key : { "steps", "rnn", "lstm_cell", "lstm_hidden", "lstm_carousel" })
            QCOMPARE(o.value(key).toArray().size(), 41);
        QVERIFY(o.value("rates").toObject().value("rnn_rate").toDouble() < 0.0);
        QVERIFY(o.value("rnn").toArray()[0].toDouble() < o.value("rnn").toArray()[40].toDouble());
    }

    void badValuesGiveError()
    {
        ParamValues v = depthLabSpec().defaults();
        v.numbers["width"] = 1000;
        QString error;
        QVERIFY(depthGradientsJson(v, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("width (units) must be an integer in [2, 512], got 1000"));
        QVERIFY(rnnGradientsJson(v, &error).isEmpty());
    }

    void trainJson()
    {
        ClassifierConfig c;
        c.steps = 30;
        const QJsonObject o = lstmVsMeanJson(c, { ClassifierArm::Lstm, ClassifierArm::MeanPooling });
        const QJsonArray arms = o.value("arms").toArray();
        QCOMPARE(arms.size(), 2);
        QCOMPARE(arms[0].toObject().value("arm").toString(), QStringLiteral("lstm"));
        QCOMPARE(arms[1].toObject().value("arm").toString(), QStringLiteral("mean-pooling"));
        for (const auto &a : arms) {
            const QJsonObject arm = a.toObject();
            QCOMPARE(arm.value("curve").toArray().size(), 30);
            QCOMPARE(arm.value("status").toString(), QStringLiteral("finished"));
            for (const char *key : { "params", "accuracy", "heldout_accuracy", "seconds" }) QVERIFY(arm.value(key).isDouble());
        }
        QCOMPARE(arms[1].toObject().value("params").toInt(), 354);
    }

    void runCompute_data()
    {
        QTest::addColumn<QString>("lab");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QString>("firstKey");
        QTest::newRow("depth") << "depth-gradients" << QStringList { "depth=12", "width=16" } << "plain";
        QTest::newRow("rnn") << "rnn-gradients" << QStringList { "seq_len=20" } << "rnn";
        QTest::newRow("depth lab, time study") << "depth-gradients" << QStringList { "study=time", "seq_len=20" } << "rnn";
        QTest::newRow("classifier study") << "depth-gradients" << QStringList { "study=classifier", "steps=5" } << "arms";
        QTest::newRow("block study") << "depth-gradients" << QStringList { "study=block" } << "input_grad_norm";
    }
    void runCompute()
    {
        QFETCH(QString, lab);
        QFETCH(QStringList, sets);
        QFETCH(QString, firstKey);
        QByteArray out;
        const int rc = capture(1, [&] { return runDepthCompute(lab, sets); }, out);
        QCOMPARE(rc, 0);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(out, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QVERIFY(doc.object().contains(firstKey));
        QVERIFY(out.endsWith('\n'));
    }

    void runTrain()
    {
        QByteArray out;
        const int rc = capture(1, [] { return runLstmVsMeanTrain({ "task=lstm-vs-mean", "steps=10", "arm=mean-pooling" }); }, out);
        QCOMPARE(rc, 0);
        const QJsonArray arms = QJsonDocument::fromJson(out).object().value("arms").toArray();
        QCOMPARE(arms.size(), 1);
        QCOMPARE(arms[0].toObject().value("curve").toArray().size(), 10);
    }

    void badInput_data()
    {
        QTest::addColumn<bool>("train");
        QTest::addColumn<QString>("lab");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QString>("message");
        QTest::newRow("depth range") << false << "depth-gradients" << QStringList { "depth=0" }
                                     << "fullband: depth (layers) must be an integer in [1, 200], got 0\n";
        QTest::newRow("radius") << false << "rnn-gradients" << QStringList { "radius=abc" }
                                << "fullband: radius must be a number in [0.1, 2], got 'abc', which is not a number\n";
        QTest::newRow("unknown key") << false << "depth-gradients" << QStringList { "layers=3" }
                                     << "fullband: unknown key 'layers' for depth-gradients; valid keys: study, depth, width, "
                                        "activation, norm, init_scale, seed, blocks, branch_gain, seq_len, hidden, radius, forget_bias, steps, batch, lr\n";
        QTest::newRow("unknown lab") << false << "depth" << QStringList {}
                                     << "fullband: unknown lab 'depth' for the depth computations; one of depth-gradients, rnn-gradients\n";
        QTest::newRow("train lr") << true << "" << QStringList { "task=lstm-vs-mean", "lr=2" }
                                  << "fullband: lr must be a number in [1e-06, 1], got 2\n";
        QTest::newRow("train task") << true << "" << QStringList { "task=phase" }
                                    << "fullband: task must be one of lstm-vs-mean, got 'phase'\n";
    }
    void badInput()
    {
        QFETCH(bool, train);
        QFETCH(QString, lab);
        QFETCH(QStringList, sets);
        QFETCH(QString, message);
        QByteArray err, out;
        int rc = 0;
        out.clear();
        const int rcOuter = capture(1, [&] {
            return capture(2, [&] { return rc = train ? runLstmVsMeanTrain(sets) : runDepthCompute(lab, sets); }, err);
        }, out);
        QCOMPARE(rc, 2);
        QCOMPARE(rcOuter, 2);
        QCOMPARE(QString::fromUtf8(err), message);
        QVERIFY(out.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestDepthCli)
#include "tst_depth_cli.moc"
