#include "core/transformer/text_writer.h"

#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_layers.h"

#include <chrono>
#include <stdexcept>

namespace fb {

namespace {

// What decoding the next position reads of the past, for every block applied (looped depth:
// L x loops): a softmax layer's K and V rows of the workspace's qkv for the positions its window
// sees (grouped-query attention: kv heads of them), a linear mixer's state (d_head x d_head per head,
// and linear attention's normaliser), the short convolution's raw q, k, v (the workspace's qkvRaw
// rows) of the last K - 1 positions.
double heldBytes(const TransformerShape &shape, const TransformerWorkspace<float> &ws, int t)
{
    double values = 0.0;
    const Eigen::Index seen = shape.window > 0 ? std::min(shape.window, t) : t;
    for (int l = 0; l < shape.depth(); ++l) {
        const auto &layer = ws.layer[std::size_t(l)];
        const Eigen::Index qkvRows = layer.qkv.rows();
        if (!shape.linear(l)) {
            values += double(qkvRows - shape.dModel) * double(seen);  // rows [d, d + 2 dkv): K and V
        } else {
            values += mixerStateValues(shape.mixer(l), shape.heads, shape.dHead());
        }
        if (shape.shortConv > 0) values += double(layer.qkvRaw.rows()) * double(std::min(shape.shortConv - 1, t));
    }
    return values * double(sizeof(float));
}

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
    plainAttention_ = m.shape.window == 0 && m.shape.kv() == m.shape.heads && m.shape.loops == 1 && m.shape.shortConv == 0;
    for (int l = 0; l < m.shape.layers; ++l) plainAttention_ = plainAttention_ && !m.shape.linear(l);
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
    for (int l = 0; l < m.shape.layers; ++l) {
        const auto &layer = ws.layer[std::size_t(l)];
        for (int h = 0; h < m.shape.heads; ++h) {
            const float *column = layer.att.data() + (Eigen::Index(h) * R * T + Eigen::Index(t - 1) * R);
            out.attention[std::size_t(l * m.shape.heads + h)].assign(column, column + t);
        }
    }
    out.cacheBytes = heldBytes(m.shape, ws, t);
    out.plainAttention = plainAttention_;
    out.formulaBytes = 0.0;
    for (int l = 0; l < m.shape.layers; ++l) out.formulaBytes += transformerStateBytes(m.config, l, t);
    out.secondsCached = secondsCached_;
    out.secondsRecomputed = secondsRecomputed_;
}

} // namespace fb
