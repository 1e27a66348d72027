// The parameters of a transformer training for the command line and the lab's panel: keys, ranges
// and defaults (the PyTorch reference's, baselines/torch_tiny_transformer.py).
#include "core/labs/transformer_spec.h"

#include "core/attention/attention.h"
#include "core/io/bounded_read.h"
#include "core/transformer/mixer.h"
#include "core/transformer/text_corpus.h"

namespace fb {

namespace {

ParamSpec integer(const char *key, const char *label, double min, double max, double def, const char *help,
                  long long multipleOf = 1)
{
    ParamSpec p { key, label, "", ParamKind::Integer, min, max, def };
    p.multipleOf = multipleOf;
    p.help = help;
    return p;
}

ParamSpec real(const char *key, const char *label, double min, double max, double def, bool logScale, const char *help)
{
    ParamSpec p { key, label, "", ParamKind::Real, min, max, def };
    p.logScale = logScale;
    p.help = help;
    return p;
}

ParamSpec choice(const char *key, const char *label, std::vector<std::string> choices, const char *def, const char *help)
{
    ParamSpec p { key, label, "", ParamKind::Choice };
    p.choices = std::move(choices);
    p.defText = def;
    p.help = help;
    return p;
}

LabSpec makeSpec()
{
    LabSpec spec { "transformer", "Tiny transformer training", {} };
    spec.source = "218.4, 218.6.2, 218.6.4, 218.6.5";
    spec.summary = "A decoder-only transformer trained live: its attention heads, induction heads forming, "
                   "RoPE against sinusoidal positions, and latent feedback trained exactly or with k passes.";
    spec.section = "218.4 The transformer, trained; 218.6 latent feedback";
    auto &p = spec.params;
    p.push_back(choice("task", "task",
                       { "induction-fixed", "induction", "accumulator", "text", "copy", "reverse", "sort",
                         "modular-addition", "mqar", "parity" },
                       "induction-fixed",
                       "induction-fixed: T/2 random tokens repeated; induction: a repeat at a random offset; "
                       "accumulator: the phase accumulator of 218.6.5; text: the characters of your own text "
                       "(at nanoGPT's CPU size unless set: layers 4, heads 4, d_model 128, seq_len 64, batch 12, "
                       "weight_decay 0.1; the weights of the best held-out loss are kept). With exact answers "
                       "(loss and accuracy on the answers only; seq_len follows from the task): copy, reverse, "
                       "sort: items tokens, a separator, them again (reversed, sorted); modular-addition: "
                       "a b = (a + b) mod p; mqar: pairs key-value pairs, then every key asked once; parity: "
                       "items bits, a separator, their running parity."));
    ParamSpec text { "text", "text file", "", ParamKind::Text };
    text.maxLength = 4096;
    text.help = "Path of a UTF-8 text file for task=text.";
    text.isFile = true;
    p.push_back(text);
    p.push_back(integer("vocab", "vocabulary V", 2, 512, 16, "Token count of the induction tasks."));
    p.push_back(integer("buckets", "buckets V_b", 2, 64, 4, "Buckets of the accumulator (its vocabulary)."));
    p.push_back(integer("items", "items", 1, 127, 8,
                        "copy, reverse, sort, parity: tokens (bits) before the separator; seq_len = 2 items + 1."));
    p.push_back(integer("pairs", "pairs", 1, 63, 8,
                        "mqar: key-value pairs, keys from the lower half of vocab, values from the upper "
                        "(vocab at least 2 pairs); seq_len = 4 pairs + 1."));
    p.push_back(integer("pairs_min", "fewest pairs", 0, 63, 0,
                        "mqar: each sequence holds a number of pairs drawn uniformly from pairs_min to pairs "
                        "(the rest of it is padding without targets), so that one model learns every count and "
                        "its recall can be read by count; 0 = always pairs."));
    p.push_back(integer("p", "modulus p", 2, 211, 23, "modular-addition: the modulus (tokens 0 .. p-1 and \"=\")."));
    p.push_back(real("train_fraction", "train fraction", 0.05, 0.95, 0.5, false,
                     "modular-addition: share of the p^2 pairs trained on; the rest are held out."));
    p.push_back(integer("seq_len", "sequence length T", 2, 2048, 32,
                        "Tokens per sequence (even, at least 4, for the induction tasks; the tasks with exact "
                        "answers set it from their keys)."));
    p.push_back(integer("batch", "batch size", 1, 512, 32, "Sequences per training step."));
    p.push_back(integer("layers", "layers L", 1, 8, 2, "Transformer blocks."));
    p.push_back(integer("heads", "heads H", 1, 16, 4, "Attention heads; must divide d_model with an even d_head."));
    p.push_back(integer("d_model", "width d", 4, 512, 64, "Model width; the FFN is 4d wide.", 2));
    p.push_back(choice("pos", "positions", { "none", "sinusoidal", "rope" }, "rope",
                       "none, the sinusoidal table added to the input, or RoPE on every head's q and k."));
    p.push_back(real("base", "base b", 2, 1e9, 10000, true, "Base of the sinusoidal table and of RoPE's frequencies."));
    p.push_back(choice("scaling", "RoPE rescaling", { "none", "pi", "ntk", "yarn" }, "none",
                       "Context extension used for the extra held-out evaluation at factor x T (pos=rope)."));
    p.push_back(real("factor", "extension factor s", 1, 8, 1, false,
                     "Length of the extra held-out evaluation in units of T."));
    p.push_back(choice("feedback", "latent feedback", { "off", "kpass", "exact" }, "off",
                       "off; kpass: the k-pass objective of 218.6.4; exact: T sequential steps (BPTT)."));
    p.push_back(integer("passes", "passes k", 1, 2048, 2, "Passes of the k-pass objective (at most seq_len)."));
    p.push_back(real("lr", "learning rate", 1e-6, 1000, 1e-3, true, "Adam learning rate."));
    p.push_back(real("weight_decay", "weight decay", 0, 1, 0, false,
                     "AdamW's decoupled weight decay: every step the matrices and embeddings shrink by "
                     "lr x weight_decay before Adam's update, biases and LayerNorm do not (0 = plain Adam); "
                     "task=text defaults to 0.1."));
    p.push_back(integer("steps", "training steps", 1, 100000, 1500, "Adam steps, one fresh batch each."));
    p.push_back(integer("seed", "seed", 0, 2147483648.0, 0, "Seed of the initialisation and of the batches."));
    p.push_back(integer("embed_scale", "scale embeddings", 0, 1, 0, "1: inputs are sqrt(d) E[tok] (Vaswani et al.)."));
    p.push_back(integer("eval_every", "held-out every", 0, 100000, 100, "Steps between held-out losses (0: at the end)."));
    p.push_back(real("clip", "gradient clip", 0, 1000, 0, false, "Gradient-norm clipping threshold; 0 = off."));
    p.push_back(integer("threads", "threads", 1, 64, 1, "Threads of one training (the result does not depend on it)."));
    // The model options of 004_21534ea083b6ce9c.txt's "Recent Developments" (all off by default).
    for (ParamSpec &param : p)
        if (param.key == "pos") {
            param.choices.push_back("alibi");
            param.help += " alibi: no position in x, the bias -m_h (i - j) on head h's logits, m_h = 2^(-8h/H).";
        }
    p.push_back(integer("window", "attention window", 0, 2048, 0,
                        "Sliding-window attention: key j is visible to query i iff i - window < j <= i "
                        "(0 = off, every earlier key)."));
    p.push_back(integer("kv_heads", "key/value heads", 0, 16, 0,
                        "Grouped-query attention: key and value heads shared by heads / kv_heads query "
                        "heads each; must divide heads (0 = heads, 1 = multi-query)."));
    p.push_back(choice("norm", "norm", { "layernorm", "rmsnorm" }, "layernorm",
                       "The blocks' and the final norm: LayerNorm, or RMSNorm (no mean, no bias)."));
    p.push_back(choice("qk_norm", "QK-norm", { "off", "on" }, "off",
                       "on: RMSNorm of every head's query and key before RoPE, with a learned scale of "
                       "d_head for the queries and one for the keys."));
    p.push_back(choice("attn_gate", "attention gate", { "off", "on" }, "off",
                       "on: every head's attention output times sigmoid(LN1(x) W_theta), W_theta d x d per "
                       "layer (gated attention, Qiu et al. 2025)."));
    p.push_back(integer("loop", "loops", 1, 8, 1,
                        "Looped depth: the layers applied this many times with the same weights (the "
                        "gradients add up over the loops); maps and scores are the first loop's."));
    p.push_back(integer("short_conv", "short convolution", 0, 8, 0,
                        "Taps of a causal depthwise convolution along the positions on every row of q, k and "
                        "v (as in Gated DeltaNet): a key also holds the tokens just before it. 0 = off, 2..8."));
    ParamSpec mixer { "mixer", "mixer", "", ParamKind::Text };
    mixer.maxLength = 400;
    mixer.defText = "softmax";
    mixer.help = "What mixes the positions: softmax attention, or a linear mixer with a fixed d_head x d_head "
                 "state per head: linear (elu+1 features), deltanet (the delta rule), gated-deltanet (the "
                 "delta rule with a learned decay). One for every layer, or a comma-separated list of one "
                 "per layer, e.g. gated-deltanet,gated-deltanet,gated-deltanet,softmax (a 3:1 hybrid).";
    p.push_back(mixer);
    // The keys a task (or an option) does not read: greyed in the panel, left out of captions.
    const auto only = [&p](const std::string &key, const std::string &with, std::vector<std::string> values) {
        for (ParamSpec &param : p)
            if (param.key == key) {
                param.usedWith = with;
                param.usedWithValues = std::move(values);
            }
    };
    only("vocab", "task", { "induction-fixed", "induction", "copy", "reverse", "sort", "mqar" });
    only("buckets", "task", { "accumulator" });
    only("items", "task", { "copy", "reverse", "sort", "parity" });
    only("pairs", "task", { "mqar" });
    only("pairs_min", "task", { "mqar" });
    only("p", "task", { "modular-addition" });
    only("train_fraction", "task", { "modular-addition" });
    only("seq_len", "task", { "induction-fixed", "induction", "accumulator", "text" });
    only("passes", "feedback", { "kpass" });
    only("base", "pos", { "sinusoidal", "rope" });
    only("scaling", "pos", { "rope" });
    spec.trains = true;
    return spec;
}

} // namespace

const std::vector<std::pair<std::string, double>> &transformerTextDefaults()
{
    static const std::vector<std::pair<std::string, double>> defaults = {
        { "layers", 4 }, { "heads", 4 }, { "d_model", 128 }, { "seq_len", 64 }, { "batch", 12 }, { "weight_decay", 0.1 },
    };
    return defaults;
}

void applyTransformerTaskDefaults(TransformerTask task, ParamValues &values)
{
    const LabSpec &spec = transformerSpec();
    for (const auto &[key, value] : transformerTextDefaults())
        values.numbers[key] = task == TransformerTask::Text ? value : spec.find(key)->def;
}

ParamValues transformerValues(const TransformerConfig &c, const std::string &textPath)
{
    ParamValues v = transformerSpec().defaults();
    v.texts["task"] = transformerTaskName(c.task);
    v.texts["text"] = textPath;
    v.texts["pos"] = positionalSchemeName(c.pos);
    v.texts["scaling"] = scalingMethodName(c.scaling);
    v.texts["feedback"] = feedbackModeName(c.feedback);
    v.numbers["vocab"] = c.vocab;
    v.numbers["buckets"] = c.buckets;
    v.numbers["items"] = c.items;
    v.numbers["pairs"] = c.pairs;
    v.numbers["pairs_min"] = c.pairsMin;
    v.numbers["p"] = c.modulus;
    v.numbers["train_fraction"] = c.trainFraction;
    v.numbers["seq_len"] = c.seqLen;
    v.numbers["batch"] = c.batch;
    v.numbers["layers"] = c.layers;
    v.numbers["heads"] = c.heads;
    v.numbers["d_model"] = c.dModel;
    v.numbers["base"] = c.base;
    v.numbers["factor"] = c.factor;
    v.numbers["passes"] = c.passes;
    v.numbers["lr"] = c.lr;
    v.numbers["weight_decay"] = c.weightDecay;
    v.numbers["steps"] = c.steps;
    v.numbers["seed"] = double(c.seed);
    v.numbers["embed_scale"] = c.embedScale ? 1 : 0;
    v.numbers["eval_every"] = c.evalEvery;
    v.numbers["clip"] = c.clip;
    v.numbers["threads"] = c.threads;
    v.numbers["window"] = c.window;
    v.numbers["short_conv"] = c.shortConv;
    v.numbers["kv_heads"] = c.kvHeads;
    v.texts["norm"] = c.rmsNorm ? "rmsnorm" : "layernorm";
    v.texts["qk_norm"] = c.qkNorm ? "on" : "off";
    v.texts["attn_gate"] = c.attnGate ? "on" : "off";
    v.numbers["loop"] = c.loop;
    v.texts["mixer"] = c.mixer;
    return v;
}

ParamValues transformerCommandValues(const TransformerConfig &c, const std::string &textPath)
{
    ParamValues v = transformerCommandSpec().defaults();
    const ParamValues panel = transformerValues(c, textPath);
    for (const auto &[key, value] : panel.numbers) v.numbers[key] = value;
    for (const auto &[key, value] : panel.texts) v.texts[key] = value;
    if (c.pos == PositionalScheme::Alibi) v.texts["pos"] = "alibi";
    v.texts["ablate"] = c.ablate;
    v.texts["ablation"] = c.meanAblation ? "mean" : "zero";
    return v;
}

void followTransformerTask(const ParamValues &now, ParamValues &candidate)
{
    const std::string &to = candidate.text("task");
    const std::string &from = now.text("task");
    if (to == from || (to != "text" && from != "text")) return;
    TransformerTask task = TransformerTask::InductionFixed;
    if (!parseTransformerTask(to, task)) return;  // the checks refuse it
    applyTransformerTaskDefaults(task, candidate);
}

const LabSpec &transformerSpec()
{
    static const LabSpec spec = makeSpec();
    return spec;
}

const LabSpec &transformerCommandSpec()
{
    static const LabSpec spec = [] {
        LabSpec s = makeSpec();
        ParamSpec ablate { "ablate", "ablated heads", "", ParamKind::Text };
        ablate.maxLength = 1000;
        ablate.help = "Parts switched off when the trained model is evaluated again, 1-based: heads L2H1,L2H3, "
                      "L2 (every head of layer 2), F1 (layer 1's FFN), feedback (the gate on h(t-1) shut, with "
                      "feedback on); adds \"ablated\" to the JSON.";
        s.params.push_back(ablate);
        s.params.push_back(choice("ablation", "ablation", { "zero", "mean" }, "zero",
                                  "What an ablated head outputs (ablate and the table of single heads): zero, or "
                                  "its mean output over the held-out set."));
        return s;
    }();
    return spec;
}

namespace {

// transformerFrom's work; text is the text task's text, or null to read the file the key text names.
std::string configFrom(const ParamValues &v, const std::string *text, TransformerConfig &out)
{
    const bool command = v.texts.count("ablate") || v.texts.count("ablation");
    const LabSpec &spec = command ? transformerCommandSpec() : transformerSpec();
    if (std::string err = checkAll(spec, v); !err.empty()) return err;
    TransformerConfig c;
    parseTransformerTask(v.text("task"), c.task);
    if (v.text("pos") == "alibi") c.pos = PositionalScheme::Alibi;  // the transformer's own scheme
    else parsePositionalScheme(v.text("pos"), c.pos);
    parseScalingMethod(v.text("scaling"), c.scaling);
    parseFeedbackMode(v.text("feedback"), c.feedback);
    c.vocab = int(v.integer("vocab"));
    c.buckets = int(v.integer("buckets"));
    c.items = int(v.integer("items"));
    c.pairs = int(v.integer("pairs"));
    c.pairsMin = int(v.integer("pairs_min"));
    c.modulus = int(v.integer("p"));
    c.trainFraction = v.number("train_fraction");
    c.seqLen = int(v.integer("seq_len"));
    if (transformerHasAnswers(c.task)) c.seqLen = answerSequenceLength(c);  // seq_len follows from the task
    c.batch = int(v.integer("batch"));
    c.layers = int(v.integer("layers"));
    c.heads = int(v.integer("heads"));
    c.dModel = int(v.integer("d_model"));
    c.base = v.number("base");
    c.factor = v.number("factor");
    c.passes = int(v.integer("passes"));
    c.lr = v.number("lr");
    c.weightDecay = v.number("weight_decay");
    c.steps = int(v.integer("steps"));
    c.seed = std::uint64_t(v.integer("seed"));
    c.embedScale = v.integer("embed_scale") != 0;
    c.evalEvery = int(v.integer("eval_every"));
    c.clip = v.number("clip");
    c.threads = int(v.integer("threads"));
    if (command) {
        c.ablate = v.text("ablate");
        c.meanAblation = v.text("ablation") == "mean";
    }
    c.window = int(v.integer("window"));
    c.shortConv = int(v.integer("short_conv"));
    c.kvHeads = int(v.integer("kv_heads"));
    c.rmsNorm = v.text("norm") == "rmsnorm";
    c.qkNorm = v.text("qk_norm") == "on";
    c.attnGate = v.text("attn_gate") == "on";
    c.loop = int(v.integer("loop"));
    {
        std::vector<Mixer> mixers;
        if (std::string err = parseMixers(v.text("mixer"), c.layers, mixers); !err.empty()) return err;
        c.mixer = mixersText(mixers);
    }
    if (c.task == TransformerTask::Text && text) {
        c.text = *text;
    } else if (c.task == TransformerTask::Text) {
        const std::string &path = v.text("text");
        if (path.empty()) return "text must name a UTF-8 text file for task=text";
        // The path may come from a scene, a deck or a PNG someone sent: only a regular file of at most
        // 64 MiB is read, opened without blocking (a FIFO, a device or a folder is refused unread).
        if (std::string err = readRegularFile(path, TextCorpus::kMaxBytes, c.text); !err.empty())
            return "text: " + err;
    }
    if (std::string err = checkTransformerConfig(c); !err.empty()) return err;
    out = std::move(c);
    return {};
}

} // namespace

std::string transformerFrom(const ParamValues &v, TransformerConfig &out)
{
    return configFrom(v, nullptr, out);
}

std::string transformerFromText(const ParamValues &v, const std::string &text, TransformerConfig &out)
{
    return configFrom(v, &text, out);
}

} // namespace fb
