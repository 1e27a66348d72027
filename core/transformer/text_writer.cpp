#include "core/transformer/text_writer.h"

#include "core/costs/costs.h"
#include "core/transformer/transformer_layers.h"

#include <chrono>
#include <stdexcept>

namespace fb {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

const TrainedTransformer &textModel(const std::shared_ptr<const TrainedTransformer> &model)
{
    if (!model || !model->corpus) throw std::invalid_argument("writing needs a model trained on the text task");
    return *model;
}

// The prompt's ids, as sampleTransformerText reads a prompt: an empty one starts from a newline.
std::vector<int> promptIds(const TextCorpus &corpus, const std::string &prompt)
{
    std::vector<int> ids = corpus.encode(prompt);
    if (ids.empty()) {
        const int newline = corpus.idOf(U'\n');
        ids.push_back(corpus.symbols()[std::size_t(newline)] == U'\n' ? newline : 0);
    }
    return ids;
}

} // namespace

TextWriter::TextWriter(std::shared_ptr<const TrainedTransformer> model, const std::string &prompt, double temperature,
                       int topK, std::uint64_t seed, bool measureWithoutCache)
    : model_(std::move(model))
    , net_(textModel(model_).shape)
    , cached_(model_->shape, model_->config.seqLen)
    , rng_(seed ^ kSampleStream)  // the draws of sampleTransformerText: `fullband generate` writes the same
    , temperature_(temperature)
{
    const TrainedTransformer &m = *model_;
    net_.params = m.params;
    tables_.build(m.config.pos, m.shape.dModel, m.shape.heads, m.config.base, m.config.seqLen);
    const std::vector<int> ids = promptIds(*m.corpus, prompt);
    cached_.setTopK(topK);
    cached_.start(net_, tables_, ids.data(), ids.size());
    if (measureWithoutCache) {
        recomputed_ = std::make_unique<TextSampler>(m.shape, m.config.seqLen);
        recomputed_->setCache(false);
        recomputed_->start(net_, tables_, ids.data(), ids.size());
    }
}

void TextWriter::next(WrittenCharacter &out)
{
    const TrainedTransformer &m = *model_;
    Clock::time_point start = Clock::now();
    const int id = cached_.drawNext(temperature_, rng_);
    cached_.push(net_, tables_, id);
    secondsCached_ += since(start);
    if (recomputed_) {
        // The same character, its whole context recomputed (the draw is the same work in both).
        start = Clock::now();
        recomputed_->push(net_, tables_, id);
        secondsRecomputed_ += since(start);
    }
    ++written_;

    out.text.clear();
    m.corpus->appendDecoded(&id, 1, out.text);
    out.written = written_;
    const int t = cached_.length();
    out.cachedPositions = t;
    out.context = cached_.context();
    out.layers = m.shape.layers;
    out.heads = m.shape.heads;
    // The newest position's attention: column t - 1 of each head's (R, T) block (B = 1).
    const TransformerWorkspace<float> &ws = cached_.workspace();
    const Eigen::Index T = ws.T, R = nn::attentionRows(T);
    out.attention.resize(std::size_t(m.shape.layers * m.shape.heads));
    double kvValues = 0.0;
    for (int l = 0; l < m.shape.layers; ++l) {
        const auto &layer = ws.layer[std::size_t(l)];
        for (int h = 0; h < m.shape.heads; ++h) {
            const float *column = layer.att.data() + (Eigen::Index(h) * R * T + Eigen::Index(t - 1) * R);
            out.attention[std::size_t(l * m.shape.heads + h)].assign(column, column + t);
        }
        // K and V: rows [d, 3d) of qkv for the t positions held
        kvValues += double(layer.qkv.rows() / 3 * 2) * double(t);
    }
    out.cacheBytes = kvValues * double(sizeof(float));
    KvCacheParams p;
    p.layers = m.shape.layers;
    p.kvHeads = m.shape.heads;
    p.headDim = double(m.shape.dModel) / m.shape.heads;
    p.tokens = t;
    p.bytesPerValue = double(sizeof(float));
    out.formulaBytes = kvCache(p).bytes;
    out.secondsCached = secondsCached_;
    out.secondsRecomputed = secondsRecomputed_;
}

} // namespace fb
