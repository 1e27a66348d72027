// Scene and deck files: reading, refusing bad files with the place named, writing atomically.
#include "app/registry/lab_registry.h"
#include "app/scene/scene.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

class TestScene : public QObject {
    Q_OBJECT
private:
    static QByteArray decayScene(const QByteArray &params, const QByteArray &more = {})
    {
        return "{\"format\": 1, \"lab\": \"decay-bound\", \"title\": \"Figure 218.1, right\", \"params\": {" + params + "}" + more + "}";
    }
private Q_SLOTS:
    void readsAScene()
    {
        const SceneParse r = parseSceneOrDeck(decayScene("\"d\": 128, \"base\": 500000, \"scaling\": \"yarn\""), labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(!r.isDeck);
        QCOMPARE(r.scene.lab, QStringLiteral("decay-bound"));
        QCOMPARE(r.scene.title, QStringLiteral("Figure 218.1, right"));
        QCOMPARE(r.scene.values.integer("d"), 128);
        QCOMPARE(r.scene.values.number("base"), 500000.0);
        QCOMPARE(QString::fromStdString(r.scene.values.text("scaling")), QStringLiteral("yarn"));
        // Keys the file leaves out keep the chapter's defaults.
        QCOMPARE(r.scene.values.integer("max_distance"), labSpec("decay-bound")->defaults().integer("max_distance"));
        QVERIFY(r.warnings.isEmpty());
    }

    void reportsUnknownKeys()
    {
        const SceneParse r = parseSceneOrDeck(decayScene("\"d\": 64, \"colour\": 3", ", \"zoom\": 2"), labSpec);
        QVERIFY(r.error.isEmpty());
        QCOMPARE(r.warnings.size(), 2);
        QVERIFY(r.warnings.join(' ').contains(QStringLiteral("params.colour")));
        QVERIFY(r.warnings.join(' ').contains(QStringLiteral("zoom")));
    }

    void refusesBadFiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{\"format\": 1, \"lab\": ") << "not valid JSON";
        QTest::newRow("truncated") << decayScene("\"d\": 64").left(30) << "not valid JSON";
        QTest::newRow("array") << QByteArray("[1, 2]") << "must be a JSON object";
        QTest::newRow("no format") << QByteArray("{\"lab\": \"decay-bound\"}") << "format must be 1";
        QTest::newRow("format 2") << QByteArray("{\"format\": 2, \"lab\": \"decay-bound\"}") << "format must be 1";
        QTest::newRow("unknown lab") << QByteArray("{\"format\": 1, \"lab\": \"warp-drive\"}") << "lab 'warp-drive' is not a FullBand lab";
        QTest::newRow("odd d") << decayScene("\"d\": 63") << "params.d: d must be an even integer in [2, 1024], got 63";
        QTest::newRow("base too small") << decayScene("\"base\": 1") << "params.base";
        QTest::newRow("wrong type") << decayScene("\"d\": \"sixty-four\"") << "params.d must be an even integer";
        QTest::newRow("bad choice") << decayScene("\"scaling\": \"rope\"") << "params.scaling";
        QTest::newRow("params not object") << QByteArray("{\"format\": 1, \"lab\": \"decay-bound\", \"params\": 3}") << "params must be an object";
        QTest::newRow("empty deck") << QByteArray("{\"format\": 1, \"deck\": \"x\", \"scenes\": []}") << "non-empty array";
        QTest::newRow("bad scene in deck") << QByteArray("{\"format\": 1, \"deck\": \"x\", \"scenes\": [{\"lab\": \"decay-bound\"}, {\"lab\": \"decay-bound\", \"params\": {\"max_distance\": 0}}]}")
                                           << "scenes[1].params.max_distance";
        QTest::newRow("notes not text") << QByteArray("{\"format\": 1, \"deck\": \"x\", \"scenes\": [{\"lab\": \"decay-bound\"}, {\"lab\": \"decay-bound\", \"notes\": 3}]}")
                                        << "scenes[1].notes must be text, got 3";
        QTest::newRow("notes too long") << QByteArray("{\"format\": 1, \"deck\": \"x\", \"scenes\": [{\"lab\": \"decay-bound\", \"notes\": \""
                                                      + QByteArray(kMaxNotesChars + 1, 'n') + "\"}]}")
                                        << "scenes[0].notes are 20001 characters long; notes are at most 20000";
        QTest::newRow("scene notes array") << decayScene("\"d\": 64", ", \"notes\": [\"a\"]") << "notes must be text, got an array";
        QTest::newRow("oversized") << QByteArray(kMaxSceneBytes + 10, ' ') << "at most 1048576 bytes";
        QTest::newRow("train not a choice") << QByteArray("{\"format\": 1, \"lab\": \"transformer\", \"train\": \"now\"}")
                                            << "train must be \"on-enter\" or \"on-key\", got 'now'";
        QTest::newRow("model on another lab") << decayScene("\"d\": 64", ", \"model\": \"m.fbmodel\"")
                                              << "model is only for the transformer lab";
        QTest::newRow("model not text") << QByteArray("{\"format\": 1, \"lab\": \"transformer\", \"model\": 3}")
                                        << "model must be the path of a model file (1 to 4096 characters), got 3";
        QTest::newRow("replay negative") << QByteArray("{\"format\": 1, \"lab\": \"transformer\", \"replay\": -1}")
                                         << "replay must be a training step, an integer in [0, 100000], got -1";
        QTest::newRow("replay fractional") << QByteArray("{\"format\": 1, \"lab\": \"transformer\", \"replay\": 2.5}")
                                           << "replay must be a training step";
        QTest::newRow("train on a lab that does not train") << decayScene("\"d\": 64", ", \"train\": \"on-enter\"")
                                                            << "train is only for a lab that trains, and decay-bound does not";
    }
    void refusesBadFiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const SceneParse r = parseSceneOrDeck(json, labSpec);
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
    }

    void aTrainingSlideCanStartOnEntering()
    {
        const SceneParse r = parseSceneOrDeck("{\"format\": 1, \"lab\": \"transformer\", \"train\": \"on-enter\"}", labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        QVERIFY(r.scene.trainOnEnter);
        // It round-trips through a file; "on-key" (the default) writes nothing.
        const SceneParse again = parseSceneOrDeck(serializeScene(r.scene, *labSpec(QStringLiteral("transformer"))), labSpec);
        QVERIFY(again.scene.trainOnEnter);
        const SceneParse onKey = parseSceneOrDeck("{\"format\": 1, \"lab\": \"training\", \"train\": \"on-key\"}", labSpec);
        QVERIFY2(onKey.error.isEmpty(), qPrintable(onKey.error));
        QVERIFY(!onKey.scene.trainOnEnter);
        QVERIFY(!serializeScene(onKey.scene, *labSpec(QStringLiteral("training"))).contains("train\""));
    }

    // A transformer slide may name a model file (read from the slide file's folder when relative)
    // and a replay step; both round-trip as written.
    void aTransformerSlideNamesAModel()
    {
        SceneParse r = parseSceneOrDeck(
            "{\"format\": 1, \"lab\": \"transformer\", \"model\": \"runs/induction.fbmodel\", \"replay\": 300}", labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        QCOMPARE(r.scene.model, QStringLiteral("runs/induction.fbmodel"));
        QCOMPARE(r.scene.replayStep, 300);
        QCOMPARE(r.scene.modelPath(), QStringLiteral("runs/induction.fbmodel"));
        r.scene.folder = QStringLiteral("/lectures/week3");
        QCOMPARE(r.scene.modelPath(), QStringLiteral("/lectures/week3/runs/induction.fbmodel"));
        const SceneParse again = parseSceneOrDeck(serializeScene(r.scene, *labSpec(QStringLiteral("transformer"))), labSpec);
        QCOMPARE(again.scene.model, r.scene.model);
        QCOMPARE(again.scene.replayStep, 300);
        QVERIFY(!serializeScene(again.scene, *labSpec(QStringLiteral("transformer"))).contains("week3"));
    }

    void readsADeck()
    {
        const QByteArray json = "{\"format\": 1, \"deck\": \"Lecture\", \"scenes\": ["
                                "{\"lab\": \"decay-bound\", \"title\": \"one\", \"params\": {\"d\": 64}},"
                                "{\"lab\": \"decay-bound\", \"title\": \"two\", \"params\": {\"d\": 128}}]}";
        const SceneParse r = parseSceneOrDeck(json, labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.isDeck);
        QCOMPARE(r.deck.title, QStringLiteral("Lecture"));
        QCOMPARE(r.deck.scenes.size(), 2);
        QCOMPARE(r.deck.scenes[1].values.integer("d"), 128);
    }

    // Notes (the presenter view's) go into the deck file and come back character for character;
    // a slide without notes writes no "notes" key.
    void notesRoundTripThroughADeck()
    {
        const LabSpec *spec = labSpec(QStringLiteral("decay-bound"));
        Deck deck;
        deck.title = QStringLiteral("Notes");
        deck.scenes << Scene { QStringLiteral("decay-bound"), QStringLiteral("one"), spec->defaults(), {},
                               QStringLiteral("Say: the bound decays.\nThen: \"why?\" — äöü ✓") };
        deck.scenes << Scene { QStringLiteral("decay-bound"), QStringLiteral("two"), spec->defaults(), {}, {} };
        deck.scenes << Scene { QStringLiteral("decay-bound"), QStringLiteral("three"), spec->defaults(), {},
                               QString(kMaxNotesChars, QLatin1Char('x')) };
        const QByteArray bytes = serializeDeck(deck, labSpec);
        const SceneParse r = parseSceneOrDeck(bytes, labSpec);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(r.warnings.isEmpty());
        QCOMPARE(r.deck.scenes.size(), 3);
        for (int i = 0; i < 3; ++i) QCOMPARE(r.deck.scenes[i].notes, deck.scenes[i].notes);
        QCOMPARE(serializeDeck(r.deck, labSpec), bytes);
        QCOMPARE(bytes.count("\"notes\""), 2);
        // A lone scene keeps its notes too.
        const SceneParse lone = parseSceneOrDeck(serializeScene(deck.scenes[0], *spec), labSpec);
        QCOMPARE(lone.scene.notes, deck.scenes[0].notes);
    }

    void roundTripsEveryLab()
    {
        for (const LabEntry &entry : labRegistry()) {
            const LabSpec *spec = labSpec(entry.name);
            QVERIFY2(spec, qPrintable(entry.name));
            Scene s { entry.name, QStringLiteral("t"), spec->defaults(), {} };
            const SceneParse back = parseSceneOrDeck(serializeScene(s, *spec), labSpec);
            QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
            QVERIFY(back.scene.values == s.values);
            QVERIFY(back.warnings.isEmpty());
        }
    }

    void atomicSaveKeepsThePreviousFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.fullband"));
        QCOMPARE(writeFileAtomically(path, "first"), QString());
        // A path below a regular file can never be created: the save must fail and leave no file.
        const QString impossible = path + QStringLiteral("/inside.fullband");
        QVERIFY(!writeFileAtomically(impossible, "second").isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("first"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // no temporary left behind
    }

    void readFileRefusesOversizedWithoutReading()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.fullband"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(kMaxSceneBytes * 3));
        f.close();
        const SceneParse r = readSceneFile(path, labSpec);
        QVERIFY(r.error.contains(QStringLiteral("at most")));
        QVERIFY(readSceneFile(dir.filePath(QStringLiteral("missing.fullband")), labSpec).error.contains(QStringLiteral("does not exist")));
    }
};

QTEST_MAIN(TestScene)
#include "tst_scene.moc"
