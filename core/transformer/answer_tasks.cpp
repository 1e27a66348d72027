#include "core/transformer/answer_tasks.h"

#include <algorithm>
#include <stdexcept>
#include <cmath>

namespace fb {

namespace {
constexpr std::uint64_t kSplitStream = 0x73706c6900000000ULL;  // "spli": the modular-addition split
} // namespace

AnswerTasks::AnswerTasks(const TransformerConfig &config) : c_(config)
{
    c_.text.clear();
    if (c_.task == TransformerTask::Mqar) {
        keyPool_.resize(std::size_t(std::max(c_.vocab / 2, 1)));
        order_.resize(std::size_t(std::max(c_.pairs, 1)));
    }
    if (c_.task != TransformerTask::ModularAddition) return;
    const int p = c_.modulus, all = p * p;
    split_.resize(std::size_t(all));
    for (int i = 0; i < all; ++i) split_[std::size_t(i)] = i;
    Rng rng(c_.seed ^ kSplitStream);
    for (int i = all - 1; i > 0; --i)  // Fisher-Yates
        std::swap(split_[std::size_t(i)], split_[std::size_t(rng.below(std::uint64_t(i + 1)))]);
    trainPairs_ = int(std::llround(c_.trainFraction * double(all)));
    trainPairs_ = std::clamp(trainPairs_, 1, all - 1);
}

int AnswerTasks::separator() const
{
    switch (c_.task) {
    case TransformerTask::Parity: return 2;
    case TransformerTask::ModularAddition: return c_.modulus;
    default: return c_.vocab;
    }
}

int AnswerTasks::pairCount(bool training) const
{
    if (split_.empty()) return 0;
    return training ? trainPairs_ : int(split_.size()) - trainPairs_;
}

void AnswerTasks::pairSequence(int i, bool training, int *seq, unsigned char *answer) const
{
    const int count = pairCount(training), first = training ? 0 : trainPairs_;
    const int pair = split_[std::size_t(first + i % count)], p = c_.modulus;
    const int a = pair / p, b = pair % p;
    seq[0] = a;
    seq[1] = b;
    seq[2] = p;  // "="
    seq[3] = (a + b) % p;
    answer[0] = answer[1] = answer[2] = 0;
    answer[3] = 1;
}

void AnswerTasks::setPairs(int pairs)
{
    if (c_.task != TransformerTask::Mqar || pairs < 0 || pairs > c_.pairs)
        throw std::invalid_argument("AnswerTasks::setPairs: mqar only, 0 .. pairs");
    fixedPairs_ = pairs;
}

void AnswerTasks::draw(Rng &rng, bool training, int *seq, unsigned char *answer)
{
    const int n = tokens();
    std::fill(answer, answer + n, 0);
    if (c_.task == TransformerTask::ModularAddition) {
        pairSequence(int(rng.below(std::uint64_t(pairCount(training)))), training, seq, answer);
        return;
    }
    const int sep = separator();
    if (c_.task == TransformerTask::Mqar) {
        int P = c_.pairs;
        if (fixedPairs_ > 0) P = fixedPairs_;
        else if (c_.pairsMin > 0 && c_.pairsMin < c_.pairs) P = c_.pairsMin + int(rng.below(std::uint64_t(c_.pairs - c_.pairsMin + 1)));
        const int keys = c_.vocab / 2, values = c_.vocab - keys;
        // P distinct keys: the first P of a partial Fisher-Yates shuffle of [0, keys)
        for (int i = 0; i < keys; ++i) keyPool_[std::size_t(i)] = i;
        for (int i = 0; i < P; ++i)
            std::swap(keyPool_[std::size_t(i)], keyPool_[std::size_t(i + int(rng.below(std::uint64_t(keys - i))))]);
        for (int i = 0; i < P; ++i) {
            seq[2 * i] = keyPool_[std::size_t(i)];
            seq[2 * i + 1] = keys + int(rng.below(std::uint64_t(values)));
        }
        seq[2 * P] = sep;
        // queries: the pairs in a random order (a full shuffle of 0 .. P-1)
        for (int i = 0; i < P; ++i) order_[std::size_t(i)] = i;
        for (int i = P - 1; i > 0; --i) std::swap(order_[std::size_t(i)], order_[std::size_t(rng.below(std::uint64_t(i + 1)))]);
        for (int i = 0; i < P; ++i) {
            const int j = order_[std::size_t(i)], q = 2 * P + 1 + 2 * i;
            seq[q] = seq[2 * j];
            seq[q + 1] = seq[2 * j + 1];
            answer[q + 1] = 1;
        }
        std::fill(seq + 4 * P + 1, seq + n, sep);  // fewer pairs than the sequence holds: padding
        return;
    }
    const int k = c_.items;
    const auto range = std::uint64_t(c_.task == TransformerTask::Parity ? 2 : c_.vocab);
    for (int i = 0; i < k; ++i) seq[i] = int(rng.below(range));
    seq[k] = sep;
    int *y = seq + k + 1;
    std::copy(seq, seq + k, y);
    if (c_.task == TransformerTask::Reverse) std::reverse(y, y + k);
    if (c_.task == TransformerTask::Sort) std::sort(y, y + k);
    if (c_.task == TransformerTask::Parity)
        for (int i = 1; i < k; ++i) y[i] ^= y[i - 1];
    std::fill(answer + k + 1, answer + 2 * k + 1, 1);
}

} // namespace fb
