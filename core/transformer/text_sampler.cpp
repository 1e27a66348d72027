#include "core/transformer/text_sampler.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace fb {

TextSampler::TextSampler(const TransformerShape &shape, int context)
    : context_(std::max(2, context)), mode_(shape.feedback ? FeedbackMode::Exact : FeedbackMode::Off)
{
    ws_.reserve(shape, context_, context_, false);
    window_.assign(std::size_t(context_), 0);
    batch_.resize(1, context_, false, shape.obsInputs > 0);
    sorted_.assign(std::size_t(shape.vocab), 0.0f);
}

void TextSampler::recompute(const TransformerNet<float> &net, const PositionTables<float> &pos, int length)
{
    batch_.positions = length;
    std::copy(window_.begin(), window_.begin() + length, batch_.tokens.begin());
    net.forward(ws_, batch_, pos, mode_, 1);
}

void TextSampler::feed(const TransformerNet<float> &net, const PositionTables<float> &pos, int length)
{
    ws_.setBatch(1, context_);
    for (int t = 0; t < length; ++t) net.forwardPosition(ws_, &window_[std::size_t(t)], nullptr, t, pos);
}

int TextSampler::draw(int column, double temperature, Rng &rng)
{
    // softmax(logits / temperature), drawn by its cumulative sum; temperature 0: the argmax
    const auto z = ws_.logits.col(column);
    Eigen::Index best = 0;
    const double zmax = z.maxCoeff(&best);
    if (temperature <= 0.0) return int(best);
    // top-k: the logits below the k-th largest take no part (ties with it do)
    float floor = -std::numeric_limits<float>::infinity();
    if (topK_ > 0 && topK_ < z.size()) {
        std::copy(z.data(), z.data() + z.size(), sorted_.begin());
        std::nth_element(sorted_.begin(), sorted_.begin() + (topK_ - 1), sorted_.end(), std::greater<float>());
        floor = sorted_[std::size_t(topK_ - 1)];
    }
    double total = 0.0;
    for (Eigen::Index v = 0; v < z.size(); ++v)
        if (z[v] >= floor) total += std::exp((double(z[v]) - zmax) / temperature);
    double u = rng.uniform() * total;
    for (Eigen::Index v = 0; v < z.size(); ++v) {
        if (z[v] < floor) continue;
        u -= std::exp((double(z[v]) - zmax) / temperature);
        if (u < 0.0) return int(v);
    }
    return int(best);  // rounding left u a hair above 0
}

void TextSampler::start(const TransformerNet<float> &net, const PositionTables<float> &pos, const int *prompt,
                        std::size_t promptLength)
{
    if (promptLength == 0) throw std::logic_error("TextSampler: the prompt needs at least one character");
    length_ = int(std::min<std::size_t>(promptLength, std::size_t(context_)));
    std::copy(prompt + (promptLength - std::size_t(length_)), prompt + promptLength, window_.begin());
    if (cache_) feed(net, pos, length_);
    else recompute(net, pos, length_);
}

void TextSampler::push(const TransformerNet<float> &net, const PositionTables<float> &pos, int id)
{
    if (length_ == context_) {
        // the context is full: keep the last half, fed again from position 0
        const int keep = context_ / 2;
        std::copy(window_.end() - keep, window_.end(), window_.begin());
        length_ = keep;
        if (cache_) feed(net, pos, length_);
    }
    window_[std::size_t(length_)] = id;
    if (cache_) {
        ws_.setBatch(1, context_);
        net.forwardPosition(ws_, &window_[std::size_t(length_)], nullptr, length_, pos);
        ++length_;
    } else {
        recompute(net, pos, ++length_);  // the logits of the new last position: column length - 1
    }
}

void TextSampler::sample(const TransformerNet<float> &net, const PositionTables<float> &pos, const TextCorpus &corpus,
                         const int *prompt, std::size_t promptLength, int chars, double temperature, Rng &rng,
                         std::string &out)
{
    start(net, pos, prompt, promptLength);
    for (int i = 0; i < chars; ++i) {
        const int next = drawNext(temperature, rng);  // the prediction of the last fed position
        corpus.appendDecoded(&next, 1, out);
        push(net, pos, next);
    }
}

} // namespace fb
