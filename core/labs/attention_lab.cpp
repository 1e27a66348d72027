#include "core/labs/attention_lab.h"

#include "core/rope/context_extension.h"
#include "core/labs/common_params.h"
#include "core/attention/positional.h"

#include <algorithm>
#include <cmath>

namespace fb {

const LabSpec &AttentionLab::spec()
{
    static const LabSpec spec { "attention", "Attention", {
        integerParam("n", "sequence length n", "tokens", 1, 512, 12,
                     "Number of tokens (random and repeated content; a sentence sets it to its word count)."),
        integerParam("d_model", "model width d_model", "", 2, 1024, 64, "Width of the token embeddings; must be divisible by heads."),
        integerParam("heads", "heads", "", 1, 16, 4, "Number of attention heads; each has width d_model / heads."),
        choiceParam("positional", "positional encoding", { "none", "sinusoidal", "rope" }, "sinusoidal",
                    "none, sinusoidal added to the embeddings, or RoPE rotating each head's q and k."),
        params::ropeBase(),
        integerParam("causal", "causal mask", "", 0, 1, 0, "1 masks keys after the query (decoder attention)."),
        integerParam("scaled", "scale by 1/sqrt(d_k)", "", 0, 1, 1,
                     "1 divides the logits by sqrt(d_k); 0 shows the saturation the scaling prevents."),
        params::seed(7, "Seed of the projections W_Q, W_K ~ N(0, 1/d_model) and the token embeddings."),
        choiceParam("content", "content", { "random", "repeated", "sentence" }, "random",
                    "random tokens, one token repeated at every position, or the words of a sentence."),
        textParam("sentence", "sentence", "words", "the cat sat on the mat because the mat was warm", 4000,
                  "Words split on white space (1 to 512); the same word always gets the same embedding."),
    }, "218.4.1 - 218.4.4",
        "softmax(QKᵀ/√d_k) per head over none, sinusoidal or RoPE positions, with each head's entropy.",
        "218.4.1–218.4.4 Attention, heads and positions" };
    return spec;
}

AttentionParams AttentionLab::params(const ParamValues &v)
{
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
    return p;
}

std::string AttentionLab::check(const ParamValues &v)
{
    if (auto err = checkAll(spec(), v); !err.empty()) return err;
    const AttentionParams p = params(v);
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
    return checkBudget("attention at n x n x heads", cost(v), "lower n, heads or d_model");
}

Cost AttentionLab::cost(const ParamValues &v)
{
    // Per head: Q and K (n, d_k), logits and weights (n, n), in double; QK^T and softmax(QK^T) V.
    const AttentionParams p = params(v);
    const double n = p.content == AttentionContent::Sentence ? double(splitWords(p.sentence, 513).size()) : double(p.n);
    const double heads = p.heads, dk = double(p.dModel) / p.heads;
    return { 8.0 * heads * (4.0 * n * n + 4.0 * n * dk) + 8.0 * 3.0 * n * p.dModel,
             heads * (4.0 * n * n * dk + 4.0 * n * p.dModel * dk + 10.0 * n * n) };
}

AttentionLabResult AttentionLab::compute(const ParamValues &values, const RunControl &)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    AttentionParams p = r.params;
    p.logitsToeplitz = true;  // for the Toeplitz check
    // The weights go into the memory of a result no longer shown.
    r.weights = pool_.take();
    AttentionResult a;
    a.weights.swap(*r.weights);
    multiHeadAttention(p, a);
    a.weights.swap(*r.weights);

    const std::vector<Eigen::MatrixXd> &w = *r.weights;
    r.heads = int(w.size());
    r.n = r.heads > 0 ? int(w.front().rows()) : 0;
    r.dk = p.dModel / std::max(p.heads, 1);
    for (const Eigen::MatrixXd &m : w) r.maxWeight = std::max(r.maxWeight, m.maxCoeff());
    r.entropy = std::move(a.entropy);
    r.tokens = std::move(a.tokens);
    for (double e : r.entropy) r.meanEntropy += e / std::max(r.heads, 1);
    r.uniformEntropy = std::log(double(std::max(r.n, 1)));
    for (int i = 0; i < r.n; ++i) r.causalUniformEntropy += std::log(double(i + 1)) / r.n;
    const double reference = p.causal ? r.causalUniformEntropy : r.uniformEntropy;
    r.meanOverUniform = reference > 0 ? r.meanEntropy / reference : 0.0;
    for (const LogitsToeplitz &t : a.logitsToeplitz) {
        r.toeplitz.maxAbs = std::max(r.toeplitz.maxAbs, t.maxAbs);
        r.toeplitz.scale = std::max(r.toeplitz.scale, t.scale);
    }
    r.toeplitzHolds = r.toeplitz.relative() <= kToeplitzTolerance;

    if (p.positional == PositionalScheme::Sinusoidal && r.n > 0) {
        r.pe = std::make_shared<const Eigen::MatrixXd>(sinusoidalTable(r.n, p.dModel, p.base));
        const Eigen::VectorXd lambda = wavelengths(ropeInvFreq(p.dModel, p.base));
        r.peWavelength.assign(lambda.data(), lambda.data() + lambda.size());
    }

    // The chapter's cell at these sizes: it adds its sinusoidal table, or nothing.
    MhaCellParams cp;
    cp.dModel = p.dModel;
    cp.heads = p.heads;
    cp.seqLen = r.n;
    cp.seed = p.seed;
    cp.positional = p.positional == PositionalScheme::Sinusoidal;
    if (p.positional == PositionalScheme::Rope) {
        r.cellNote = "the cell adds the sinusoidal table or nothing; choose positional = sinusoidal or none";
    } else if (std::string err = checkMhaCellParams(cp); !err.empty()) {
        r.cellNote = "the cell runs at an even d_model up to 256 and n up to 256";
    } else {
        r.cell = std::make_shared<const MhaCell>(mhaCell(cp));
        r.cellRun = true;
    }
    return r;
}

void writeJson(JsonWriter &json, const AttentionLabResult &r)
{
    json.beginObject().key("weights").beginArray();  // weights[head][query][key]
    if (r.weights)
        for (const Eigen::MatrixXd &w : *r.weights) json.value(w);
    json.endArray()
        .field("entropy", r.entropy)
        .field("tokens", r.tokens)
        .field("mean_entropy", r.meanEntropy)
        .field("uniform_entropy", r.uniformEntropy)
        .field("causal_uniform_entropy", r.causalUniformEntropy)
        .field("mean_over_uniform", r.meanOverUniform)
        .field("toeplitz_max_deviation", r.toeplitz.maxAbs)
        .field("toeplitz_relative_deviation", r.toeplitz.relative())
        .field("toeplitz", r.toeplitzHolds);
    if (r.pe) json.field("pe", *r.pe).field("pe_wavelength", r.peWavelength);
    if (r.cell)
        json.key("cell").beginObject()
            .field("pe_min", r.cell->peMin)
            .field("pe_max", r.cell->peMax)
            .field("output_norm", r.cell->outputNorm)
            .field("head_entropy", r.cell->headEntropy)
            .endObject();
    json.endObject();
}

} // namespace fb
