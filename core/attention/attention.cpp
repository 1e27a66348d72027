#include "core/attention/attention.h"

#include "core/attention/positional.h"
#include "core/numeric/rng.h"
#include "core/attention/toeplitz.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace fb {

namespace {

// Independent random streams derived from the one user seed, so that each head's weights and each
// position's embedding stay the same when n or the number of heads changes elsewhere.
enum Stream : std::uint64_t { kWeights = 1, kTokens = 2, kRepeated = 3, kWords = 4 };

// FNV-1a, 64 bits: a portable hash of a word's bytes (std::hash differs between libraries).
std::uint64_t fnv1a(const std::string &text)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV offset basis
    for (unsigned char ch : text) {
        h ^= ch;
        h *= 0x100000001b3ULL;  // FNV prime
    }
    return h;
}

// Fills out with N(0, 1) draws from rng by Marsaglia's polar method, in batches: candidate pairs
// (v1, v2) uniform on [-1, 1)^2 are kept when 0 < s = v1^2 + v2^2 < 1 (probability pi/4), and each kept
// pair gives v1 f and v2 f with f = sqrt(-2 ln s / s), the log and square root vectorised by Eigen.
// About 4x faster than Rng::normal()'s scalar Box-Muller (whose sin/cos Eigen cannot vectorise).
void fillNormals(Rng &rng, double *out, Eigen::Index count)
{
    constexpr Eigen::Index kBatch = 256;  // candidate pairs per round
    Eigen::ArrayXd v1(kBatch), v2(kBatch), s(kBatch);
    Eigen::Index filled = 0;
    while (filled < count) {
        Eigen::Index kept = 0;
        for (Eigen::Index i = 0; i < kBatch; ++i) {
            // Branch-free keep: write every candidate, advance only past accepted ones.
            const double a = 2.0 * rng.uniform() - 1.0, b = 2.0 * rng.uniform() - 1.0;
            const double ss = a * a + b * b;
            v1[kept] = a;
            v2[kept] = b;
            s[kept] = ss;
            kept += (ss > 0.0 && ss < 1.0) ? 1 : 0;
        }
        const Eigen::ArrayXd f = (-2.0 * s.head(kept).log() / s.head(kept)).sqrt();
        for (Eigen::Index i = 0; i < kept && filled < count; ++i) {
            out[filled++] = v1[i] * f[i];
            if (filled < count) out[filled++] = v2[i] * f[i];
        }
    }
}

// A row vector (1, d) of N(0, 1) draws from its own stream.
Eigen::RowVectorXd normalRow(std::uint64_t seed, int d)
{
    Rng rng(seed);
    Eigen::RowVectorXd row(d);
    fillNormals(rng, row.data(), d);
    return row;
}

// Grain for loops over rows whose items are cheap: stay on one thread below this many.
constexpr std::size_t kRowGrain = 64;

// The input X (n, d_model) and the labels of its positions.
Eigen::MatrixXd contentEmbeddings(const AttentionParams &p, int dModel, std::vector<std::string> &tokens)
{
    switch (p.content) {
    case AttentionContent::Sentence: {
        tokens = splitWords(p.sentence);
        if (tokens.empty()) tokens.push_back("");
        Eigen::MatrixXd X(Eigen::Index(tokens.size()), dModel);
        const std::uint64_t words = mixSeed(p.seed, kWords);
        for (std::size_t r = 0; r < tokens.size(); ++r) X.row(Eigen::Index(r)) = normalRow(mixSeed(words, fnv1a(tokens[r])), dModel);
        return X;
    }
    case AttentionContent::RepeatedToken: {
        const int n = std::max(p.n, 1);
        tokens.assign(std::size_t(n), "x");
        return normalRow(mixSeed(p.seed, kRepeated), dModel).replicate(n, 1);
    }
    case AttentionContent::RandomTokens:
        break;
    }
    const int n = std::max(p.n, 1);
    tokens.resize(std::size_t(n));
    Eigen::MatrixXd X(n, dModel);
    const std::uint64_t stream = mixSeed(p.seed, kTokens);
    tbb::parallel_for(tbb::blocked_range<int>(0, n, int(kRowGrain)), [&](const tbb::blocked_range<int> &r) {
        for (int i = r.begin(); i < r.end(); ++i) {
            X.row(i) = normalRow(mixSeed(stream, std::uint64_t(i)), dModel);
            std::string label = "t";
            label += std::to_string(i);
            tokens[std::size_t(i)] = std::move(label);
        }
    });
    return X;
}

} // namespace

std::string positionalSchemeName(PositionalScheme s)
{
    switch (s) {
    case PositionalScheme::None: return "none";
    case PositionalScheme::Sinusoidal: return "sinusoidal";
    case PositionalScheme::Rope: return "rope";
    case PositionalScheme::Alibi: return "alibi";
    }
    return "none";
}

std::string attentionContentName(AttentionContent c)
{
    switch (c) {
    case AttentionContent::RandomTokens: return "random";
    case AttentionContent::RepeatedToken: return "repeated";
    case AttentionContent::Sentence: return "sentence";
    }
    return "random";
}

bool parsePositionalScheme(const std::string &text, PositionalScheme &out)
{
    for (auto s : { PositionalScheme::None, PositionalScheme::Sinusoidal, PositionalScheme::Rope })
        if (text == positionalSchemeName(s)) return out = s, true;
    return false;
}

bool parseAttentionContent(const std::string &text, AttentionContent &out)
{
    for (auto c : { AttentionContent::RandomTokens, AttentionContent::RepeatedToken, AttentionContent::Sentence })
        if (text == attentionContentName(c)) return out = c, true;
    return false;
}

std::vector<std::string> splitWords(const std::string &text, std::size_t maxWords)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size() && words.size() < maxWords) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) words.push_back(text.substr(start, i - start));
    }
    return words;
}

Eigen::MatrixXd attentionLogits(const Eigen::MatrixXd &Q, const Eigen::MatrixXd &K, bool scaled)
{
    // logits (n, m) = Q (n, d_k) K^T (d_k, m), times 1 / sqrt(d_k) when scaled.
    Eigen::MatrixXd logits = Q * K.transpose();
    if (scaled && Q.cols() > 0) logits /= std::sqrt(double(Q.cols()));
    return logits;
}

void softmaxRowsInPlace(Eigen::MatrixXd &W, bool causal, Eigen::VectorXd *rowEntropy)
{
    // W is (n, m): rows are queries, columns keys. Column-major, so every step sweeps whole columns
    // (contiguous, vectorised exp) and carries the per-row max and sums along as n-vectors. Under the
    // causal mask column j only touches its allowed rows i >= j; the rows above are set to 0.
    const Eigen::Index n = W.rows(), m = W.cols();
    if (rowEntropy) rowEntropy->setZero(n);
    if (n == 0 || m == 0) return;
    auto first = [&](Eigen::Index j) { return causal ? std::min(j, n) : Eigen::Index(0); };  // first allowed row
    Eigen::VectorXd rowMax = W.col(0);  // (n); column 0 is allowed for every row
    for (Eigen::Index j = 1; j < m; ++j) {
        const Eigen::Index i0 = first(j);
        rowMax.tail(n - i0) = rowMax.tail(n - i0).cwiseMax(W.col(j).tail(n - i0));
    }
    // e_ij = exp(l_ij - max_i), S_i = sum_j e_ij and T_i = sum_j e_ij (l_ij - max_i). Then w = e / S and
    // H_i = -sum_j w_ij ln w_ij = ln S_i - T_i / S_i: the entropy without a logarithm per entry.
    Eigen::ArrayXd S = Eigen::ArrayXd::Zero(n), T = Eigen::ArrayXd::Zero(n), shifted(n);
    for (Eigen::Index j = 0; j < m; ++j) {
        const Eigen::Index i0 = first(j), len = n - i0;
        auto col = W.col(j).array();
        shifted.tail(len) = col.tail(len) - rowMax.array().tail(len);
        col.tail(len) = shifted.tail(len).exp();
        S.tail(len) += col.tail(len);
        if (rowEntropy) T.tail(len) += col.tail(len) * shifted.tail(len);
        col.head(i0).setZero();
    }
    const Eigen::ArrayXd inv = S.inverse();  // each S_i >= 1: the row's maximum contributes exp(0)
    for (Eigen::Index j = 0; j < m; ++j) W.col(j).array() *= inv;
    if (rowEntropy) *rowEntropy = (S.log() - T * inv).matrix();
}

Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd &logits, bool causal)
{
    Eigen::MatrixXd W = logits;
    softmaxRowsInPlace(W, causal);
    return W;
}

Eigen::MatrixXd attentionWeights(const Eigen::MatrixXd &Q, const Eigen::MatrixXd &K, bool causal, bool scaled)
{
    return softmaxRows(attentionLogits(Q, K, scaled), causal);
}

double meanRowEntropy(const Eigen::MatrixXd &weights)
{
    if (weights.rows() == 0) return 0.0;
    // H(row) = -sum_j w_j ln w_j in nats. 0 ln 0 = 0 comes out of w ln max(w, DBL_MIN) = 0 x (-708),
    // which keeps the log vectorised (a select() would not be).
    const auto w = weights.array();
    const double total = (w * w.max(std::numeric_limits<double>::min()).log()).sum();
    return -total / double(weights.rows());
}

AttentionResult multiHeadAttention(const AttentionParams &p)
{
    AttentionResult out;
    multiHeadAttention(p, out);
    return out;
}

void multiHeadAttention(const AttentionParams &p, AttentionResult &out)
{
    out.tokens.clear();
    out.logitsToeplitz.clear();
    if (!p.keepLogits) out.logits.clear();
    const int heads = std::max(p.heads, 1);
    const int dModel = std::max(p.dModel, 1);
    const int dk = std::max(dModel / heads, 1);  // head width d_k

    Eigen::MatrixXd X = contentEmbeddings(p, dModel, out.tokens);  // (n, d_model)
    const int n = int(X.rows());
    if (p.positional == PositionalScheme::Sinusoidal) X += sinusoidalTable(n, dModel, p.base);

    // RoPE rotates the first 2 floor(d_k / 2) coordinates of each head's q and k (all of them for the
    // even d_k the labs require); one cos/sin table serves every head.
    const int pairs = dk / 2;
    RopeTable table;
    if (p.positional == PositionalScheme::Rope && pairs > 0) table = ropeTable(n, ropeInvFreq(2 * pairs, p.base));

    out.weights.resize(std::size_t(heads));  // matrices already there keep their memory
    if (p.keepLogits) out.logits.resize(std::size_t(heads));
    if (p.logitsToeplitz) out.logitsToeplitz.resize(std::size_t(heads));
    out.entropy.assign(std::size_t(heads), 0.0);
    const std::uint64_t weightStream = mixSeed(p.seed, kWeights);
    const double wScale = 1.0 / std::sqrt(double(dModel));  // W ~ N(0, 1/d_model)
    const double qScale = p.scaled ? 1.0 / std::sqrt(double(dk)) : 1.0;  // folded into Q: n d_k, not n^2
    // One head per task: a head is already a few 100 x 100 products, worth a thread.
    tbb::parallel_for(tbb::blocked_range<int>(0, heads, 1), [&](const tbb::blocked_range<int> &r) {
        for (int h = r.begin(); h < r.end(); ++h) {
            // [W_Q W_K] is (d_model, 2 d_k), both ~ N(0, 1/d_model); one product gives [Q K] (n, 2 d_k).
            Rng rng(mixSeed(weightStream, std::uint64_t(h)));
            Eigen::MatrixXd Wqk(dModel, 2 * dk);
            fillNormals(rng, Wqk.data(), Wqk.size());
            Wqk *= wScale;
            Eigen::MatrixXd QK = X * Wqk;
            auto Q = QK.leftCols(dk), K = QK.rightCols(dk);  // (n, d_k) each
            if (p.positional == PositionalScheme::Rope && pairs > 0) {
                Q.leftCols(2 * pairs) = applyRopeRows(Q.leftCols(2 * pairs), table);
                K.leftCols(2 * pairs) = applyRopeRows(K.leftCols(2 * pairs), table);
            }
            Q *= qScale;
            Eigen::MatrixXd &W = out.weights[std::size_t(h)];  // (n, n), logits first, then weights
            W.noalias() = Q * K.transpose();
            if (p.keepLogits) out.logits[std::size_t(h)] = W;
            if (p.logitsToeplitz) {
                const ToeplitzDeviation t = toeplitzDeviation(W);
                out.logitsToeplitz[std::size_t(h)] = { t.maxAbs, t.scale };
            }
            Eigen::VectorXd rowEntropy;
            softmaxRowsInPlace(W, p.causal, &rowEntropy);
            out.entropy[std::size_t(h)] = rowEntropy.mean();
        }
    });
}

} // namespace fb
