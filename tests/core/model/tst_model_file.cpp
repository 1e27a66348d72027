// The model file (core/model/model_file.h): a trained transformer saved and loaded back bit for bit,
// and every kind of bad file (foreign, wrong version, truncated, damaged, hostile sizes, negative
// sizes, NaN weights, a vocabulary that does not fit the shape) refused with one line that names
// the problem, leaving the caller's model as it was.
#include "core/io/crc32.h"
#include "core/model/byte_writer.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_trainer.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace fb;

namespace {

// A text of ~2,000 characters with a non-ASCII character, and a tiny model trained on it for a few steps.
std::string smallText()
{
    std::string text;
    for (int i = 0; i < 60; ++i) text += "the cat sat on the mat, caf\xC3\xA9 " + std::to_string(i % 7) + "\n";
    return text;
}

TransformerConfig tinyText()
{
    TransformerConfig c;
    c.task = TransformerTask::Text;
    c.text = smallText();
    c.seqLen = 16;
    c.batch = 4;
    c.layers = 1;
    c.heads = 2;
    c.dModel = 16;
    c.steps = 6;
    c.evalEvery = 3;
    c.sampleChars = 20;
    return c;
}

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

// The section of bytes with this tag: the offset of its payload and its length.
std::pair<std::size_t, std::size_t> findSection(const std::string &bytes, const char *tag)
{
    std::size_t at = ModelFile::kMagic.size() + 8;
    while (at + 8 <= bytes.size()) {
        std::uint32_t length = 0;
        for (int k = 0; k < 4; ++k) length |= std::uint32_t(static_cast<unsigned char>(bytes[at + 4 + k])) << (8 * k);
        if (bytes.compare(at, 4, tag) == 0) return { at + 8, length };
        at += 8 + length + 4;
    }
    return { 0, 0 };
}

// Replaces the payload of section tag by edit(payload), with the length and the CRC made right again:
// what a hostile file looks like (a damaged one would fail its CRC first).
std::string rewriteSection(const std::string &bytes, const char *tag, const std::function<void(std::string &)> &edit)
{
    const auto [offset, length] = findSection(bytes, tag);
    std::string payload = bytes.substr(offset, length);
    edit(payload);
    ByteWriter w;
    w.raw(std::string_view(tag, 4)).u32(std::uint32_t(payload.size())).raw(payload);
    w.u32(crc32(std::string(tag, 4) + payload));
    return bytes.substr(0, offset - 8) + w.bytes() + bytes.substr(offset + length + 4);
}

void putU32(std::string &s, std::size_t at, std::uint32_t v)
{
    for (int k = 0; k < 4; ++k) s[at + std::size_t(k)] = char((v >> (8 * k)) & 0xff);
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

    // decode refuses bytes with one line holding every word of expected; a model decoded before stays.
    static void refused(const std::string &bytes, const std::vector<std::string> &expected)
    {
        SavedModel out;
        out.model.params = Eigen::VectorXf::Constant(3, 7.0f);
        out.run.stepsDone = 42;
        const std::string err = ModelFile::decode(bytes, out);
        QVERIFY2(!err.empty(), "accepted");
        QVERIFY2(err.find('\n') == std::string::npos, err.c_str());
        for (const std::string &word : expected) QVERIFY2(err.find(word) != std::string::npos, err.c_str());
        QCOMPARE(out.model.params.size(), Eigen::Index(3));  // unchanged
        QCOMPARE(out.model.params[0], 7.0f);
        QCOMPARE(out.run.stepsDone, 42);
    }

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

    void foreignAndVersion()
    {
        refused("", { "not a FullBand model file" });
        refused("hello, world\n", { "not a FullBand model file" });
        refused(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(100, '\0'), { "not a FullBand model file" });
        std::string v8 = textBytes_;
        putU32(v8, 8, 8);
        refused(v8, { "version 8", "reads versions 1 to 7" });
        std::string v0 = textBytes_;
        putU32(v0, 8, 0);
        refused(v0, { "version 0" });
        std::string sections = textBytes_;
        putU32(sections, 12, 9);
        refused(sections, { "section count", "got 9" });
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

    // Every prefix of the file is refused (sampled every few bytes, and around each section's start).
    void truncated()
    {
        for (std::size_t n = 0; n < textBytes_.size(); n += (n < 64 ? 1 : 97))
            refused(textBytes_.substr(0, n), {});
        refused(textBytes_.substr(0, textBytes_.size() - 1), { "REPL", "truncated" });
        refused(textBytes_ + "x", { "1 bytes after its last section" });
    }

    // One flipped bit anywhere after the header is caught by its section's CRC (or its framing).
    void damaged()
    {
        for (std::size_t at = 16; at < textBytes_.size(); at += 31) {
            std::string bad = textBytes_;
            bad[at] = char(bad[at] ^ 0x10);
            refused(bad, {});
        }
        const auto [params, length] = findSection(textBytes_, "PARM");
        std::string bad = textBytes_;
        bad[params + length / 2] = char(bad[params + length / 2] ^ 1);
        refused(bad, { "PARM", "damaged", "CRC" });
    }

    // Files whose CRCs are right but whose numbers are not: each refused before anything is allocated
    // for it, naming the field and its valid range.
    void hostile()
    {
        // a weight count of 2^62
        refused(rewriteSection(textBytes_, "PARM", [](std::string &p) { p.replace(0, 8, std::string("\0\0\0\0\0\0\0\x40", 8)); }),
                { "weight count must be", "got 4611686018427387904" });
        // a vocabulary of 4 billion characters
        refused(rewriteSection(textBytes_, "VOCA", [](std::string &p) { putU32(p, 0, 0xFFFFFFFFu); }),
                { "vocabulary must hold at most 512" });
        // a training curve of 4 billion values: the run section's curve count sits after 60 bytes plus the message
        refused(rewriteSection(textBytes_, "RUN_",
                               [&](std::string &p) {
                                   const std::size_t message = textRun_.message.size();
                                   putU32(p, 4 + 4 + message + 8 + 4 + 8 + 4 + 4 + 24, 0xFFFFFFFFu);
                               }),
                { "training curve must hold at most 6 elements" });
        // a section that claims more bytes than the file holds
        std::string claims = textBytes_;
        putU32(claims, findSection(textBytes_, "SHAP").first - 4, 0xFFFFFFF0u);
        refused(claims, { "SHAP claims 4294967280 bytes", "truncated" });
        // a section missing: SHAP where CONF should be
        const auto conf = findSection(textBytes_, "CONF");
        refused(textBytes_.substr(0, conf.first - 8) + textBytes_.substr(conf.first + conf.second + 4),
                { "expected section CONF, found 'SHAP'" });
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

    // Configurations and weights no training makes: written as they are, refused when read.
    void impossibleModels_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative layers") << "layers" << "layers must be an integer in [1, 8], got -3";
        QTest::newRow("huge d_model") << "d_model" << "d_model must be an even integer in [4, 512], got 1000000";
        QTest::newRow("heads not dividing") << "heads" << "heads must divide d_model";
        QTest::newRow("NaN lr") << "lr" << "lr must be a number in";
        QTest::newRow("NaN weight") << "nan" << "weight 5 of";
        QTest::newRow("infinite weight") << "inf" << "is infinite";
        QTest::newRow("shape") << "shape" << "does not match the configuration";
        QTest::newRow("vocabulary size") << "vocab" << "vocabulary must hold";
        QTest::newRow("vocabulary repeats") << "repeat" << "must be distinct";
        QTest::newRow("surrogate") << "surrogate" << "Unicode scalar value";
        QTest::newRow("unk") << "unk" << "<unk> id must be -1";
    }
    void impossibleModels()
    {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        TrainedTransformer m = *textRun_.model;
        std::vector<char32_t> symbols = m.corpus->symbols();
        std::vector<std::size_t> counts = m.corpus->counts();
        std::string bytes;
        if (what == "layers") m.config.layers = -3;
        else if (what == "d_model") m.config.dModel = 1000000;
        else if (what == "heads") m.config.heads = 3;
        else if (what == "lr") m.config.lr = std::numeric_limits<double>::quiet_NaN();
        else if (what == "nan") m.params[5] = std::numeric_limits<float>::quiet_NaN();
        else if (what == "inf") m.params[5] = std::numeric_limits<float>::infinity();
        else if (what == "shape") m.shape.dModel = 32;
        bytes = ModelFile::encode(m, textRun_);
        // vocabulary edits go into the VOCA section directly (a TextCorpus cannot hold them)
        auto vocabulary = [&](const std::vector<char32_t> &sym, int unknown) {
            return rewriteSection(bytes, "VOCA", [&](std::string &p) {
                ByteWriter w;
                w.u32(std::uint32_t(sym.size())).i32(unknown);
                for (char32_t c : sym) w.u32(std::uint32_t(c));
                for (std::size_t i = 0; i < sym.size(); ++i) w.u64(1);
                p = w.bytes();
            });
        };
        if (what == "vocab") {
            symbols.pop_back();
            bytes = vocabulary(symbols, -1);
        } else if (what == "repeat") {
            symbols[1] = symbols[0];
            bytes = vocabulary(symbols, -1);
        } else if (what == "surrogate") {
            symbols[2] = 0xD800;
            bytes = vocabulary(symbols, -1);
        } else if (what == "unk") {
            bytes = vocabulary(symbols, 0);  // symbol 0 is not U+FFFD
        }
        refused(bytes, { expected.toStdString() });
    }
};

QTEST_APPLESS_MAIN(TestModelFile)
#include "tst_model_file.moc"
