#include "core/transformer/transformer_tasks.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fb {

TransformerTasks::TransformerTasks(const TransformerConfig &config, const TextCorpus *corpus, int maxTokens)
    : corpus_(corpus)
{
    c_ = config;
    c_.text.clear();
    if (c_.task == TransformerTask::Text && !corpus_) throw std::logic_error("TransformerTasks: the text task needs its corpus");
    seq_.assign(std::size_t(maxTokens) + 1, 0);
    if (transformerHasAnswers(c_.task)) {
        answers_ = std::make_unique<AnswerTasks>(c_);
        answer_.assign(seq_.size(), 0);
    }
}

int TransformerTasks::vocab() const
{
    if (c_.task == TransformerTask::Text) return corpus_->vocabSize();
    if (answers_) return answers_->vocab();
    return c_.task == TransformerTask::Accumulator ? c_.buckets : c_.vocab;
}

bool TransformerTasks::hasRepeat() const
{
    return transformerHasRepeat(c_.task);
}

int TransformerTasks::positions(int n, bool withTargets) const
{
    return (hasRepeat() || hasAnswers()) && withTargets ? n - 1 : n;
}

void TransformerTasks::resize(TransformerBatch &out, int B, int n, bool withTargets) const
{
    out.resize(B, positions(n, withTargets), withTargets, c_.task == TransformerTask::Accumulator);
}

int TransformerTasks::tokensOf(const TransformerBatch &out) const
{
    // tokens per sequence: inputs, plus the last target of the induction tasks and of text
    const bool extra = out.hasTargets() && c_.task != TransformerTask::Accumulator;
    return out.positions + (extra ? 1 : 0);
}

void TransformerTasks::store(TransformerBatch &out, int b, int tokens) const
{
    const std::size_t B = std::size_t(out.batch);
    for (int t = 0; t < out.positions; ++t) out.tokens[std::size_t(t) * B + std::size_t(b)] = seq_[std::size_t(t)];
    if (out.hasTargets())
        for (int t = 0; t < out.positions && t + 1 < tokens; ++t)
            out.targets[std::size_t(t) * B + std::size_t(b)] = seq_[std::size_t(t) + 1];
}

void TransformerTasks::storeAnswers(TransformerBatch &out, int b) const
{
    const std::size_t B = std::size_t(out.batch);
    for (int t = 0; t < out.positions; ++t) {
        const std::size_t col = std::size_t(t) * B + std::size_t(b);
        out.tokens[col] = seq_[std::size_t(t)];
        if (out.hasTargets()) out.targets[col] = answer_[std::size_t(t) + 1] ? seq_[std::size_t(t) + 1] : nn::kIgnoreTarget;
    }
}

void TransformerTasks::drawAnswers(Rng *rng, TransformerBatch &out, bool training, int first)
{
    if (tokensOf(out) != answers_->tokens())
        throw std::logic_error("TransformerTasks: the answer tasks' sequences have one length, answerSequenceLength");
    const bool enumerate = c_.task == TransformerTask::ModularAddition && !rng;
    for (int b = 0; b < out.batch; ++b) {
        if (enumerate) answers_->pairSequence(first + b, training, seq_.data(), answer_.data());
        else answers_->draw(*rng, training, seq_.data(), answer_.data());
        storeAnswers(out, b);
    }
}

void TransformerTasks::drawTrainingPairs(TransformerBatch &out, int first)
{
    if (c_.task != TransformerTask::ModularAddition) throw std::logic_error("TransformerTasks: no training pairs");
    drawAnswers(nullptr, out, true, first);
}

void TransformerTasks::drawSynthetic(Rng &rng, TransformerBatch &out, bool training)
{
    const int n = tokensOf(out);
    if (n > int(seq_.size())) throw std::logic_error("TransformerTasks: sequence longer than the scratch");
    if (answers_) return drawAnswers(&rng, out, training, 0);
    const auto V = std::uint64_t(vocab());
    for (int b = 0; b < out.batch; ++b) {
        if (c_.task == TransformerTask::Accumulator) {
            // z_{-1} first, then a_0 .. a_{T-1} (the order of core/training/toy_task)
            const auto bucket = [&](double z) { return std::min(int(z * c_.buckets), c_.buckets - 1); };
            double z = rng.uniform();
            const std::size_t B = std::size_t(out.batch);
            for (int t = 0; t < out.positions; ++t) {
                const std::size_t col = std::size_t(t) * B + std::size_t(b);
                out.tokens[col] = bucket(z);  // y_{t-1}
                const double a = rng.uniform();
                z += a;
                if (z >= 1.0) z -= 1.0;
                out.obs(0, Eigen::Index(col)) = float(std::cos(2.0 * std::numbers::pi * a));
                out.obs(1, Eigen::Index(col)) = float(std::sin(2.0 * std::numbers::pi * a));
                if (out.hasTargets()) out.targets[col] = bucket(z);  // y_t
            }
            continue;
        }
        // induction: where the repeat goes, then the tokens
        int s = n / 2, a = 0;
        if (c_.task == TransformerTask::Induction) {
            s = n / 4 + int(rng.below(std::uint64_t(n / 2 - n / 4 + 1)));  // s ~ U{n/4 .. n/2}
            a = int(rng.below(std::uint64_t(n - 2 * s + 1)));                // a ~ U{0 .. n - 2s}
        }
        for (int t = 0; t < n; ++t) seq_[std::size_t(t)] = int(rng.below(V));
        for (int t = a + s; t < a + 2 * s; ++t) seq_[std::size_t(t)] = seq_[std::size_t(t - s)];
        out.offset[std::size_t(b)] = a;
        out.span[std::size_t(b)] = s;
        store(out, b, n);
    }
}

void TransformerTasks::window(TransformerBatch &out, int b, std::size_t start) const
{
    const int n = tokensOf(out);
    const std::vector<int> &ids = corpus_->ids();
    const std::size_t B = std::size_t(out.batch);
    for (int t = 0; t < out.positions; ++t) out.tokens[std::size_t(t) * B + std::size_t(b)] = ids[start + std::size_t(t)];
    if (out.hasTargets())
        for (int t = 0; t < out.positions && t + 1 < n; ++t)
            out.targets[std::size_t(t) * B + std::size_t(b)] = ids[start + std::size_t(t) + 1];
}

void TransformerTasks::drawTraining(Rng &rng, TransformerBatch &out)
{
    if (c_.task != TransformerTask::Text) {
        drawSynthetic(rng, out, true);
        return;
    }
    const std::size_t n = std::size_t(tokensOf(out)), end = corpus_->trainEnd();
    for (int b = 0; b < out.batch; ++b) window(out, b, std::size_t(rng.below(end - n + 1)));
}

bool TransformerTasks::drawHeldout(Rng &rng, TransformerBatch &out, int first, int count)
{
    if (c_.task == TransformerTask::ModularAddition) {
        drawAnswers(nullptr, out, false, first);  // the held-out pairs in order
        return true;
    }
    if (c_.task != TransformerTask::Text) {
        drawSynthetic(rng, out, false);
        return true;
    }
    const std::size_t n = std::size_t(tokensOf(out)), begin = corpus_->trainEnd(), size = corpus_->size();
    if (size - begin < n) return false;
    const std::size_t room = size - begin - n;  // starts in [begin, begin + room]
    for (int b = 0; b < out.batch; ++b) {
        const std::size_t i = std::size_t(first + b);
        const std::size_t offset = count > 1 ? i * room / std::size_t(count - 1) : 0;
        window(out, b, begin + std::min(offset, room));
    }
    return true;
}

} // namespace fb
