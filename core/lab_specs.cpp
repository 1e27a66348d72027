#include "core/lab_specs.h"

#include <utility>

namespace fb {

namespace {

// Ranges shared by several labs. Sizes are capped so that no setting can exhaust memory or keep a
// panel busy for more than about a second on two cores.
constexpr double kMinBase = 1.0001;      // b > 1, or the frequency ladder collapses to theta_i = 1
constexpr double kMaxBase = 1e9;         // far past any published RoPE base (Llama 3: 500,000)
constexpr double kMaxDistance = 65536;   // decay-bound distances and rope-invariance positions
constexpr double kMaxFactor = 64;        // context-extension factor s
constexpr double kMinTrained = 16, kMaxTrained = 1048576;  // trained context L, tokens
constexpr double kMaxSeed = 4294967295.0;  // 2^32 - 1: every seed is exact in a double

ParamSpec ropeWidth(double max)
{
    return integerParam("d", "head width d", "", 2, max, 64,
                   "Width of the rotated query/key vectors; RoPE rotates d/2 coordinate pairs.", false, 2);
}

ParamSpec ropeBase()
{
    return realParam("base", "RoPE base b", "", kMinBase, kMaxBase, 10000,
                "Base of the frequency ladder theta_i = b^(-2i/d).", true);
}

ParamSpec factorSpec()
{
    return realParam("factor", "extension factor s", "", 1, kMaxFactor, 1,
                "How many times the trained context to reach; 1 leaves RoPE unchanged.", true);
}

ParamSpec trainedLength()
{
    return integerParam("trained_length", "trained context L", "tokens", kMinTrained, kMaxTrained, 4096,
                   "Context length the model was trained on (YaRN's ramp is measured against it).", true);
}

ParamSpec seedSpec(double def, std::string help)
{
    return integerParam("seed", "random seed", "", 0, kMaxSeed, def, std::move(help));
}

const std::vector<std::string> kScalingChoices { "none", "pi", "ntk", "yarn" };

ScalingMethod scalingOf(const std::string &text)
{
    ScalingMethod m = ScalingMethod::None;
    parseScalingMethod(text, m);
    return m;
}

} // namespace

const LabSpec &decayBoundSpec()
{
    static const LabSpec spec { "decay-bound", "RoPE decay bound", {
        ropeWidth(1024),
        ropeBase(),
        integerParam("max_distance", "max distance", "tokens", 1, kMaxDistance, 512,
                "The bound is computed at every relative distance 1..max_distance.", true),
        choiceParam("scaling", "frequency scaling", kScalingChoices, "none",
               "Context extension applied to the frequencies: none, position interpolation, NTK-aware or YaRN."),
        factorSpec(),
        trainedLength(),
    } };
    return spec;
}

const LabSpec &ropeInvarianceSpec()
{
    static const LabSpec spec { "rope-invariance", "RoPE logit invariance", {
        ropeWidth(4096),
        ropeBase(),
        integerParam("offset", "key offset", "tokens", -kMaxDistance, kMaxDistance, 8,
                "Key position minus query position, held fixed as the pair slides."),
        integerParam("positions", "query positions", "tokens", 1, kMaxDistance, 256,
                "Query positions m = 0..positions-1 swept with the key at m + offset.", true),
        seedSpec(0, "Seed of the content pair q, k ~ N(0, I), drawn as torch.manual_seed(seed); torch.randn(d) twice (0 is the chapter's)."),
    } };
    return spec;
}

const LabSpec &contextExtensionSpec()
{
    static const LabSpec spec { "context-extension", "RoPE context extension", {
        ropeWidth(1024),
        ropeBase(),
        choiceParam("method", "scaling method", kScalingChoices, "none",
               "none, position interpolation (theta/s), NTK-aware base change or YaRN's by-parts ramp."),
        factorSpec(),
        trainedLength(),
    } };
    return spec;
}

const LabSpec &attentionSpec()
{
    static const LabSpec spec = [] {
        LabSpec s { "attention", "Multi-head attention", {
            integerParam("n", "sequence length n", "tokens", 1, 512, 12,
                    "Number of tokens (random and repeated content; a sentence sets it to its word count)."),
            integerParam("d_model", "model width d_model", "", 2, 1024, 64,
                    "Width of the token embeddings; must be divisible by heads."),
            integerParam("heads", "heads", "", 1, 16, 4, "Number of attention heads; each has width d_model / heads."),
            choiceParam("positional", "positional encoding", { "none", "sinusoidal", "rope" }, "sinusoidal",
                   "none, sinusoidal added to the embeddings, or RoPE rotating each head's q and k."),
            ropeBase(),
            integerParam("causal", "causal mask", "", 0, 1, 0, "1 masks keys after the query (decoder attention)."),
            integerParam("scaled", "scale by 1/sqrt(d_k)", "", 0, 1, 1,
                    "1 divides the logits by sqrt(d_k); 0 shows the saturation the scaling prevents."),
            seedSpec(7, "Seed of the projections W_Q, W_K ~ N(0, 1/d_model) and the token embeddings."),
            choiceParam("content", "content", { "random", "repeated", "sentence" }, "random",
                   "random tokens, one token repeated at every position, or the words of a sentence."),
        } };
        s.params.push_back(textParam("sentence", "sentence", "words", "the cat sat on the mat because the mat was warm", 4000,
                                     "Words split on white space (1 to 512); the same word always gets the same embedding."));
        return s;
    }();
    return spec;
}

const LabSpec &capacitySpec()
{
    static const LabSpec spec { "capacity", "Channel capacity", {
        integerParam("d", "model width d", "coordinates", 1, 1048576, 4096,
                "Width of the latent carry h_t.", true),
        realParam("snr", "signal-to-noise ratio", "", 0, 1e6, 10,
             "Usable signal-to-noise ratio per latent coordinate (not in dB).", true),
        integerParam("vocab", "vocabulary size V", "tokens", 2, 1e9, 128000,
                "Vocabulary size; one sampled token carries at most log2(V) bits.", true),
    } };
    return spec;
}

const LabSpec &accountingSpec()
{
    static const LabSpec spec { "accounting", "Latent-feedback compute accounting", {
        integerParam("layers", "layers L", "", 1, 1000, 32, "Transformer layers; the GLU's overheads fall as 1/L."),
        realParam("phi", "latent phase fraction phi", "", 0, 1, 0.2,
             "Fraction of pretraining run with latent feedback on (the last part of the run)."),
        realParam("rho", "deep batch fraction rho", "", 0, 1, 0.1,
             "Fraction of latent-phase batches that use the deeper feedback pass."),
        realParam("data_ratio", "baseline data ratio", "", 1, 100, 1.5,
             "How many times more tokens the baseline needs to match the full-bandwidth model."),
        integerParam("passes", "passes k", "", 1, 64, 2, "Feedback passes of most latent-phase batches."),
        integerParam("deep_passes", "deep passes k'", "", 1, 64, 3, "Feedback passes of the rho fraction of batches."),
    } };
    return spec;
}

const LabSpec &kvCacheSpec()
{
    static const LabSpec spec { "kv-cache", "KV cache size", {
        integerParam("layers", "layers", "", 1, 1000, 80, "Transformer layers, each caching its own keys and values."),
        integerParam("kv_heads", "KV heads", "", 1, 1024, 8, "Key/value heads per layer (fewer than query heads under GQA/MQA)."),
        integerParam("head_dim", "head dimension", "", 1, 16384, 128, "Width of one key or value head."),
        integerParam("tokens", "context length", "tokens", 1, 1e9, 131072, "Tokens held in the cache.", true),
        realParam("bytes_per_value", "bytes per value", "bytes", 0.125, 16, 2,
             "Storage per cached number: 2 for 16-bit, 1 for 8-bit, 0.5 for 4-bit."),
    } };
    return spec;
}

const LabSpec &bayesFloorSpec()
{
    static const LabSpec spec { "bayes-floor", "Token-only Bayes floor", {
        integerParam("buckets", "buckets V_b", "", 2, 1024, 4, "Buckets of the toy phase accumulator's emitted token."),
        integerParam("samples", "Monte Carlo samples", "", 1, 1e7, 400000, "Draws of u ~ U(0,1) for the estimate.", true),
        seedSpec(0, "Seed of the Monte Carlo draws."),
    } };
    return spec;
}

const std::vector<const LabSpec *> &analyticLabs()
{
    static const std::vector<const LabSpec *> labs { &ropeInvarianceSpec(), &decayBoundSpec(),
        &contextExtensionSpec(), &attentionSpec(), &capacitySpec(), &bayesFloorSpec(), &accountingSpec(),
        &kvCacheSpec() };
    return labs;
}

const LabSpec *findAnalyticLab(std::string_view name)
{
    for (const LabSpec *lab : analyticLabs())
        if (lab->name == name) return lab;
    return nullptr;
}

std::string decayBoundFrom(const ParamValues &v, DecayBoundParams &out)
{
    if (auto err = checkAll(decayBoundSpec(), v); !err.empty()) return err;
    DecayBoundParams p;
    p.d = int(v.integer("d"));
    p.base = v.number("base");
    p.maxDistance = int(v.integer("max_distance"));
    p.extension.method = scalingOf(v.text("scaling"));
    p.extension.factor = v.number("factor");
    p.extension.trainedLength = v.number("trained_length");
    out = p;
    return {};
}

std::string ropeInvarianceFrom(const ParamValues &v, RopeInvarianceParams &out)
{
    if (auto err = checkAll(ropeInvarianceSpec(), v); !err.empty()) return err;
    RopeInvarianceParams p;
    p.d = int(v.integer("d"));
    p.base = v.number("base");
    p.offset = int(v.integer("offset"));
    p.positions = int(v.integer("positions"));
    p.seed = std::uint64_t(v.integer("seed"));
    out = p;
    return {};
}

std::string contextExtensionFrom(const ParamValues &v, int &d, double &base, ContextExtension &out)
{
    if (auto err = checkAll(contextExtensionSpec(), v); !err.empty()) return err;
    ContextExtension e;
    e.method = scalingOf(v.text("method"));
    e.factor = v.number("factor");
    e.trainedLength = v.number("trained_length");
    d = int(v.integer("d"));
    base = v.number("base");
    out = e;
    return {};
}

std::string attentionFrom(const ParamValues &v, AttentionParams &out)
{
    if (auto err = checkAll(attentionSpec(), v); !err.empty()) return err;
    AttentionParams p;
    p.n = int(v.integer("n"));
    p.dModel = int(v.integer("d_model"));
    p.heads = int(v.integer("heads"));
    parsePositionalScheme(v.text("positional"), p.positional);
    p.base = v.number("base");
    p.causal = v.integer("causal") != 0;
    p.scaled = v.integer("scaled") != 0;
    p.seed = std::uint64_t(v.integer("seed"));
    parseAttentionContent(v.text("content"), p.content);
    p.sentence = v.text("sentence");
    const std::string dm = std::to_string(p.dModel), h = std::to_string(p.heads);
    if (p.dModel % p.heads != 0)
        return "heads must divide d_model: d_model = " + dm + " is not a multiple of heads = " + h
            + " (heads is an integer in [1, 16], d_model in [2, 1024])";
    if (p.positional == PositionalScheme::Rope && (p.dModel / p.heads) % 2 != 0)
        return "with positional=rope the head width d_model / heads must be even, got " + dm + " / " + h + " = "
            + std::to_string(p.dModel / p.heads) + " (choose d_model and heads accordingly)";
    if (p.content == AttentionContent::Sentence) {
        const std::size_t words = splitWords(p.sentence, 513).size();
        if (words < 1 || words > 512)
            return "sentence (words) must hold 1 to 512 words when content=sentence, got "
                + std::string(words > 512 ? "more than 512" : "none");
    }
    out = p;
    return {};
}

std::string capacityFrom(const ParamValues &v, CapacityParams &out)
{
    if (auto err = checkAll(capacitySpec(), v); !err.empty()) return err;
    out = CapacityParams { v.number("d"), v.number("snr"), v.number("vocab") };
    return {};
}

std::string accountingFrom(const ParamValues &v, AccountingParams &out)
{
    if (auto err = checkAll(accountingSpec(), v); !err.empty()) return err;
    AccountingParams p;
    p.layers = int(v.integer("layers"));
    p.phi = v.number("phi");
    p.rho = v.number("rho");
    p.dataRatio = v.number("data_ratio");
    p.passes = int(v.integer("passes"));
    p.deepPasses = int(v.integer("deep_passes"));
    out = p;
    return {};
}

std::string kvCacheFrom(const ParamValues &v, KvCacheParams &out)
{
    if (auto err = checkAll(kvCacheSpec(), v); !err.empty()) return err;
    out = KvCacheParams { v.number("layers"), v.number("kv_heads"), v.number("head_dim"), v.number("tokens"),
                          v.number("bytes_per_value") };
    return {};
}

std::string bayesFloorFrom(const ParamValues &v, BayesFloorParams &out)
{
    if (auto err = checkAll(bayesFloorSpec(), v); !err.empty()) return err;
    BayesFloorParams p;
    p.buckets = int(v.integer("buckets"));
    p.samples = v.integer("samples");
    p.seed = std::uint64_t(v.integer("seed"));
    out = p;
    return {};
}

} // namespace fb
