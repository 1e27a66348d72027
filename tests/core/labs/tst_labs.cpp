// Core's list of labs (core/lab/lab.h): every lab's keys, ranges and chapter defaults, the checked
// conversions, cross-key rules, and a JSON result at the defaults.
#include "core/lab/lab.h"
#include "core/labs/accounting_lab.h"
#include "core/labs/attention_lab.h"
#include "core/labs/bayes_floor_lab.h"
#include "core/labs/capacity_lab.h"
#include "core/labs/context_extension_lab.h"
#include "core/labs/decay_bound_lab.h"
#include "core/labs/kv_cache_lab.h"
#include "core/labs/rope_invariance_lab.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <set>

using namespace fb;

class TestLabs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLabIsWellFormed()
    {
        const std::vector<std::string> names { "depth-gradients", "residual-block", "rnn-gradients", "attention",
                                               "rope-invariance", "decay-bound", "context-extension", "mha",
                                               "capacity", "glu-fusion", "transformer", "training", "bayes-floor",
                                               "accounting", "costs", "kv-cache", "length-cost" };
        QCOMPARE(labDefinitions().size(), names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            const LabDefinition &def = labDefinitions()[i];
            const LabSpec *lab = &def.spec();
            QCOMPARE(lab->name, names[i]);  // the chapter's order
            QCOMPARE(findLab(lab->name), &def);
            QVERIFY(!lab->title.empty() && !lab->source.empty() && !lab->summary.empty() && !lab->section.empty());
            QVERIFY2(checkAll(*lab, lab->defaults()).empty(), lab->name.c_str());
            QVERIFY2(def.check(lab->defaults()).empty(), lab->name.c_str());
            QCOMPARE(windowLabSpec(lab->name) != nullptr, def.inWindow);
            std::set<std::string> keys;
            for (const ParamSpec &p : lab->params) {
                QVERIFY2(keys.insert(p.key).second, p.key.c_str());
                QVERIFY2(!p.label.empty() && !p.help.empty(), p.key.c_str());
                if (p.kind == ParamKind::Real || p.kind == ParamKind::Integer) {
                    QVERIFY(p.min < p.max);
                    QVERIFY(!p.logScale || p.max / std::max(p.min, 1e-300) > 10);
                }
            }
        }
        QCOMPARE(findLab("train"), nullptr);
        QVERIFY(&DecayBoundLab::spec() == &DecayBoundLab::spec());  // built once
        QVERIFY(!findLab("training")->computeJson);  // `fullband train`
    }

    // Every lab the command line computes gives one finite JSON object at the chapter's values.
    void everyComputableLabWritesJsonAtItsDefaults()
    {
        for (const LabDefinition &lab : labDefinitions()) {
            if (!lab.computeJson || lab.name() == "depth-gradients") continue;  // depth: tst_depth_cli
            JsonWriter json;
            const RunControl stop;
            lab.computeJson(lab.spec().defaults(), stop, json);
            QVERIFY2(json.finite(), lab.name().c_str());
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json.str()), &error);
            QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), lab.name().c_str());
        }
    }
    void rangesAndScales()
    {
        for (const LabSpec *lab : { &DecayBoundLab::spec(), &RopeInvarianceLab::spec(), &ContextExtensionLab::spec() }) {
            QCOMPARE(lab->find("d")->multipleOf, 2LL);
            QVERIFY(lab->find("base")->logScale);
            QVERIFY(lab->find("base")->min > 1.0);
        }
        QCOMPARE(DecayBoundLab::spec().find("d")->max, 1024.0);
        QCOMPARE(RopeInvarianceLab::spec().find("d")->max, 4096.0);
        QCOMPARE(DecayBoundLab::spec().find("max_distance")->max, 65536.0);
        QVERIFY(DecayBoundLab::spec().find("max_distance")->logScale);
        QVERIFY(CapacityLab::spec().find("snr")->logScale);
        QVERIFY(CapacityLab::spec().find("vocab")->logScale);
        QCOMPARE(AttentionLab::spec().find("n")->max, 512.0);
        QCOMPARE(AttentionLab::spec().find("d_model")->max, 1024.0);
        QCOMPARE(AttentionLab::spec().find("heads")->max, 16.0);
        QCOMPARE(BayesFloorLab::spec().find("samples")->max, 1e7);
        QCOMPARE(AttentionLab::spec().find("sentence")->kind, ParamKind::Text);
    }
    void defaultsAreTheChapters()
    {
        QVERIFY(DecayBoundLab::check(DecayBoundLab::spec().defaults()).empty());
        const DecayBoundParams db = DecayBoundLab::params(DecayBoundLab::spec().defaults());
        QCOMPARE(db.d, 64);
        QCOMPARE(db.base, 10000.0);
        QCOMPARE(db.maxDistance, 512);
        QCOMPARE(db.extension.method, ScalingMethod::None);
        QCOMPARE(db.extension.factor, 1.0);
        QCOMPARE(db.extension.trainedLength, 4096.0);

        const RopeInvarianceParams ri = RopeInvarianceLab::params(RopeInvarianceLab::spec().defaults());
        QCOMPARE(ri.d, 64);
        QCOMPARE(ri.offset, 8);
        QCOMPARE(ri.positions, 256);
        QCOMPARE(ri.seed, std::uint64_t(0));

        const ContextExtensionLabResult ce = ContextExtensionLab().compute(ContextExtensionLab::spec().defaults(), RunControl());
        QCOMPARE(ce.d, 64);
        QCOMPARE(ce.base, 10000.0);
        QCOMPARE(ce.extension.method, ScalingMethod::None);

        QVERIFY(AttentionLab::check(AttentionLab::spec().defaults()).empty());
        const AttentionParams at = AttentionLab::params(AttentionLab::spec().defaults());
        QCOMPARE(at.n, 12);
        QCOMPARE(at.dModel, 64);
        QCOMPARE(at.heads, 4);
        QCOMPARE(at.positional, PositionalScheme::Sinusoidal);
        QCOMPARE(at.causal, false);
        QCOMPARE(at.scaled, true);
        QCOMPARE(at.seed, std::uint64_t(7));
        QCOMPARE(at.content, AttentionContent::RandomTokens);
        QCOMPARE(at.sentence, std::string("the cat sat on the mat because the mat was warm"));

        const CapacityParams cap = CapacityLab().compute(CapacityLab::spec().defaults(), RunControl()).point;
        QCOMPARE(cap.d, 4096.0);
        QCOMPARE(cap.snr, 10.0);
        QCOMPARE(cap.vocab, 128000.0);

        const AccountingParams acc = AccountingLab::params(AccountingLab::spec().defaults());
        QCOMPARE(acc.layers, 32);
        QCOMPARE(acc.phi, 0.2);
        QCOMPARE(acc.rho, 0.1);
        QCOMPARE(acc.dataRatio, 1.5);
        QCOMPARE(acc.passes, 2);
        QCOMPARE(acc.deepPasses, 3);

        const KvCacheParams kv = KvCacheLab().compute(KvCacheLab::spec().defaults(), RunControl()).params;
        QCOMPARE(kv.layers, 80.0);
        QCOMPARE(kv.kvHeads, 8.0);
        QCOMPARE(kv.headDim, 128.0);
        QCOMPARE(kv.tokens, 131072.0);
        QCOMPARE(kv.bytesPerValue, 2.0);

        const BayesFloorParams bf = BayesFloorLab().compute(BayesFloorLab::spec().defaults(), RunControl()).params;
        QCOMPARE(bf.buckets, 4);
        QCOMPARE(bf.samples, 400000LL);
        QCOMPARE(bf.seed, std::uint64_t(0));
    }
    void badValuesAreRefused_data()
    {
        QTest::addColumn<QString>("lab");
        QTest::addColumn<QStringList>("sets");    // KEY=VALUE applied in order
        QTest::addColumn<QString>("errorPart");   // must appear in the message
        auto row = [](const char *name, const char *lab, QStringList sets, const char *part) {
            QTest::newRow(name) << QString::fromLatin1(lab) << sets << QString::fromLatin1(part);
        };
        row("odd d", "decay-bound", { "d=63" }, "d must be an even integer in [2, 1024]");
        row("d too wide", "decay-bound", { "d=2048" }, "d must be an even integer in [2, 1024]");
        row("base 1", "decay-bound", { "base=1" }, "base must be a number in [1.0001");
        row("distance too far", "decay-bound", { "max_distance=65537" }, "max_distance");
        row("unknown scaling", "decay-bound", { "scaling=rope" }, "scaling must be one of none|pi|ntk|yarn");
        row("factor below 1", "decay-bound", { "factor=0.5" }, "factor must be a number in [1, 64]");
        row("trained length", "decay-bound", { "trained_length=8" }, "trained_length");
        row("positions", "rope-invariance", { "positions=0" }, "positions");
        row("offset", "rope-invariance", { "offset=70000" }, "offset");
        row("negative seed", "rope-invariance", { "seed=-1" }, "seed");
        row("fractional seed", "rope-invariance", { "seed=1.5" }, "seed");
        row("method", "context-extension", { "method=linear" }, "method");
        row("n too long", "attention", { "n=513" }, "n (tokens) must be an integer in [1, 512]");
        row("heads 17", "attention", { "heads=17" }, "heads");
        row("heads do not divide", "attention", { "d_model=66" }, "heads must divide d_model");
        row("odd rope head", "attention", { "positional=rope", "d_model=66", "heads=6" }, "d_model / heads must be even");
        row("empty sentence", "attention", { "content=sentence", "sentence=" }, "sentence");
        row("causal 2", "attention", { "causal=2" }, "causal");
        row("negative snr", "capacity", { "snr=-0.1" }, "snr must be a number in [0, 1000000]");
        row("vocab 1", "capacity", { "vocab=1" }, "vocab (tokens) must be an integer in [2, 1000000000]");
        row("phi above 1", "accounting", { "phi=1.01" }, "phi must be a number in [0, 1]");
        row("rho negative", "accounting", { "rho=-0.5" }, "rho");
        row("layers 0", "accounting", { "layers=0" }, "layers must be an integer in [1, 1000]");
        row("data ratio 0", "accounting", { "data_ratio=0" }, "data_ratio");
        row("passes 65", "accounting", { "deep_passes=65" }, "deep_passes");
        row("kv heads 0", "kv-cache", { "kv_heads=0" }, "kv_heads");
        row("buckets 1", "bayes-floor", { "buckets=1" }, "buckets");
        row("samples absurd", "bayes-floor", { "samples=1e12" }, "samples");
        row("nan", "capacity", { "d=nan" }, "d (coordinates) must be");
        row("inf", "capacity", { "snr=inf" }, "snr must be");
        row("unknown key", "kv-cache", { "heads=8" }, "unknown key 'heads' for kv-cache");
    }
    void badValuesAreRefused()
    {
        QFETCH(QString, lab);
        QFETCH(QStringList, sets);
        QFETCH(QString, errorPart);
        const LabDefinition *def = findLab(lab.toStdString());
        QVERIFY(def);
        const LabSpec *spec = &def->spec();
        ParamValues v = spec->defaults();
        std::string err;
        for (const QString &set : sets) {
            const qsizetype eq = set.indexOf('=');
            err = setFromText(*spec, v, set.left(eq).toStdString(), set.mid(eq + 1).toStdString());
            if (!err.empty()) break;
        }
        if (err.empty()) {  // a cross-key rule: the lab's check must refuse it
            QCOMPARE(lab, QStringLiteral("attention"));
            err = def->check(v);
        }
        QVERIFY2(QString::fromStdString(err).contains(errorPart), err.c_str());
    }
    void goodCrossKeyValues()
    {
        ParamValues v = AttentionLab::spec().defaults();
        v.texts["positional"] = "rope";
        v.numbers["d_model"] = 96;
        v.numbers["heads"] = 3;  // d_k = 32, even
        QVERIFY(AttentionLab::check(v).empty());
        QCOMPARE(AttentionLab::params(v).positional, PositionalScheme::Rope);
        v.numbers["heads"] = 6;  // d_k = 16
        v.texts["content"] = "sentence";
        v.texts["sentence"] = "one";
        QVERIFY(AttentionLab::check(v).empty());
        v.numbers["d_model"] = 66;  // 66 / 6 = 11: fine without RoPE
        v.texts["positional"] = "sinusoidal";
        QVERIFY(AttentionLab::check(v).empty());
        ParamValues missing = CapacityLab::spec().defaults();
        missing.numbers.erase("snr");
        QVERIFY(QString::fromStdString(CapacityLab::check(missing)).contains("snr"));
    }
};

QTEST_APPLESS_MAIN(TestLabs)
#include "tst_labs.moc"
