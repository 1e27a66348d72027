#include "core/model/model_file.h"

#include "core/io/atomic_file.h"
#include "core/io/bounded_read.h"
#include "core/io/crc32.h"
#include "core/model/byte_reader.h"
#include "core/model/byte_writer.h"
#include "core/model/model_config_io.h"
#include "core/transformer/transformer_layout.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace fb {

namespace {

constexpr const char *kTags[] = { "CONF", "SHAP", "VOCA", "PARM", "RUN_", "REPL" };
constexpr std::uint32_t sectionsOf(std::uint32_t version) { return version >= 4 ? 6 : 5; }  // versions 5 to 7 add no section
constexpr std::size_t kMaxMessage = 4096;       // bytes of the run's message
constexpr std::size_t kMaxSample = 1 << 20;     // bytes of the final snapshot's sample
constexpr std::size_t kMaxLengthRows = 16;      // rows of the length table (6 today)
constexpr std::size_t kMaxLengthColumns = 8;    // lengths per row (T, 2T, 4T today)
constexpr int kMaxLength = 1 << 20;             // tokens of an evaluation sequence

// ---- writing ----

void writeShape(ByteWriter &w, const TransformerShape &s)
{
    w.i32(s.vocab).i32(s.dModel).i32(s.layers).i32(s.heads).i32(s.obsInputs).u8(s.feedback).u8(s.embedScale);
}

void writeVocabulary(ByteWriter &w, const TextCorpus *corpus)
{
    if (!corpus) {
        w.u32(0).i32(-1);
        return;
    }
    w.u32(std::uint32_t(corpus->vocabSize())).i32(corpus->unknownId());
    for (char32_t c : corpus->symbols()) w.u32(std::uint32_t(c));
    for (std::size_t n : corpus->counts()) w.u64(n);
}

void writeParams(ByteWriter &w, const Eigen::VectorXf &p)
{
    w.u64(std::uint64_t(p.size()));
    for (Eigen::Index i = 0; i < p.size(); ++i) w.f32(p[i]);
}

void writeScores(ByteWriter &w, const std::vector<std::vector<double>> &scores)
{
    w.u32(std::uint32_t(scores.size()));
    for (const auto &layer : scores) w.doubles(layer);
}

void writeSnapshot(ByteWriter &w, const TransformerSnapshot &s)
{
    w.i32(s.step).f64(s.elapsedSeconds).i32(s.seqLen).i32(s.layers).i32(s.heads).ints(s.probeTokens);
    w.u32(std::uint32_t(s.attention.size()));
    for (const Eigen::MatrixXf &m : s.attention) {
        w.i32(int(m.rows())).i32(int(m.cols()));
        for (Eigen::Index i = 0; i < m.size(); ++i) w.f32(m.data()[i]);
    }
    writeScores(w, s.inductionScore);
    w.f64(s.gateMean).i32(s.heldoutStep).f64(s.heldoutLoss).f64(s.secondHalfLoss).string(s.sample);
}

void writeRun(ByteWriter &w, const TransformerResult &r)
{
    w.u32(std::uint32_t(r.status)).string(r.message.substr(0, kMaxMessage)).i64(r.params).i32(r.vocab);
    w.f64(r.flopsPerStep).i32(r.stepsDone).i32(r.bestStep).f64(r.seconds).f64(r.msPerStep).f64(r.wallSeconds);
    w.doubles(r.curve);
    w.u32(std::uint32_t(r.heldoutCurve.size()));
    for (const auto &p : r.heldoutCurve) w.i32(p.step).f64(p.loss).f64(p.secondHalfLoss);
    w.f64(r.heldoutLoss).f64(r.secondHalfLoss).f64(r.firstHalfLoss).f64(r.exactHeldoutLoss);
    writeScores(w, r.inductionScore);
    w.u32(std::uint32_t(r.lengths.size()));
    for (const LengthRow &row : r.lengths)
        w.string(row.label).u32(std::uint32_t(row.scaling)).ints(row.lengths).doubles(row.loss).doubles(row.repeatLoss);
    w.i32(r.extendedLength).f64(r.extendedLoss);
    writeSnapshot(w, r.finalSnapshot);
    // version 3: the answer tasks' accuracies (NaN for the other tasks)
    w.f64(r.accuracy).f64(r.trainAccuracy);
    for (const auto &p : r.heldoutCurve) w.f64(p.accuracy).f64(p.trainAccuracy);
    w.f64(r.finalSnapshot.accuracy).f64(r.finalSnapshot.trainAccuracy);
    // version 6: mqar's recall by pair count
    w.u32(std::uint32_t(r.recallByPairs.size()));
    for (const auto &p : r.recallByPairs) w.i32(p.pairs).f64(p.accuracy);
}

// ---- reading ----

bool readShape(ByteReader &r, const TransformerConfig &c, TransformerShape &s)
{
    r.integer(s.vocab, "the shape's vocab", 1, TextCorpus::kDefaultMaxVocab);
    r.integer(s.dModel, "the shape's d_model", INT_MIN, INT_MAX);
    r.integer(s.layers, "the shape's layers", INT_MIN, INT_MAX);
    r.integer(s.heads, "the shape's heads", INT_MIN, INT_MAX);
    r.integer(s.obsInputs, "the shape's obs inputs", INT_MIN, INT_MAX);
    r.flag(s.feedback, "the shape's feedback flag");
    r.flag(s.embedScale, "the shape's embed_scale flag");
    if (!r.ok()) return false;
    const int expectedVocab = c.task == TransformerTask::Text ? s.vocab : transformerVocabulary(c);
    const TransformerShape e = transformerShape(c, expectedVocab);
    if (s.vocab != e.vocab || s.dModel != e.dModel || s.layers != e.layers || s.heads != e.heads
        || s.obsInputs != e.obsInputs || s.feedback != e.feedback || s.embedScale != e.embedScale)
        return r.fail("the shape (vocab " + std::to_string(s.vocab) + ", d_model " + std::to_string(s.dModel) + ", layers "
                      + std::to_string(s.layers) + ", heads " + std::to_string(s.heads)
                      + ") does not match the configuration (vocab " + std::to_string(e.vocab) + ", d_model "
                      + std::to_string(e.dModel) + ", layers " + std::to_string(e.layers) + ", heads "
                      + std::to_string(e.heads) + ", and its feedback, inputs and embedding scale)");
    s = e;  // the model options (window, ...) are the configuration's, not stored twice
    return true;
}

bool readVocabulary(ByteReader &r, const TransformerConfig &c, const TransformerShape &s,
                    std::shared_ptr<const TextCorpus> &out)
{
    const bool text = c.task == TransformerTask::Text;
    const std::size_t expected = text ? std::size_t(s.vocab) : 0;
    std::size_t n = 0;
    int unknown = -1;
    if (!r.count(n, "the vocabulary", std::size_t(TextCorpus::kDefaultMaxVocab), 12)) return false;
    if (n != expected)
        return r.fail("the vocabulary must hold " + std::to_string(expected) + " characters ("
                      + (text ? "the shape's vocab" : std::string("none outside the text task")) + "), got "
                      + std::to_string(n));
    r.integer(unknown, "the vocabulary's <unk> id", -1, int(n) - 1);
    std::vector<char32_t> symbols(n);
    std::vector<std::size_t> counts(n);
    for (char32_t &cp : symbols) {
        std::uint32_t v = 0;
        r.u32(v, "a vocabulary character");
        cp = char32_t(v);
    }
    for (std::size_t &k : counts) {
        std::uint64_t v = 0;
        r.u64(v, "a vocabulary count");
        k = std::size_t(v);
    }
    if (!r.ok() || !text) return r.ok();
    if (std::string err = TextCorpus::checkVocabulary(symbols, counts, unknown); !err.empty()) return r.fail(err);
    out = std::make_shared<const TextCorpus>(TextCorpus::fromVocabulary(std::move(symbols), std::move(counts), unknown));
    return true;
}

bool readParams(ByteReader &r, const TransformerShape &s, Eigen::VectorXf &out)
{
    const auto expected = std::uint64_t(TransformerLayout(s).total);
    std::uint64_t n = 0;
    if (!r.u64(n, "the weight count")) return false;
    if (n != expected)
        return r.fail("the weight count must be " + std::to_string(expected) + " (the shape's parameters), got "
                      + std::to_string(n));
    if (n * 4 != r.remaining())
        return r.fail("the weights need " + std::to_string(n * 4) + " bytes, the section holds "
                      + std::to_string(r.remaining()));
    Eigen::VectorXf p(static_cast<Eigen::Index>(n));
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        r.f32(p[i], "a weight");
        if (!std::isfinite(p[i]))
            return r.fail("every weight must be a finite number, but weight " + std::to_string(i) + " of "
                          + std::to_string(n) + " is " + (std::isnan(p[i]) ? "NaN" : "infinite"));
    }
    out = std::move(p);
    return r.ok();
}

bool readScores(ByteReader &r, std::vector<std::vector<double>> &out, const char *what, int layers, int heads)
{
    std::size_t n = 0;
    if (!r.count(n, what, std::size_t(layers), 4)) return false;
    out.resize(n);
    for (auto &layer : out) r.doubles(layer, what, std::size_t(heads));
    return r.ok();
}

bool readSnapshot(ByteReader &r, const TransformerConfig &c, const TransformerShape &s, TransformerSnapshot &out)
{
    r.integer(out.step, "the snapshot's step", 0, c.steps);
    r.f64(out.elapsedSeconds, "the snapshot's time");
    r.integer(out.seqLen, "the snapshot's seq_len", 0, c.seqLen);
    r.integer(out.layers, "the snapshot's layers", 0, c.layers);
    r.integer(out.heads, "the snapshot's heads", 0, c.heads);
    r.ints(out.probeTokens, "the snapshot's probe tokens", 8 * std::size_t(c.seqLen), 0, s.vocab - 1);
    std::size_t maps = 0;
    r.count(maps, "the snapshot's attention maps", std::size_t(out.layers) * std::size_t(out.heads), 8);
    out.attention.resize(maps);
    for (Eigen::MatrixXf &m : out.attention) {
        int rows = 0, cols = 0;
        r.integer(rows, "an attention map's rows", 0, out.seqLen);
        r.integer(cols, "an attention map's columns", 0, out.seqLen);
        if (!r.ok()) return false;
        if (std::size_t(rows) * std::size_t(cols) * 4 > r.remaining())
            return r.fail("an attention map of " + std::to_string(rows) + " x " + std::to_string(cols)
                          + " is cut short");
        m.resize(rows, cols);
        for (Eigen::Index i = 0; i < m.size(); ++i) r.f32(m.data()[i], "an attention weight");
    }
    readScores(r, out.inductionScore, "the snapshot's induction scores", c.layers, c.heads);
    r.f64(out.gateMean, "the snapshot's gate mean");
    r.integer(out.heldoutStep, "the snapshot's held-out step", -1, c.steps);
    r.f64(out.heldoutLoss, "the snapshot's held-out loss");
    r.f64(out.secondHalfLoss, "the snapshot's second-half loss");
    r.string(out.sample, "the snapshot's sample", kMaxSample);
    return r.ok();
}

bool readRun(ByteReader &r, const TransformerConfig &c, const TransformerShape &s, TransformerResult &out,
             std::uint32_t version)
{
    enumeration(r, out.status, "the run's status", 2);
    r.string(out.message, "the run's message", kMaxMessage);
    std::uint64_t params = 0;
    r.u64(params, "the run's parameter count");
    out.params = (long long)(params);
    r.integer(out.vocab, "the run's vocab", s.vocab, s.vocab);
    r.f64(out.flopsPerStep, "the run's FLOPs per step");
    r.integer(out.stepsDone, "the run's finished steps", 0, c.steps);
    r.integer(out.bestStep, "the run's best step", -1, c.steps);
    r.f64(out.seconds, "the run's seconds");
    r.f64(out.msPerStep, "the run's ms per step");
    r.f64(out.wallSeconds, "the run's wall seconds");
    r.doubles(out.curve, "the training curve", std::size_t(c.steps));
    std::size_t points = 0;
    r.count(points, "the held-out curve", std::size_t(c.steps) + 2, 20);
    out.heldoutCurve.resize(points);
    for (auto &p : out.heldoutCurve) {
        r.integer(p.step, "a held-out step", 0, c.steps);
        r.f64(p.loss, "a held-out loss");
        r.f64(p.secondHalfLoss, "a held-out second-half loss");
    }
    r.f64(out.heldoutLoss, "the held-out loss");
    r.f64(out.secondHalfLoss, "the second-half loss");
    r.f64(out.firstHalfLoss, "the first-half loss");
    r.f64(out.exactHeldoutLoss, "the exact held-out loss");
    readScores(r, out.inductionScore, "the induction scores", c.layers, c.heads);
    std::size_t rows = 0;
    r.count(rows, "the length table", kMaxLengthRows, 20);
    out.lengths.resize(rows);
    for (LengthRow &row : out.lengths) {
        r.string(row.label, "a length-table label", 64);
        enumeration(r, row.scaling, "a length-table scaling", 3);
        r.ints(row.lengths, "a length-table row's lengths", kMaxLengthColumns, 1, kMaxLength);
        r.doubles(row.loss, "a length-table row's losses", kMaxLengthColumns);
        r.doubles(row.repeatLoss, "a length-table row's repeat losses", kMaxLengthColumns);
    }
    r.integer(out.extendedLength, "the extended length", 0, kMaxLength);
    r.f64(out.extendedLoss, "the extended loss");
    readSnapshot(r, c, s, out.finalSnapshot);
    if (version >= 3) {
        r.f64(out.accuracy, "the accuracy");
        r.f64(out.trainAccuracy, "the training accuracy");
        for (auto &p : out.heldoutCurve) {
            r.f64(p.accuracy, "a held-out accuracy");
            r.f64(p.trainAccuracy, "a training accuracy");
        }
        r.f64(out.finalSnapshot.accuracy, "the snapshot's accuracy");
        r.f64(out.finalSnapshot.trainAccuracy, "the snapshot's training accuracy");
    }
    if (version >= 6) {
        std::size_t points = 0;
        r.count(points, "the recall by pairs", recallPairCounts(c).size(), 12);
        out.recallByPairs.resize(points);
        for (auto &p : out.recallByPairs) {
            r.integer(p.pairs, "a recall pair count", 1, std::max(c.pairs, 1));
            r.f64(p.accuracy, "a recall accuracy");
        }
    }
    return r.ok();
}

bool readReplay(ByteReader &r, const TransformerConfig &c, const TransformerShape &s, const TransformerResult &run,
                std::vector<TransformerSnapshot> &out)
{
    std::size_t count = 0;
    r.count(count, "the replay", ModelFile::kMaxReplay, 40);
    out.resize(count);
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count && r.ok(); ++i) {
        TransformerSnapshot &snap = out[i];
        if (!readSnapshot(r, c, s, snap)) return false;
        r.f64(snap.accuracy, "a replay snapshot's accuracy");
        r.f64(snap.trainAccuracy, "a replay snapshot's training accuracy");
        if (snap.step > run.stepsDone)
            return r.fail("a replay snapshot's step " + std::to_string(snap.step) + " is after the run's last ("
                          + std::to_string(run.stepsDone) + ")");
        if (i > 0 && snap.step < out[i - 1].step)
            return r.fail("the replay's steps must ascend, got " + std::to_string(snap.step) + " after "
                          + std::to_string(out[i - 1].step));
        for (const Eigen::MatrixXf &m : snap.attention) bytes += std::size_t(m.size()) * 4;
        if (bytes > ModelFile::kMaxReplayBytes)
            return r.fail("the replay's maps exceed " + std::to_string(ModelFile::kMaxReplayBytes >> 20) + " MB");
    }
    return r.ok();
}

// A section's payload: tag, length, payload and CRC checked.
bool section(ByteReader &r, const char *tag, std::string_view &payload)
{
    std::string_view got;
    std::uint32_t length = 0, crc = 0;
    if (!r.raw(4, got, "a section tag")) return false;
    if (got != std::string_view(tag, 4)) {
        std::string shown;
        for (char ch : got) shown += (ch >= 0x20 && ch < 0x7f) ? ch : '?';
        return r.fail("expected section " + std::string(tag) + ", found '" + shown + "'");
    }
    if (!r.u32(length, tag)) return false;
    if (std::uint64_t(length) + 4 > r.remaining())
        return r.fail("section " + std::string(tag) + " claims " + std::to_string(length) + " bytes, but only "
                      + std::to_string(r.remaining()) + " follow (the file is truncated)");
    std::string_view bytes;
    r.raw(length, bytes, tag);
    r.u32(crc, tag);
    const std::string checked = std::string(tag, 4) + std::string(bytes);
    if (crc32(checked) != crc) return r.fail("section " + std::string(tag) + " is damaged (its CRC-32 does not match)");
    payload = bytes;
    return true;
}

// Reads a section's payload with read(reader) and checks that it used every byte.
template <typename F>
bool readSection(ByteReader &file, const char *tag, F &&read)
{
    std::string_view payload;
    if (!section(file, tag, payload)) return false;
    ByteReader r(payload);
    if (!read(r)) return file.fail(r.error().empty() ? std::string("section ") + tag + " is unreadable" : r.error());
    if (r.remaining() != 0)
        return file.fail("section " + std::string(tag) + " has " + std::to_string(r.remaining())
                         + " bytes more than its fields");
    return true;
}

} // namespace

std::vector<std::size_t> ModelFile::thinReplay(const std::vector<TransformerSnapshot> &replay)
{
    std::vector<std::size_t> kept;
    if (replay.empty()) return kept;
    std::size_t largest = 1;
    for (const TransformerSnapshot &s : replay) {
        std::size_t bytes = 0;
        for (const Eigen::MatrixXf &m : s.attention) bytes += std::size_t(m.size()) * 4;
        largest = std::max(largest, bytes);
    }
    const std::size_t n = replay.size();
    const std::size_t room = std::max<std::size_t>(1, std::min(kMaxReplay, kMaxReplayBytes / largest));
    if (n <= room) {
        for (std::size_t i = 0; i < n; ++i) kept.push_back(i);
        return kept;
    }
    // room indices evenly over 0 .. n - 1, the first and the last included
    for (std::size_t k = 0; k < room; ++k) {
        const std::size_t i = room == 1 ? n - 1 : (k * (n - 1) + (room - 1) / 2) / (room - 1);
        if (kept.empty() || kept.back() != i) kept.push_back(i);
    }
    return kept;
}

std::string ModelFile::encode(const TrainedTransformer &model, const TransformerResult &run,
                              const std::vector<TransformerSnapshot> &replay)
{
    ByteWriter out;
    out.raw(kMagic).u32(kVersion).u32(sectionsOf(kVersion));
    auto add = [&](const char *tag, const ByteWriter &payload) {
        const std::string tagged = std::string(tag, 4) + payload.bytes();
        out.raw(std::string_view(tag, 4)).u32(std::uint32_t(payload.bytes().size())).raw(payload.bytes());
        out.u32(crc32(tagged));
    };
    ByteWriter conf, shape, vocab, params, result, history;
    writeModelConfig(conf, model.config);
    writeShape(shape, model.shape);
    writeVocabulary(vocab, model.config.task == TransformerTask::Text ? model.corpus.get() : nullptr);
    writeParams(params, model.params);
    writeRun(result, run);
    const std::vector<std::size_t> kept = thinReplay(replay);
    history.u32(std::uint32_t(kept.size()));
    for (std::size_t i : kept) {
        writeSnapshot(history, replay[i]);
        history.f64(replay[i].accuracy).f64(replay[i].trainAccuracy);
    }
    add(kTags[0], conf);
    add(kTags[1], shape);
    add(kTags[2], vocab);
    add(kTags[3], params);
    add(kTags[4], result);
    add(kTags[5], history);
    return out.take();
}

std::string ModelFile::decode(std::string_view bytes, SavedModel &out)
{
    if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic)
        return "it is not a FullBand model file (it does not start with the model file's signature)";
    ByteReader file(bytes.substr(kMagic.size()));
    std::uint32_t version = 0, sections = 0;
    if (!file.u32(version, "the version")) return file.error();
    if (version < 1 || version > kVersion)
        return "it is a model file of version " + std::to_string(version) + "; this FullBand reads versions 1 to "
               + std::to_string(kVersion);
    if (!file.u32(sections, "the section count")) return file.error();
    if (sections != sectionsOf(version))
        return "the section count must be " + std::to_string(sectionsOf(version)) + " in version " + std::to_string(version)
               + ", got " + std::to_string(sections);
    SavedModel m;
    const bool read = readSection(file, kTags[0], [&](ByteReader &r) { return readModelConfig(r, m.model.config, version); })
        && readSection(file, kTags[1], [&](ByteReader &r) { return readShape(r, m.model.config, m.model.shape); })
        && readSection(file, kTags[2],
                       [&](ByteReader &r) { return readVocabulary(r, m.model.config, m.model.shape, m.model.corpus); })
        && readSection(file, kTags[3], [&](ByteReader &r) { return readParams(r, m.model.shape, m.model.params); })
        && readSection(file, kTags[4], [&](ByteReader &r) { return readRun(r, m.model.config, m.model.shape, m.run, version); })
        && (version < 4 || readSection(file, kTags[5], [&](ByteReader &r) {
                return readReplay(r, m.model.config, m.model.shape, m.run, m.replay);
            }));
    if (!read) return file.error();
    if (file.remaining() != 0)
        return "it has " + std::to_string(file.remaining()) + " bytes after its last section";
    out = std::move(m);
    return {};
}

std::string ModelFile::save(const std::string &path, const TrainedTransformer &model, const TransformerResult &run,
                            const std::vector<TransformerSnapshot> &replay)
{
    return writeFileAtomically(path, encode(model, run, replay));
}

std::string ModelFile::load(const std::string &path, SavedModel &out)
{
    std::string bytes;
    if (std::string err = readRegularFile(path, kMaxBytes, bytes); !err.empty()) return err;
    if (std::string err = decode(bytes, out); !err.empty()) return "model file '" + path + "': " + err;
    return {};
}

} // namespace fb
