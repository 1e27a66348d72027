#include "core/labs/mha_lab.h"

#include "core/labs/common_params.h"
#include "core/labs/printed.h"
#include "core/labs/residual_block_lab.h"

namespace fb {

const LabSpec &MhaLab::spec()
{
    static const LabSpec spec { "mha", "Multi-head attention cell", {
        integerParam("d_model", "model width d_model", "", 2, 256, 64,
                     "Width of x and of the projections W_Q, W_K, W_V, W_O (the chapter: 64).", false, 2),
        integerParam("heads", "heads", "", 1, 64, 4, "Attention heads; must divide d_model (the chapter: 4)."),
        integerParam("seq_len", "sequence length n", "tokens", 1, 256, 12, "Positions per sequence (the chapter: 12)."),
        integerParam("batch", "batch B", "", 1, 8, 3, "Sequences in x = torch.randn(B, n, d_model) (the chapter: 3)."),
        params::seed(7, "torch.manual_seed(seed) before the projections and x are drawn (the chapter: 7)."),
        choiceParam("positional", "positional encoding", { "sinusoidal", "none" }, "sinusoidal",
                    "sinusoidal adds the chapter's table PE to x (as the cell does); none leaves x as drawn."),
    }, "218.4.5",
        "The chapter's multi-head attention cell: the sinusoidal table's range and the output norm.",
        "218.4.5 The full architecture" };
    return spec;
}

MhaCellParams MhaLab::params(const ParamValues &v)
{
    MhaCellParams p;
    p.dModel = int(v.integer("d_model"));
    p.heads = int(v.integer("heads"));
    p.seqLen = int(v.integer("seq_len"));
    p.batch = int(v.integer("batch"));
    p.seed = std::uint64_t(v.integer("seed"));
    p.positional = v.text("positional") == "sinusoidal";
    return p;
}

std::string MhaLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkMhaCellParams(params(values));
}

MhaLabResult MhaLab::compute(const ParamValues &values, const RunControl &)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    r.cell = mhaCell(r.params);
    r.printed = mhaPrintedLines(r.cell);
    return r;
}

std::vector<std::string> mhaPrintedLines(const MhaCell &cell)
{
    const std::vector<int> shape(cell.outputShape.begin(), cell.outputShape.end());  // x_pos has the same
    return { "Input: " + torchSizeText(shape) + ", Output: " + torchSizeText(shape),
             "Positional encoding range: [" + printedFixed(cell.peMin, 3) + ", " + printedFixed(cell.peMax, 3) + "]",
             "Output norm: " + printedFixed(cell.outputNorm, 4) };
}

void writeJson(JsonWriter &json, const MhaLabResult &r)
{
    const MhaCell &c = r.cell;
    const std::vector<int> shape(c.outputShape.begin(), c.outputShape.end());
    json.beginObject()
        .field("pe_min", c.peMin)
        .field("pe_max", c.peMax)
        .field("output_norm", c.outputNorm)
        .field("input_shape", shape)
        .field("output_shape", shape)
        .field("head_entropy", c.headEntropy)
        .field("position_norm", c.positionNorm);
    json.key("weights").beginArray();  // weights[head][query][key] of batch item 0
    for (const Eigen::MatrixXd &w : c.weights) json.value(w);
    json.endArray()
        .field("pe", c.pe)  // pe[position][dimension]
        .field("printed", r.printed)
        .endObject();
}

} // namespace fb
