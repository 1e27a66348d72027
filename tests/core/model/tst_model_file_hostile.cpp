// The model file (core/model/model_file.h) against every kind of bad file (foreign, wrong version,
// truncated, damaged, hostile sizes, negative sizes, NaN weights, a vocabulary that does not fit the
// shape): each refused with one line that names the problem, leaving the caller's model as it was.
// Files saved and loaded back, and the older versions read, are tst_model_file's.
#include "core/model/byte_writer.h"
#include "core/model/model_file.h"
#include "core/transformer/transformer_trainer.h"

#include "support/model_file_bytes.h"

#include <QTest>

#include <limits>

using namespace fb;
using test::findSection;
using test::putU32;
using test::refused;
using test::rewriteSection;
using test::tinyText;

class TestModelFileHostile : public QObject {
    Q_OBJECT
private:
    TransformerResult textRun_;
    std::string textBytes_;

private Q_SLOTS:
    void initTestCase()
    {
        textRun_ = trainTransformer(tinyText());
        QVERIFY(textRun_.model);
        textBytes_ = ModelFile::encode(*textRun_.model, textRun_);
        QCOMPARE(std::string_view(textBytes_).substr(0, 8), ModelFile::kMagic);
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

QTEST_APPLESS_MAIN(TestModelFileHostile)
#include "tst_model_file_hostile.moc"
