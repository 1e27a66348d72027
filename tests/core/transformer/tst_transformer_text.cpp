// The text task's pieces: UTF-8 decoding and encoding (core/transformer/text_corpus.h), the
// vocabulary with its <unk>, the held-out split, the windows of core/transformer/transformer_tasks.h
// and sampling with the KV cache (core/transformer/text_sampler.h).
#include "core/transformer/text_corpus.h"
#include "core/transformer/text_sampler.h"
#include "core/transformer/text_writer.h"
#include "core/transformer/sentence_probe.h"
#include "core/transformer/transformer_layers.h"
#include "core/transformer/transformer_tasks.h"
#include "core/transformer/transformer_trainer.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <string>

using namespace fb;

namespace {

// The text task on text at a tiny size: batch 4, 2 heads, d 16, learning rate 0.01.
TransformerConfig tinyText(const std::string &text, int seqLen, int layers, int steps)
{
    TransformerConfig c;
    c.task = TransformerTask::Text;
    c.text = text;
    c.seqLen = seqLen;
    c.batch = 4;
    c.layers = layers;
    c.heads = 2;
    c.dModel = 16;
    c.steps = steps;
    c.lr = 1e-2;
    return c;
}

} // namespace

class TestTransformerText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void utf8()
    {
        // a, é (2 bytes), € (3 bytes), 😀 (4 bytes)
        const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
        const std::vector<char32_t> cps = TextCorpus::decodeUtf8(text);
        QVERIFY(cps == std::vector<char32_t>({ U'a', U'\u00E9', U'\u20AC', U'\U0001F600' }));
        std::string back;
        for (char32_t c : cps) TextCorpus::appendUtf8(c, back);
        QCOMPARE(back, text);
        // invalid input: a lone continuation byte, an overlong '/', a surrogate, a cut sequence
        const std::vector<char32_t> bad = TextCorpus::decodeUtf8("\x80" "x" "\xC0\xAF" "\xED\xA0\x80" "\xE2\x82");
        QCOMPARE(bad.front(), TextCorpus::kReplacement);
        QCOMPARE(bad[1], U'x');
        for (std::size_t i = 2; i < bad.size(); ++i) QCOMPARE(bad[i], TextCorpus::kReplacement);
        QCOMPARE(TextCorpus::countCharacters(text), std::size_t(4));
    }

    void vocabularyAndSplit()
    {
        std::string text;
        for (int i = 0; i < 100; ++i) text += "aaab\n";  // a 300, b 100, newline 100
        text += "xyz";
        const TextCorpus all(text, 8);
        QCOMPARE(all.vocabSize(), 6);
        QVERIFY(!all.hasUnknown());
        QCOMPARE(all.symbols()[0], U'a');  // most frequent first, ties by code point
        QCOMPARE(all.symbols()[1], U'\n');
        QCOMPARE(all.symbols()[2], U'b');
        QCOMPARE(all.size(), std::size_t(503));
        QCOMPARE(all.trainEnd(), std::size_t(503 - 50));  // the last 10% is held out
        QCOMPARE(all.decode(all.ids()), text);
        // at most 4: three characters and <unk>
        const TextCorpus capped(text, 8, 4);
        QCOMPARE(capped.vocabSize(), 4);
        QVERIFY(capped.hasUnknown());
        QCOMPARE(capped.idOf(U'z'), capped.unknownId());
        QCOMPARE(capped.counts()[std::size_t(capped.unknownId())], std::size_t(3));
        QCOMPARE(capped.decode(capped.encode("abz")), std::string("ab\xEF\xBF\xBD"));
        // refused texts, with the reason
        QVERIFY(TextCorpus::check("", 8).rfind("text is empty", 0) == 0);
        QVERIFY(TextCorpus::check(std::string(89, 'a'), 8).find("at least 90 characters") != std::string::npos);
        QVERIFY(TextCorpus::check(std::string(90, 'a'), 8).empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TextCorpus("tiny", 8));
    }

    void windows()
    {
        std::string text;
        for (int i = 0; i < 200; ++i) text += char('a' + i % 26);
        const TextCorpus corpus(text, 8);
        TransformerConfig c;
        c.task = TransformerTask::Text;
        c.seqLen = 8;
        TransformerTasks tasks(c, &corpus, 64);
        TransformerBatch b;
        tasks.resize(b, 3, 8, true);
        QCOMPARE(b.positions, 8);  // T + 1 characters: T inputs, T targets
        Rng rng(1);
        tasks.drawTraining(rng, b);
        for (int s = 0; s < 3; ++s)
            for (int t = 0; t < 8; ++t) {
                const int in = b.tokens[std::size_t(t * 3 + s)], out = b.targets[std::size_t(t * 3 + s)];
                // consecutive letters of the alphabet: the target is the next character
                QCOMPARE(corpus.symbols()[std::size_t(out)], char32_t(U'a' + (corpus.symbols()[std::size_t(in)] - U'a' + 1) % 26));
            }
        // held-out windows lie in the last 10% (characters 180 ..)
        QVERIFY(tasks.drawHeldout(rng, b, 0, 3));
        tasks.resize(b, 1, 30, true);  // 31 characters do not fit in the held-out 20
        QVERIFY(!tasks.drawHeldout(rng, b, 0, 1));
    }

    void samplerContinuesThePattern()
    {
        // an untrained model still samples valid characters of the vocabulary, of the asked number,
        // past the context (which is refilled), deterministically for a seed
        std::string text;
        for (int i = 0; i < 50; ++i) text += "abc\xC3\xA9";
        const TextCorpus corpus(text, 8);
        TransformerShape s;
        s.vocab = corpus.vocabSize();
        s.dModel = 16;
        s.heads = 2;
        s.feedback = true;
        TransformerNet<float> net(s);
        Rng init(2);
        net.init(init);
        PositionTables<float> pos;
        pos.build(PositionalScheme::Rope, 16, 2, 10000.0, 8);
        TextSampler sampler(s, 8);
        const std::vector<int> prompt = corpus.encode("ab");
        std::string a, b;
        a.reserve(400);
        Rng r1(5), r2(5);
        sampler.sample(net, pos, corpus, prompt.data(), prompt.size(), 40, 1.0, r1, a);
        sampler.sample(net, pos, corpus, prompt.data(), prompt.size(), 40, 1.0, r2, b);
        QCOMPARE(a, b);
        QCOMPARE(TextCorpus::countCharacters(a), std::size_t(40));
        for (char32_t c : TextCorpus::decodeUtf8(a)) QVERIFY(c == U'a' || c == U'b' || c == U'c' || c == U'\u00E9');
    }

    // The text task keeps the weights of its best held-out evaluation: the held-out loss reported is
    // the lowest of the curve, from the step best_step names; weight decay changes the weights.
    void bestWeightsAndWeightDecay()
    {
        std::string text;
        for (int i = 0; i < 30; ++i) text += "one two three four five six seven " + std::to_string(i % 5) + "\n";
        TransformerConfig c = tinyText(text, 16, 1, 40);
        c.evalEvery = 5;
        const TransformerResult r = trainTransformer(c);
        double lowest = std::numeric_limits<double>::infinity();
        int at = -1;
        for (const auto &p : r.heldoutCurve)
            if (p.loss < lowest) lowest = p.loss, at = p.step;
        QCOMPARE(r.bestStep, at);
        QVERIFY2(std::fabs(r.heldoutLoss - lowest) < 1e-9, qPrintable(QString::number(r.heldoutLoss - lowest)));
        c.weightDecay = 0.5;
        const TransformerResult decayed = trainTransformer(c);
        QVERIFY(decayed.curve[0] == r.curve[0]);  // the first loss is before any update
        QVERIFY(decayed.curve.back() != r.curve.back());
    }

    // Writing without the KV cache (the whole context recomputed for every character) gives the same
    // characters as with it, past a full context; top_k 1 is the argmax.
    void withoutTheCacheTheSameCharacters()
    {
        std::string text;
        for (int i = 0; i < 40; ++i) text += "abcabd \xC3\xA9 " + std::to_string(i % 3) + "\n";
        TransformerConfig c = tinyText(text, 8, 2, 30);
        for (const FeedbackMode feedback : { FeedbackMode::Off, FeedbackMode::Exact }) {
            c.feedback = feedback;
            const TransformerResult r = trainTransformer(c);
            const TrainedTransformer &m = *r.model;
            for (double temperature : { 0.0, 1.0 }) {
                const std::string cached = sampleTransformerText(m, "ab", 30, temperature, 4, 0, true);
                QCOMPARE(sampleTransformerText(m, "ab", 30, temperature, 4, 0, false), cached);
                QCOMPARE(TextCorpus::countCharacters(cached), std::size_t(30));
            }
            QCOMPARE(sampleTransformerText(m, "ab", 30, 1.0, 9, 1), sampleTransformerText(m, "ab", 30, 0.0, 9));
        }
    }

    // The writer's cache bytes follow the model's options: grouped-query attention holds kv heads of
    // K and V, a window at most its keys, a linear mixer its state whatever the length, the short
    // convolution its last raw positions, looped depth every block applied; the same as the
    // comparison's formula (transformerStateBytes) at every length.
    void writerCountsTheCacheOfEveryOption()
    {
        std::string text;
        for (int i = 0; i < 20; ++i) text += "abcabd " + std::to_string(i % 3) + "\n";
        struct Case {
            const char *name;
            int kvHeads, window, loop, shortConv;
            const char *mixer;
            double bytesAt6;  // by hand, 4-byte floats: d 16, 2 heads (d_head 8), 2 layers
        };
        const Case cases[] = {
            // 2 layers x 2 x 16 rows x 6 positions
            { "softmax", 0, 0, 1, 0, "softmax", 2.0 * 32 * 6 * 4 },
            // one kv head: K and V are 8 rows each
            { "grouped-query", 1, 0, 1, 0, "softmax", 2.0 * 16 * 6 * 4 },
            // a window of 4 keys
            { "window", 0, 4, 1, 0, "softmax", 2.0 * 32 * 4 * 4 },
            // 4 blocks applied
            { "looped", 0, 0, 2, 0, "softmax", 4.0 * 32 * 6 * 4 },
            // + 2 raw positions of q, k, v (48 rows) per layer
            { "short conv", 0, 0, 1, 3, "softmax", (2.0 * 32 * 6 + 2.0 * 48 * 2) * 4 },
            // layer 0 Gated DeltaNet: 2 heads x 8 x 8; layer 1 softmax
            { "hybrid", 0, 0, 1, 0, "gated-deltanet,softmax", (2.0 * 64 + 32 * 6) * 4 },
            // linear attention adds the normaliser: 2 x (64 + 8) per layer
            { "linear", 0, 0, 1, 0, "linear", 2.0 * 2 * 72 * 4 },
        };
        for (const Case &k : cases) {
            TransformerConfig c = tinyText(text, 8, 2, 2);
            c.kvHeads = k.kvHeads;
            c.window = k.window;
            c.loop = k.loop;
            c.shortConv = k.shortConv;
            c.mixer = k.mixer;
            const TransformerResult r = trainTransformer(c);
            QVERIFY2(r.model, k.name);
            TextWriter writer(r.model, "ab", 1.0, 3, 7);
            WrittenCharacter w;
            bool sawSix = false;
            for (int i = 0; i < 10; ++i) {
                writer.next(w);
                double formula = 0.0;
                for (int l = 0; l < c.layers; ++l) formula += transformerStateBytes(c, l, w.cachedPositions);
                QVERIFY2(std::fabs(w.cacheBytes - formula) < 1e-9, qPrintable(QStringLiteral("%1 at t = %2: %3 against %4")
                                                                                   .arg(k.name).arg(w.cachedPositions)
                                                                                   .arg(w.cacheBytes).arg(formula)));
                QVERIFY2(std::fabs(w.formulaBytes - formula) < 1e-9, k.name);
                QCOMPARE(w.plainAttention, std::string(k.name) == "softmax");
                if (w.cachedPositions != 6) continue;
                sawSix = true;
                QVERIFY2(std::fabs(w.cacheBytes - k.bytesAt6) < 1e-9,
                             qPrintable(QStringLiteral("%1: %2 bytes, by hand %3").arg(k.name).arg(w.cacheBytes).arg(k.bytesAt6)));
            }
            QVERIFY2(sawSix, k.name);
        }
    }

    // The writer of the window's writing panel: the characters of sampleTransformerText (what
    // `fullband generate` prints) one at a time, past a full context; after each, every head's
    // attention of the newest character equals the last row of the whole context's forward pass
    // (what the cache saves recomputing), sums to 1 over the t positions held, and the cache's bytes
    // are the costs lab's 2 L t d 4. Snapshots carry the weights only when asked.
    void writerShowsTheCache()
    {
        std::string text;
        for (int i = 0; i < 40; ++i) text += "abcabd \xC3\xA9 " + std::to_string(i % 3) + "\n";
        TransformerConfig c = tinyText(text, 8, 2, 12);
        c.probeEvery = 4;
        c.probeSeconds = 0.0;
        int withWeights = 0;
        auto count = [&](const TransformerSnapshot &s) { withWeights += s.weights != nullptr; };
        const TransformerResult r = trainTransformer(c, {}, count);
        QCOMPARE(withWeights, 0);
        c.snapshotWeights = true;
        std::shared_ptr<const TrainedTransformer> live;
        int snapshots = 0;
        trainTransformer(c, {}, [&](const TransformerSnapshot &s) {
            ++snapshots;
            QVERIFY(s.weights && s.weights->corpus);
            if (s.step == 8) live = s.weights;
        });
        QVERIFY(snapshots >= 4);
        QVERIFY(live && live->params.size() == r.model->params.size() && live->config.text.empty());

        const std::shared_ptr<const TrainedTransformer> model = r.model;
        const int chars = 20;  // past two full contexts of 8
        const std::string expected = sampleTransformerText(*model, "ab", chars, 1.0, 7, 3, true);
        TextWriter writer(model, "ab", 1.0, 3, 7);
        TextSampler full(model->shape, c.seqLen);
        full.setCache(false);
        TransformerNet<float> net(model->shape);
        net.params = model->params;
        PositionTables<float> tables;
        tables.build(c.pos, c.dModel, c.heads, c.base, c.seqLen);
        const std::vector<int> prompt = model->corpus->encode("ab");
        full.start(net, tables, prompt.data(), prompt.size());
        std::string written;
        WrittenCharacter w;
        for (int i = 0; i < chars; ++i) {
            writer.next(w);
            written += w.text;
            QCOMPARE(w.written, i + 1);
            QCOMPARE(w.context, 8);
            const int t = w.cachedPositions;
            QVERIFY(t >= 2 && t <= 8);
            QCOMPARE(w.attention.size(), std::size_t(4));
            full.push(net, tables, model->corpus->encode(w.text).front());
            QCOMPARE(full.length(), t);
            const TransformerWorkspace<float> &ws = full.workspace();
            const Eigen::Index T = ws.T, R = nn::attentionRows(T);
            for (int l = 0; l < 2; ++l)
                for (int h = 0; h < 2; ++h) {
                    const std::vector<float> &a = w.attention[std::size_t(l * 2 + h)];
                    QCOMPARE(int(a.size()), t);
                    double sum = 0.0;
                    for (int j = 0; j < t; ++j) {
                        sum += a[std::size_t(j)];
                        const float ref = ws.layer[std::size_t(l)].att[h * R * T + (t - 1) * R + j];
                        QVERIFY2(std::fabs(a[std::size_t(j)] - ref) < 1e-5f, qPrintable(QString::number(a[std::size_t(j)] - ref)));
                    }
                    QVERIFY(std::fabs(sum - 1.0) < 1e-5);
                }
            QCOMPARE(w.cacheBytes, 2.0 * 2 * t * 16 * 4);
            QCOMPARE(w.formulaBytes, w.cacheBytes);
            QVERIFY(w.secondsCached > 0.0 && w.secondsRecomputed > 0.0);
        }
        QCOMPARE(written, expected);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TextWriter(std::make_shared<TrainedTransformer>(), "a", 1.0, 0, 0));

        // The student's own sentence: causal maps whose rows sum to 1; the last row is the cached
        // decoder's attention of the sentence's last character. Refused: too long, too short.
        TransformerSnapshot probe;
        QCOMPARE(QString::fromStdString(probeSentence(*model, "ab c\xC3\xA9", probe)), QString());
        QCOMPARE(probe.seqLen, 5);
        QCOMPARE(probe.attention.size(), std::size_t(4));
        TextSampler cachedSampler(model->shape, c.seqLen);
        const std::vector<int> ids = model->corpus->encode("ab c\xC3\xA9");
        QVERIFY(probe.probeTokens == ids);
        cachedSampler.start(net, tables, ids.data(), ids.size());
        const Eigen::Index R8 = nn::attentionRows(8);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h) {
                const Eigen::MatrixXf &m = probe.attention[std::size_t(l * 2 + h)];
                QCOMPARE(m.rows(), Eigen::Index(5));
                for (int i = 0; i < 5; ++i) {
                    QVERIFY(std::fabs(m.row(i).sum() - 1.0f) < 1e-5f);
                    for (int j = i + 1; j < 5; ++j) QCOMPARE(m(i, j), 0.0f);
                    const float cachedWeight = cachedSampler.workspace().layer[std::size_t(l)].att[h * R8 * 8 + 4 * R8 + i];
                    QVERIFY(std::fabs(m(4, i) - cachedWeight) < 1e-5f);
                }
            }
        TransformerSnapshot untouched;
        QVERIFY(probeSentence(*model, std::string(9, 'a'), untouched).find("2 to 8 characters") != std::string::npos);
        QVERIFY(!probeSentence(*model, "a", untouched).empty());
        QVERIFY(untouched.attention.empty());
    }
};

QTEST_APPLESS_MAIN(TestTransformerText)
#include "tst_transformer_text.moc"
