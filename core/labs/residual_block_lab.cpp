#include "core/labs/residual_block_lab.h"

#include "core/labs/common_params.h"
#include "core/labs/printed.h"

namespace fb {

namespace {

std::vector<int> shapeOf(const std::array<int, 4> &s)
{
    return std::vector<int>(s.begin(), s.end());
}

} // namespace

const LabSpec &ResidualBlockLab::spec()
{
    static const LabSpec spec { "residual-block", "Residual block", {
        integerParam("channels", "channels C", "", 1, 32, 16, "Channels of both 3×3 convolutions (the chapter: 16)."),
        integerParam("batch", "batch N", "", 1, 8, 2, "Images in the input x_req = torch.randn(N, C, H, W) (the chapter: 2)."),
        integerParam("height", "height H", "pixels", 1, 16, 8, "Height of each input image (the chapter: 8)."),
        integerParam("width", "width W", "pixels", 1, 16, 8, "Width of each input image (the chapter: 8)."),
        params::seed(0, "torch.manual_seed(seed) before the block and the inputs are drawn (the chapter: 0)."),
        integerParam("blocks", "residual blocks", "", 1, 8, 1,
                     "Blocks in a row, drawn in order (1: the chapter's cell); the gradient norm is printed at every depth."),
        realParam("branch_gain", "branch gain γ", "", 0, 2, 1,
                  "Weight of every block's second BatchNorm (1: PyTorch's init; 0: the branch is silent, F = 0)."),
    }, "218.1",
        "The chapter's residual block: the input gradient of y.sum(), through the identity and through the branch.",
        "218.1 The CNN era and residual connections" };
    return spec;
}

std::string ResidualBlockLab::check(const ParamValues &values)
{
    if (std::string err = checkAll(spec(), values); !err.empty()) return err;
    return checkResidualBlockParams(params(values));
}

ResidualBlockParams ResidualBlockLab::params(const ParamValues &v)
{
    ResidualBlockParams p;
    p.channels = int(v.integer("channels"));
    p.batch = int(v.integer("batch"));
    p.height = int(v.integer("height"));
    p.width = int(v.integer("width"));
    p.seed = std::uint64_t(v.integer("seed"));
    p.blocks = int(v.integer("blocks"));
    p.branchGain = v.number("branch_gain");
    return p;
}

ResidualBlockLabResult ResidualBlockLab::compute(const ParamValues &values, const RunControl &)
{
    refuseUnless(check(values));
    Result r;
    r.params = params(values);
    r.cell = residualBlockCell(r.params);
    r.printed = residualBlockPrintedLines(r.cell);
    return r;
}

std::string torchSizeText(const std::vector<int> &shape)
{
    std::string s = "torch.Size([";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "])";
}

std::vector<std::string> residualBlockPrintedLines(const ResidualBlockCell &cell)
{
    return { "Input shape: " + torchSizeText(shapeOf(cell.inputShape)) + ", Output shape: "
                 + torchSizeText(shapeOf(cell.outputShape)),
             "Input gradient norm: " + printedFixed(cell.inputGradNorm, 4) };
}

void writeJson(JsonWriter &json, const ResidualBlockLabResult &r)
{
    const ResidualBlockCell &c = r.cell;
    json.beginObject()
        .field("input_shape", shapeOf(c.inputShape))
        .field("output_shape", shapeOf(c.outputShape))
        .field("input_grad_norm", c.inputGradNorm)
        .field("plain_input_grad_norm", c.plainInputGradNorm)
        .field("identity_grad_norm", c.identityGradNorm)
        .field("branch_grad_norm", c.branchGradNorm)
        .field("identity_branch_cosine", c.identityBranchCosine)
        .field("channel_grad_norm", c.channelGradNorm)
        .field("channel_identity_norm", c.channelIdentityNorm)
        .field("channel_branch_norm", c.channelBranchNorm)
        .field("channel_plain_grad_norm", c.channelPlainGradNorm)
        .field("block_grad_norm", c.blockGradNorm)
        .field("plain_block_grad_norm", c.plainBlockGradNorm)
        .field("printed", r.printed)
        .endObject();
}

} // namespace fb
