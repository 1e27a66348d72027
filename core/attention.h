#pragma once
// Scaled dot-product and multi-head self-attention (218.4.1, 218.4.2) with the positional schemes
// of 218.4.3 / 218.4.4, returning each head's weights for heatmaps.
#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace fb {

enum class PositionalScheme { None, Sinusoidal, Rope };
enum class AttentionContent { RandomTokens, RepeatedToken, Sentence };

std::string positionalSchemeName(PositionalScheme s);   // "none" | "sinusoidal" | "rope"
std::string attentionContentName(AttentionContent c);   // "random" | "repeated" | "sentence"

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
};

struct AttentionResult {
    std::vector<Eigen::MatrixXd> weights;  // [heads], each n x n, rows = queries
    std::vector<double> entropy;           // [heads], mean row entropy in nats
    std::vector<std::string> tokens;       // [n] label of each position (word or "t0", "t1", ...)
};

AttentionResult multiHeadAttention(const AttentionParams &p);

} // namespace fb
