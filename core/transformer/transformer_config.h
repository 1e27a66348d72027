#pragma once
// What a training of the tiny decoder-only transformer is given: the model's sizes, its positional
// scheme, its latent feedback (000_031aadcae6604a46.txt, 218.6.2 and 218.6.4), the task and the
// optimiser's settings. Defaults are those of the PyTorch reference
// (baselines/torch_tiny_transformer.py): induction-fixed, V 16, T 32, batch 32, 2 layers, 4 heads,
// d 64, RoPE base 10000, feedback off, 2 passes, Adam lr 1e-3, 1500 steps, seed 0.
// Plus the checks and the sizes a lab shows before training: parameter count, FLOPs per step and
// workspace bytes, and the command-line keys (transformerSpec) with their ranges.
#include "core/attention/attention.h"
#include "core/rope/context_extension.h"
#include "core/lab/param_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct TransformerShape;

// The longest sequence a training or an evaluation runs, in tokens (nn::kMaxAttentionKeys positions).
constexpr int kMaxTransformerTokens = 2048;

enum class TransformerTask {
    InductionFixed,  // T/2 uniform tokens repeated once (the reference's default)
    Induction,       // a segment of s ~ U{T/4..T/2} tokens at a ~ U{0..T-2s} repeated right after itself
    Accumulator,     // the phase accumulator of 218.6.5, bucket tokens plus the increment's (cos, sin)
    Text,            // characters of a UTF-8 text (the user's own)
    // The tasks with exact answers (core/transformer/answer_tasks.h): the loss and the accuracy count
    // only the answer tokens.
    Copy,            // items tokens, a separator, the same tokens again
    Reverse,         // ... the tokens reversed
    Sort,            // ... the tokens sorted ascending
    ModularAddition, // a b = (a + b) mod p, training and held-out pairs split once
    Mqar,            // multi-query associative recall: pairs key-value pairs, then every key queried
    Parity,          // items bits, a separator, the running parity of the bits
};
enum class FeedbackMode {
    Off,    // x_t = E[tok_t]
    KPass,  // x_t = GLU(E[tok_t], h_{t-1}) trained with the k-pass objective of 218.6.4
    Exact,  // the same model, T sequential steps with a KV cache and backpropagation through time
};

// "induction-fixed" | "induction" | "accumulator" | "text" | "copy" | "reverse" | "sort" |
// "modular-addition" | "mqar" | "parity"; "off" | "kpass" | "exact". The parsers
// return false (out unchanged) for other text.
std::string transformerTaskName(TransformerTask t);
bool parseTransformerTask(const std::string &text, TransformerTask &out);
std::string feedbackModeName(FeedbackMode m);
bool parseFeedbackMode(const std::string &text, FeedbackMode &out);
// The tasks with exact answers: copy, reverse, sort, modular-addition, mqar, parity.
bool transformerHasAnswers(TransformerTask t);
// The induction tasks (induction-fixed, induction): a repeat whose loss and induction score are measured.
bool transformerHasRepeat(TransformerTask t);

struct TransformerConfig {
    // The task (key task) and its data.
    TransformerTask task = TransformerTask::InductionFixed;
    std::string text;        // task text: the UTF-8 bytes of the text to learn (key text names a file)
    int vocab = 16;          // V of the induction tasks (the text task's vocabulary is the text's
                             // characters, at most TextCorpus::kDefaultMaxVocab = 512 with one <unk>)
    int buckets = 4;         // V_b of the accumulator (its vocabulary); the chapter uses 4
                             // (copy, reverse, sort and mqar draw their tokens from vocab too)
    int items = 8;           // copy, reverse, sort, parity: tokens (bits) before the separator
    int pairs = 8;           // mqar: key-value pairs (keys from the lower half of vocab, values the upper)
    int pairsMin = 0;        // mqar: each sequence draws its pair count uniformly from pairs_min .. pairs
                             // (its unused tail is separators without targets); 0 = always pairs
    int modulus = 23;        // p of modular-addition (key p): tokens 0 .. p-1 and "=" (token p)
    double trainFraction = 0.5;  // modular-addition: share of the p^2 pairs trained on (the rest held out)
    // The model.
    int seqLen = 32;         // T: tokens per training sequence (text: T + 1 characters per window);
                             // the answer tasks' T follows from their keys (answerSequenceLength)
    int batch = 32;          // B: sequences per step
    int layers = 2;          // L
    int heads = 4;           // H, dividing dModel with an even d_head = dModel / heads
    int dModel = 64;         // d; the FFN is 4d wide
    // The options of 004_21534ea083b6ce9c.txt's "Recent Developments" (all off by default).
    int window = 0;          // sliding-window attention over the last `window` keys (0 = off)
    int kvHeads = 0;         // grouped-query attention: key/value heads, dividing heads (0 = heads; 1 = multi-query)
    bool rmsNorm = false;    // norm: rmsnorm (LN1, LN2, LN_f without mean and bias) or layernorm
    bool qkNorm = false;     // qk_norm: RMSNorm of each head's q and k before RoPE, a learned scale (d_head) each
    bool attnGate = false;   // attn_gate: o = SDPA(...) * sigmoid(LN1(x) W_theta), W_theta d x d per layer
    int loop = 1;            // loop: the L blocks applied this many times with shared weights (1..8)
    int shortConv = 0;       // short_conv: taps of a causal depthwise convolution on q, k and v (0 = off, 2..8)
    // mixer: softmax attention or a linear mixer (core/transformer/mixer.h) in every layer, or one
    // per layer, "gated-deltanet,gated-deltanet,gated-deltanet,softmax" (parseMixers)
    std::string mixer = "softmax";
    PositionalScheme pos = PositionalScheme::Rope;
    double base = 10000.0;   // b of the sinusoidal table and of RoPE
    bool embedScale = false; // x_t = sqrt(d) E[tok_t] (Vaswani et al.) instead of E[tok_t]
    // RoPE at evaluation: the held-out loss at round(factor * T) tokens with this rescaling
    // (TransformerResult::extended); the length-generalisation table tries every rescaling anyway.
    ScalingMethod scaling = ScalingMethod::None;
    double factor = 1.0;
    // Latent feedback.
    FeedbackMode feedback = FeedbackMode::Off;
    int passes = 2;          // k of the k-pass objective, 1..T
    // Training.
    double lr = 1e-3;        // Adam (fb::Adam, torch's defaults otherwise)
    double weightDecay = 0.0;  // AdamW's decoupled decay lambda: p -= lr lambda p before each step; 0 = Adam
    int steps = 1500;
    std::uint64_t seed = 0;  // initialisation, training batches; the held-out set uses seed + 1
    double clip = 0.0;       // clip the gradient's 2-norm like torch.nn.utils.clip_grad_norm_; 0 = off
    double divergeLoss = 0.0;  // a step loss above this stops the run as diverged; 0 = 10 ln V
    int threads = 1;         // worker threads of one training (oneTBB); the result does not depend on it
    // threads = 1 only: time the steps by the thread's CPU clock, not the wall clock, so ms/step is
    // the step's own cost where trainings share the cores by turns (a comparison of more
    // configurations than cores). Changes no number but ms/step.
    bool cpuClock = false;
    // What the trainer reports while it runs.
    int evalEvery = 100;     // held-out loss every this many steps (0 = only at the end)
    int evalSequences = 0;   // held-out sequences (0 = 4 * batch, as the reference)
    int probeEvery = 50;     // a snapshot every this many steps (0 = never by count) ...
    double probeSeconds = 0.08;  // ... and whenever this much time passed since the last (0 = never by time)
    int sampleChars = 80;    // text task: characters of the sample in each snapshot
    double sampleTemperature = 0.8;
    // text task: every snapshot also carries a copy of the weights (TransformerSnapshot::weights), for
    // a window that writes while the model trains. It allocates that copy at every snapshot.
    bool snapshotWeights = false;
    // Taking the trained model apart (core/interpret): heads evaluated switched off after training,
    // "L2H1,L2H3" or "L2" (1-based; empty: none), and whether ablated heads read their mean output
    // over the held-out set instead of 0 (in that evaluation and in the table of single heads).
    std::string ablate;
    bool meanAblation = false;
};

// Empty when config is trainable, otherwise one sentence naming the bad field by its command-line
// key and giving its valid range, e.g. "heads must divide d_model = 64 with an even d_head, got 5".
std::string checkTransformerConfig(const TransformerConfig &config);
// The same checks without the text task's text (every size, range and budget): what a model file
// saved without its text is checked against.
std::string checkTransformerSettings(const TransformerConfig &config);

// The vocabulary size the model is built with: vocab (induction), buckets (accumulator), and for the
// text task the size of the text's vocabulary (at most 512), or 0 when the text is unusable; the
// answer tasks': vocab + 1 (copy, reverse, sort, mqar: a separator), 3 (parity), p + 1 (modular-addition).
int transformerVocabulary(const TransformerConfig &config);

// The answer tasks' sequence length in tokens, which seq_len must equal: 2 items + 1 (copy, reverse,
// sort, parity), 4 pairs + 1 (mqar), 4 (modular-addition: a b = c); 0 for the other tasks.
int answerSequenceLength(const TransformerConfig &config);

// Mqar: the pair counts whose recall is measured after training (TransformerResult::recallByPairs):
// every count from 1 to pairs up to 16 pairs, above that 1 2 3 4 6 8 12 16 24 32 48 and pairs;
// empty for the other tasks.
std::vector<int> recallPairCounts(const TransformerConfig &config);

// The model's sizes for config with a vocabulary of vocab tokens (transformerVocabulary, or a bound
// on it for the budget).
TransformerShape transformerShape(const TransformerConfig &config, int vocab);

// Input positions of a sequence of seqLen tokens: seqLen - 1 for the induction and answer tasks (the
// last token is only a target), seqLen for the accumulator and for text (whose windows hold seqLen + 1
// characters).
int transformerInputPositions(const TransformerConfig &config, int seqLen);
// The longest sequence the trainer evaluates (the length table's 4T, or factor * T if longer), in
// tokens; evaluation sequences of n tokens are rounded to even n for the induction tasks. The answer
// tasks are evaluated at T only (their sequences have one length).
int transformerLongestEvaluation(const TransformerConfig &config);
// The evaluation length for a factor: round(factor * T), even for the induction tasks.
int transformerEvaluationLength(const TransformerConfig &config, double factor);
// Columns of the evaluation workspace: max(batch * T, the longest evaluation's positions, the
// probe's 8 * T).
long long transformerEvaluationColumns(const TransformerConfig &config);

// Parameter count: 101,632 at the defaults, 118,144 with feedback (the reference's numbers).
long long transformerParameterCount(const TransformerConfig &config);

// FLOPs of the matrix products of one training step as FullBand performs them (forward and
// backward, 2 per multiply-add, attention's products over the keys of each query's piece, as
// nn::AttentionPieces cuts them (48 of 64 on average at T = 64; one position at a time, its visible
// keys), elementwise work
// not counted but the short convolution's K multiply-adds per entry of q, k, v). The k-pass
// objective adds k - 1 forward passes without gradient.
double transformerFlopsPerStep(const TransformerConfig &config);

// The bytes layer l (0-based, of the weights) keeps per sequence at inference after `length`
// positions, every application of it with looped depth: softmax attention's KV cache (2 kv_heads
// d_head floats per cached position, at most `window` of them; the costs lab's formula), a linear
// mixer's fixed state (heads d_head^2 floats, plus heads d_head for linear attention's normaliser);
// with short_conv K, either adds the raw q, k, v of the last K - 1 positions (d + 2 kv_heads d_head floats each).
double transformerStateBytes(const TransformerConfig &config, int layer, int length);
// The short convolution's share of that, per layer: the raw q, k, v of min(K - 1, length) positions (0 without it).
double transformerConvStateBytes(const TransformerConfig &config, int length);
// Whether layer l (0-based) is softmax attention (config.mixer).
bool transformerLayerIsSoftmax(const TransformerConfig &config, int layer);

// Bytes of every buffer a training of config allocates (parameters, Adam, workspaces, batches,
// snapshots); checkTransformerConfig refuses more than 2 GiB.
double transformerWorkspaceBytes(const TransformerConfig &config);

} // namespace fb
