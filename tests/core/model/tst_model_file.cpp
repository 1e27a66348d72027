// The model file (core/model/model_file.h): a trained transformer saved and loaded back bit for bit,
// the files of earlier versions read as the models they were, the replay kept and thinned, and each
// version's new fields refused when out of range. Every other kind of bad file (foreign, wrong
// version, truncated, damaged, hostile sizes, negative sizes, NaN weights, a vocabulary that does
// not fit the shape) is tst_model_file_hostile's.
#include "core/io/crc32.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_trainer.h"

#include "support/model_file_bytes.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace fb;
using test::findSection;
using test::putU32;
using test::refused;
using test::rewriteSection;
using test::tinyText;

namespace {

TransformerConfig tinyInduction()
{
    TransformerConfig c;
    c.seqLen = 8;
    c.batch = 4;
    c.layers = 1;
    c.heads = 2;
    c.dModel = 16;
    c.steps = 4;
    c.evalEvery = 2;
    return c;
}

// A version-4 file as version 3 wrote it: without the REPL section (the last), 5 sections.
std::string withoutReplay(const std::string &bytes, std::uint32_t version = 3)
{
    const auto [offset, length] = findSection(bytes, "REPL");
    std::string old = bytes.substr(0, offset - 8) + bytes.substr(offset + length + 4);
    // without version 7's short_conv and version 6's pairs_min at the end of CONF (an i32 each) and
    // version 6's recall points at the end of RUN_ (a u32 count, 0 for these runs), then without
    // version 5's mixer (a u32 length and "softmax")
    old = rewriteSection(old, "CONF", [](std::string &p) { p.resize(p.size() - 8); });
    old = rewriteSection(old, "RUN_", [](std::string &p) { p.resize(p.size() - 4); });
    old = rewriteSection(old, "CONF", [](std::string &p) { p.resize(p.size() - 4 - 7); });
    putU32(old, 8, version);
    putU32(old, 12, 5);
    return old;
}

} // namespace

class TestModelFile : public QObject {
    Q_OBJECT
private:
    TransformerResult textRun_, inductionRun_;
    std::string textBytes_;

private Q_SLOTS:
    void initTestCase()
    {
        textRun_ = trainTransformer(tinyText());
        inductionRun_ = trainTransformer(tinyInduction());
        QVERIFY(textRun_.model && inductionRun_.model);
        textBytes_ = ModelFile::encode(*textRun_.model, textRun_);
        QCOMPARE(std::string_view(textBytes_).substr(0, 8), ModelFile::kMagic);
    }

    void crc()
    {
        QCOMPARE(crc32("123456789"), 0xCBF43926u);
    }

    // Everything read back as written: the weights' bits, the vocabulary, the run's figures, and the
    // bytes of the file written again from what was read.
    void roundTripBitForBit()
    {
        for (const TransformerResult *run : { &textRun_, &inductionRun_ }) {
            const TrainedTransformer &m = *run->model;
            const std::string bytes = ModelFile::encode(m, *run);
            SavedModel back;
            const std::string err = ModelFile::decode(bytes, back);
            QVERIFY2(err.empty(), err.c_str());
            QCOMPARE(back.model.params.size(), m.params.size());
            QVERIFY(std::memcmp(back.model.params.data(), m.params.data(), sizeof(float) * std::size_t(m.params.size()))
                    == 0);
            QCOMPARE(back.model.shape.vocab, m.shape.vocab);
            QCOMPARE(back.model.shape.dModel, m.shape.dModel);
            QCOMPARE(back.model.config.task, m.config.task);
            QCOMPARE(back.model.config.seqLen, m.config.seqLen);
            QCOMPARE(back.model.config.lr, m.config.lr);
            QCOMPARE(back.model.config.seed, m.config.seed);
            QVERIFY(back.model.config.text.empty());
            QCOMPARE(back.run.curve, run->curve);
            QCOMPARE(back.run.heldoutCurve.size(), run->heldoutCurve.size());
            QCOMPARE(back.run.stepsDone, run->stepsDone);
            QCOMPARE(back.run.bestStep, run->bestStep);
            QCOMPARE(back.run.heldoutLoss, run->heldoutLoss);
            QCOMPARE(back.run.lengths.size(), run->lengths.size());
            QCOMPARE(back.run.finalSnapshot.attention.size(), run->finalSnapshot.attention.size());
            QVERIFY(back.run.finalSnapshot.attention.front() == run->finalSnapshot.attention.front());
            QCOMPARE(back.run.finalSnapshot.sample, run->finalSnapshot.sample);
            QCOMPARE(bool(back.model.corpus), m.config.task == TransformerTask::Text);
            if (back.model.corpus) {
                QVERIFY(back.model.corpus->symbols() == m.corpus->symbols());
                QVERIFY(back.model.corpus->counts() == m.corpus->counts());
                QCOMPARE(back.model.corpus->unknownId(), m.corpus->unknownId());
                QCOMPARE(back.model.corpus->size(), std::size_t(0));  // the vocabulary, not the text
            }
            QCOMPARE(ModelFile::encode(back.model, back.run), bytes);
        }
    }

    // Saved to disk and opened again, the model writes exactly what it wrote before; no temporary file
    // is left beside it.
    void saveLoadAndWrite()
    {
        QTemporaryDir dir;
        const std::string path = QDir(dir.path()).filePath(QStringLiteral("m.fbmodel")).toStdString();
        QCOMPARE(ModelFile::save(path, *textRun_.model, textRun_), std::string());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("m.fbmodel") });
        SavedModel back;
        QCOMPARE(ModelFile::load(path, back), std::string());
        const std::string before = sampleTransformerText(*textRun_.model, "the ", 40, 0.8, 3);
        const std::string after = sampleTransformerText(back.model, "the ", 40, 0.8, 3);
        QCOMPARE(after, before);
        QCOMPARE(TextCorpus::countCharacters(after), std::size_t(40));
        // a folder, a missing file: one line naming the path
        SavedModel none;
        const std::string missing = ModelFile::load(path + ".missing", none);
        QVERIFY(!missing.empty() && missing.find("m.fbmodel.missing") != std::string::npos);
        QVERIFY(!ModelFile::load(dir.path().toStdString(), none).empty());
        // a save that cannot happen leaves nothing behind and the old file as it was
        QVERIFY(!ModelFile::save(dir.path().toStdString() + "/no/such/folder/m.fbmodel", *textRun_.model, textRun_).empty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    // A version-1 file (written before the model options: its CONF ends after sampleTemperature, 145
    // bytes) is read as the model it was, every option off; written again it is a version-2 file. A
    // model with options keeps them through a round trip, and ALiBi (pos 3) is no version-1 value.
    void versionOneAndOptions()
    {
        const std::string v2 = ModelFile::encode(*inductionRun_.model, inductionRun_);
        std::string v1 = rewriteSection(withoutReplay(v2), "CONF", [](std::string &p) { p.resize(145); });
        // without version 3's accuracies at the end of RUN_ (4 doubles and 2 per held-out point)
        const std::size_t accuracies = 8 * (4 + 2 * inductionRun_.heldoutCurve.size());
        v1 = rewriteSection(v1, "RUN_", [&](std::string &p) { p.resize(p.size() - accuracies); });
        putU32(v1, 8, 1);
        SavedModel back;
        const std::string err = ModelFile::decode(v1, back);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(back.model.config.window, 0);
        QCOMPARE(back.model.config.pos, PositionalScheme::Rope);
        QCOMPARE(ModelFile::encode(back.model, back.run), v2);
        std::string longer = rewriteSection(v2, "CONF", [](std::string &p) { p += std::string(4, '\0'); });
        refused(longer, { "CONF", "bytes more than its fields" });

        TransformerConfig c = tinyInduction();
        c.window = 3;
        c.pos = PositionalScheme::Alibi;
        const TransformerResult run = trainTransformer(c);
        QVERIFY(run.model);
        const std::string bytes = ModelFile::encode(*run.model, run);
        SavedModel opts;
        QCOMPARE(ModelFile::decode(bytes, opts), std::string());
        QCOMPARE(opts.model.config.window, 3);
        QCOMPARE(opts.model.config.pos, PositionalScheme::Alibi);
        QCOMPARE(opts.model.shape.window, 3);
        QCOMPARE(ModelFile::encode(opts.model, opts.run), bytes);
        std::string old = withoutReplay(bytes, 1);
        old = rewriteSection(old, "CONF", [](std::string &p) { p.resize(145); });
        refused(old, { "pos" });

        // version 3: a task with exact answers keeps its keys and accuracies through a round trip
        TransformerConfig a = tinyInduction();
        a.task = TransformerTask::Sort;
        a.items = 3;
        a.seqLen = answerSequenceLength(a);
        const TransformerResult sorted = trainTransformer(a);
        QVERIFY(sorted.model && std::isfinite(sorted.accuracy));
        SavedModel answers;
        QCOMPARE(ModelFile::decode(ModelFile::encode(*sorted.model, sorted), answers), std::string());
        QCOMPARE(answers.model.config.task, TransformerTask::Sort);
        QCOMPARE(answers.model.config.items, 3);
        QCOMPARE(answers.run.accuracy, sorted.accuracy);
        QCOMPARE(answers.run.heldoutCurve.back().accuracy, sorted.heldoutCurve.back().accuracy);
    }

    // Version 4 keeps the run's replay: every snapshot's maps and figures read back bit for bit, the
    // file written again from them the same; a version-3 file (no replay) reads with none. Hostile
    // replays (too many, steps descending or after the run) are refused.
    void replay()
    {
        TransformerConfig c = tinyInduction();
        c.probeEvery = 1;
        c.probeSeconds = 0.0;
        std::vector<TransformerSnapshot> snaps;
        const TransformerResult run = trainTransformer(c, {}, [&](const TransformerSnapshot &s) { snaps.push_back(s); });
        QVERIFY(run.model);
        QVERIFY(snaps.size() >= 4);
        const std::string bytes = ModelFile::encode(*run.model, run, snaps);
        SavedModel back;
        QCOMPARE(ModelFile::decode(bytes, back), std::string());
        QCOMPARE(back.replay.size(), snaps.size());
        for (std::size_t i = 0; i < snaps.size(); ++i) {
            QCOMPARE(back.replay[i].step, snaps[i].step);
            QCOMPARE(back.replay[i].attention.size(), snaps[i].attention.size());
            for (std::size_t m = 0; m < snaps[i].attention.size(); ++m)
                QVERIFY(back.replay[i].attention[m] == snaps[i].attention[m]);  // bit for bit
            QCOMPARE(back.replay[i].heldoutStep, snaps[i].heldoutStep);
        }
        QCOMPARE(ModelFile::encode(back.model, back.run, back.replay), bytes);
        SavedModel v3;
        QCOMPARE(ModelFile::decode(withoutReplay(bytes), v3), std::string());
        QVERIFY(v3.replay.empty());
        QCOMPARE(v3.run.stepsDone, run.stepsDone);

        std::vector<TransformerSnapshot> reversed(snaps.rbegin(), snaps.rend());
        refused(ModelFile::encode(*run.model, run, reversed), { "replay's steps must ascend" });
        std::vector<TransformerSnapshot> late = snaps;
        late.back().step = c.steps;  // allowed by the configuration ...
        TransformerResult shortRun = run;
        shortRun.stepsDone = c.steps - 1;  // ... but after the run's last step
        shortRun.curve.resize(std::size_t(shortRun.stepsDone));
        refused(ModelFile::encode(*run.model, shortRun, late), { "after the run's last" });
        refused(rewriteSection(bytes, "REPL", [](std::string &p) { putU32(p, 0, 97); }), { "replay must hold at most 96" });
    }

    // A long replay is thinned evenly to at most 96 snapshots, the first and the last kept; large maps
    // to at most 32 MB of them.
    void replayThinning()
    {
        std::vector<TransformerSnapshot> many(200);
        for (int i = 0; i < 200; ++i) {
            many[std::size_t(i)].step = i;
            many[std::size_t(i)].attention = { Eigen::MatrixXf::Zero(4, 4) };
        }
        std::vector<std::size_t> kept = ModelFile::thinReplay(many);
        QCOMPARE(kept.size(), ModelFile::kMaxReplay);
        QCOMPARE(kept.front(), std::size_t(0));
        QCOMPARE(kept.back(), std::size_t(199));
        for (std::size_t i = 1; i < kept.size(); ++i) {
            QVERIFY(kept[i] > kept[i - 1]);
            QVERIFY(kept[i] - kept[i - 1] <= 3);  // evenly: 199 / 95 ~ 2.1
        }
        for (auto &s : many) s.attention = { Eigen::MatrixXf::Zero(512, 512) };  // 1 MB each
        kept = ModelFile::thinReplay(many);
        QCOMPARE(kept.size(), std::size_t(32));
        QCOMPARE(kept.back(), std::size_t(199));
        QCOMPARE(ModelFile::thinReplay(std::vector<TransformerSnapshot>(5)).size(), std::size_t(5));
        QVERIFY(ModelFile::thinReplay({}).empty());
    }

    // Version 6: mqar's pairs_min and recall points round-trip; a hostile count or pair count is
    // refused (the points end RUN_: a u32 count, then an i32 and an f64 each).
    void recallPoints()
    {
        TransformerConfig c = tinyInduction();
        c.task = TransformerTask::Mqar;
        c.pairs = 3;
        c.pairsMin = 2;
        c.seqLen = answerSequenceLength(c);
        const TransformerResult run = trainTransformer(c);
        QVERIFY(run.model);
        QCOMPARE(int(run.recallByPairs.size()), 3);
        const std::string bytes = ModelFile::encode(*run.model, run);
        SavedModel back;
        QCOMPARE(ModelFile::decode(bytes, back), std::string());
        QCOMPARE(back.model.config.pairsMin, 2);
        QCOMPARE(ModelFile::encode(back.model, back.run), bytes);
        const std::size_t points = 4 + 3 * 12;
        refused(rewriteSection(bytes, "RUN_", [&](std::string &p) { putU32(p, p.size() - points, 1000); }),
                { "recall by pairs must hold at most 3" });
        refused(rewriteSection(bytes, "RUN_", [&](std::string &p) { putU32(p, p.size() - points + 4, 99); }),
                { "recall pair count", "got 99" });
        refused(rewriteSection(bytes, "CONF", [&](std::string &p) { putU32(p, p.size() - 8, 7); }),
                { "pairs_min must be at most pairs = 3", "got 7" });
        // the same file as version 5 wrote it: no short_conv, no pairs_min, no recall points
        std::string v5 = rewriteSection(bytes, "CONF", [](std::string &p) { p.resize(p.size() - 8); });
        v5 = rewriteSection(v5, "RUN_", [&](std::string &p) { p.resize(p.size() - points); });
        putU32(v5, 8, 5);
        SavedModel old;
        QCOMPARE(ModelFile::decode(v5, old), std::string());
        QCOMPARE(old.model.config.pairsMin, 0);
        QVERIFY(old.run.recallByPairs.empty());
        QCOMPARE(old.run.accuracy, run.accuracy);
    }

    // Version 7: short_conv round-trips with its weights; a hostile tap count is refused; a version-6
    // file (CONF without its last i32) reads as short_conv 0.
    void shortConv()
    {
        TransformerConfig c = tinyInduction();
        c.shortConv = 3;
        const TransformerResult run = trainTransformer(c);
        QVERIFY(run.model);
        const std::string bytes = ModelFile::encode(*run.model, run);
        SavedModel back;
        QCOMPARE(ModelFile::decode(bytes, back), std::string());
        QCOMPARE(back.model.config.shortConv, 3);
        QCOMPARE(back.model.params.size(), run.model->params.size());
        QCOMPARE(ModelFile::encode(back.model, back.run), bytes);
        refused(rewriteSection(bytes, "CONF", [&](std::string &p) { putU32(p, p.size() - 4, 1); }),
                { "short_conv must be 0 (off) or an integer in [2, 8]", "got 1" });
        refused(rewriteSection(bytes, "CONF", [&](std::string &p) { putU32(p, p.size() - 4, 4); }),
                { "the weight count must be" });  // 4 taps: weights the file does not hold
        c.shortConv = 0;
        const TransformerResult plain = trainTransformer(c);
        std::string v6 = rewriteSection(ModelFile::encode(*plain.model, plain), "CONF",
                                        [](std::string &p) { p.resize(p.size() - 4); });
        putU32(v6, 8, 6);
        SavedModel old;
        QCOMPARE(ModelFile::decode(v6, old), std::string());
        QCOMPARE(old.model.config.shortConv, 0);
        QCOMPARE(old.model.params, plain.model->params);
    }
};

QTEST_APPLESS_MAIN(TestModelFile)
#include "tst_model_file.moc"
