// The transformer lab's definition (core/labs/transformer_lab.h) and the JSON of a training
// (core/transformer/transformer_json.h): in core's list, the preview's sizes at the reference's
// defaults, refused values named by their key, and every key of the command line's object.
#include "core/lab/lab.h"
#include "core/labs/transformer_lab.h"
#include "core/labs/transformer_spec.h"
#include "core/transformer/transformer_json.h"
#include "core/transformer/transformer_trainer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace fb;

class TestTransformerLab : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A panel's change to task = text brings the text's model size, one back brings the spec's; other
    // changes (a size set after choosing the task) stay as the user set them.
    void taskChangeBringsItsSizes()
    {
        const ParamValues start = transformerSpec().defaults();
        ParamValues text = start;
        text.texts["task"] = "text";
        followTransformerTask(start, text);
        for (const auto &[key, value] : transformerTextDefaults()) QCOMPARE(text.number(key), value);
        QCOMPARE(text.number("steps"), start.number("steps"));
        ParamValues wider = text;
        wider.numbers["d_model"] = 256;
        followTransformerTask(text, wider);
        QCOMPARE(wider.number("d_model"), 256.0);
        ParamValues back = wider;
        back.texts["task"] = "induction";
        followTransformerTask(wider, back);
        QCOMPARE(back.number("d_model"), 64.0);
        QCOMPARE(back.number("layers"), 2.0);
        QCOMPARE(back.number("weight_decay"), 0.0);
        ParamValues other = start;
        other.texts["task"] = "accumulator";
        other.numbers["layers"] = 3;
        followTransformerTask(start, other);
        QCOMPARE(other.number("layers"), 3.0);  // not to or from text: untouched
    }

    // A model file's configuration back into the panel's values: transformerFrom reads it back.
    void valuesOfAConfiguration()
    {
        ParamValues v = transformerSpec().defaults();
        v.texts["feedback"] = "kpass";
        v.texts["scaling"] = "yarn";
        v.numbers["passes"] = 3;
        v.numbers["d_model"] = 32;
        v.numbers["weight_decay"] = 0.25;
        v.numbers["seed"] = 2147483648.0;
        v.numbers["base"] = 500;
        TransformerConfig c;
        QCOMPARE(QString::fromStdString(transformerFrom(v, c)), QString());
        QVERIFY(transformerValues(c, "") == v);
    }

    void inTheList()
    {
        const LabDefinition *lab = findLab("transformer");
        QVERIFY(lab);
        QVERIFY(lab->inWindow);
        QVERIFY(!lab->computeJson);  // `fullband train --set model=transformer`
        QVERIFY(!lab->spec().summary.empty());
    }

    void previewAtDefaults()
    {
        ParamValues v = TransformerLab::spec().defaults();
        QCOMPARE(TransformerLab::check(v), std::string());
        TransformerLab lab;
        RunControl stop;
        TransformerLabResult r = lab.compute(v, stop);
        QCOMPARE(r.params, 101632LL);
        QCOMPARE(r.vocab, 16);
        QVERIFY(r.flopsPerStep > 1e8 && r.flopsPerStep < 1e10);
        QVERIFY(r.workspaceBytes < 200e6);  // the resident-memory budget
        QVERIFY(r.initial.has_value());      // the untrained model's maps, shown before Start
        QCOMPARE(r.initial->step, 0);
        QCOMPARE(int(r.initial->attention.size()), 2 * 4);
        QVERIFY(r.initial->attention.front().rows() >= 31);
        QCOMPARE(r.initial->attention.front().rows(), r.initial->attention.front().cols());
        v.texts["feedback"] = "kpass";
        QCOMPARE(lab.compute(v, stop).params, 118144LL);
    }

    void refusedValuesNameTheirKey()
    {
        ParamValues v = TransformerLab::spec().defaults();
        v.numbers["heads"] = 5;
        const std::string err = TransformerLab::check(v);
        QVERIFY2(err.find("heads") != std::string::npos, err.c_str());
        TransformerLab lab;
        RunControl stop;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lab.compute(v, stop));
    }

    void jsonOfATraining()
    {
        TransformerConfig c;
        c.vocab = 8;
        c.seqLen = 8;
        c.batch = 4;
        c.layers = 1;
        c.heads = 2;
        c.dModel = 16;
        c.steps = 5;
        c.evalEvery = 0;
        c.evalSequences = 8;
        c.probeEvery = 0;
        c.probeSeconds = 0;
        const TransformerResult r = trainTransformer(c);
        JsonWriter json;
        writeTransformerJson(json, c, r);
        QJsonParseError perr;
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json.str()), &perr).object();
        QCOMPARE(perr.error, QJsonParseError::NoError);
        QCOMPARE(o.value("model").toString(), QStringLiteral("transformer"));
        QCOMPARE(o.value("curve").toArray().size(), 5);
        QCOMPARE(o.value("params").toDouble(), double(r.params));
        QCOMPARE(o.value("heldout_loss").toDouble(), r.heldoutLoss);
        QCOMPARE(o.value("induction_score").toArray().size(), 1);
        QCOMPARE(o.value("best_induction_score").toDouble(), bestInductionScore(r));
        QCOMPARE(o.value("config").toObject().value("pos").toString(), QStringLiteral("rope"));
        QCOMPARE(o.value("status").toString(), QStringLiteral("finished"));
        QVERIFY(o.value("gate_mean").isNull());  // no feedback, no gate
        QCOMPARE(o.value("length_generalisation").toArray().size(), int(r.lengths.size()));
    }

    void bestScore()
    {
        TransformerResult r;
        QVERIFY(std::isnan(bestInductionScore(r)));
        r.inductionScore = { { 0.1, 0.7 }, { std::nan(""), 0.3 } };
        QCOMPARE(bestInductionScore(r), 0.7);
    }
};

QTEST_GUILESS_MAIN(TestTransformerLab)
#include "tst_transformer_lab.moc"
