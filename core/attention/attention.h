#pragma once
// Scaled dot-product and multi-head self-attention (218.4.1, 218.4.2) with the positional schemes
// of 218.4.3 / 218.4.4, returning each head's weights for heatmaps.
#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace fb {

// Alibi is the tiny transformer's only (a bias on its attention logits); the attention lab offers the first three.
enum class PositionalScheme { None, Sinusoidal, Rope, Alibi };
enum class AttentionContent { RandomTokens, RepeatedToken, Sentence };

std::string positionalSchemeName(PositionalScheme s);   // "none" | "sinusoidal" | "rope" | "alibi"
std::string attentionContentName(AttentionContent c);   // "random" | "repeated" | "sentence"
// The names above back to values, the first three only; false (out unchanged) for any other text.
bool parsePositionalScheme(const std::string &text, PositionalScheme &out);
bool parseAttentionContent(const std::string &text, AttentionContent &out);

// Logits Q K^T / sqrt(d_k) (or Q K^T unscaled). Q is (n, d_k), K is (m, d_k), result (n, m).
Eigen::MatrixXd attentionLogits(const Eigen::MatrixXd &Q, const Eigen::MatrixXd &K, bool scaled = true);

// Row-wise softmax of logits (n, m). causal: entries with key j > query i are exactly 0 and take no
// part in the row's normalisation.
Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd &logits, bool causal);

// The same in place (W holds logits on entry, weights on return). rowEntropy, when given, receives
// each row's entropy in nats, ln S_i - T_i / S_i with S_i = sum_j e_ij, T_i = sum_j e_ij (l_ij - max_i)
// and e_ij = exp(l_ij - max_i): no logarithm per entry.
void softmaxRowsInPlace(Eigen::MatrixXd &W, bool causal, Eigen::VectorXd *rowEntropy = nullptr);

// softmax(Q K^T / sqrt(d_k)) (or without the scaling), rows = queries. causal masks keys > query.
Eigen::MatrixXd attentionWeights(const Eigen::MatrixXd &Q, const Eigen::MatrixXd &K, bool causal,
                                 bool scaled = true);

// Entropy in nats of each row of a row-stochastic matrix, averaged over rows.
double meanRowEntropy(const Eigen::MatrixXd &weights);

struct AttentionParams {
    int n = 12;              // sequence length (tokens)
    int dModel = 64;         // model width, divisible by heads
    int heads = 4;
    PositionalScheme positional = PositionalScheme::Sinusoidal;
    double base = 10000.0;   // for sinusoidal and RoPE
    bool causal = false;
    bool scaled = true;      // divide logits by sqrt(d_k)
    std::uint64_t seed = 7;  // weights W_Q, W_K ~ N(0, 1/d_model) and token embeddings ~ N(0, 1)
    AttentionContent content = AttentionContent::RandomTokens;
    std::string sentence;    // for Sentence: words split on white space, each word a fixed random
                             // embedding (same word, same vector); n is then the number of words
    bool keepLogits = false; // also return each head's logits (n x n more memory per head)
    bool logitsToeplitz = false; // also measure how far each head's logits are from Toeplitz
                                 // (toeplitzDeviation on the logits, without keeping them)
};

// How far one head's logits are from Toeplitz, as toeplitzDeviation() (core/attention/toeplitz.h) measures it.
struct LogitsToeplitz {
    double maxAbs = 0.0;  // max |L(i, j) - L(i - s, j - s)|, s = min(i, j)
    double scale = 0.0;   // max |L(i, j)|
};

struct AttentionResult {
    std::vector<Eigen::MatrixXd> weights;  // [heads], each n x n, rows = queries
    std::vector<double> entropy;           // [heads], mean row entropy in nats
    std::vector<std::string> tokens;       // [n] label of each position (word or "t0", "t1", ...)
    std::vector<Eigen::MatrixXd> logits;   // [heads] if keepLogits (else empty), each n x n: scaled (or
                                           // not) Q K^T before the causal mask and the softmax
    std::vector<LogitsToeplitz> logitsToeplitz;  // [heads] if logitsToeplitz (else empty)
};

// Words of text split on white space, at most maxWords (the sentence content's tokens).
std::vector<std::string> splitWords(const std::string &text, std::size_t maxWords = 512);


// Builds X (n, d_model) from the content (+ the sinusoidal table if chosen), then per head
// Q = X W_Q, K = X W_K with W ~ N(0, 1/d_model) of shape (d_model, d_k), d_k = d_model / heads,
// rotates Q and K under RoPE (d_k even), and returns softmax(Q K^T / sqrt(d_k)) per head.
// Sentence content: n is the word count (1 to 512; an empty sentence is one empty token).
AttentionResult multiHeadAttention(const AttentionParams &p);
// The same into out, reusing the memory of out's matrices where their sizes fit: a live lab
// recomputes at the same sizes, and fresh memory costs a page fault every 4 KB.
void multiHeadAttention(const AttentionParams &p, AttentionResult &out);

} // namespace fb
