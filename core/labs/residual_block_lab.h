#pragma once
// Command-line lab: the residual block cell of section 218.1 of 000_031aadcae6604a46.txt
// (core/cells/residual_block_cell.h), `fullband compute residual-block`. The chapter prints
//   Input shape: torch.Size([2, 16, 8, 8]), Output shape: torch.Size([2, 16, 8, 8])
//   Input gradient norm: 37.9606
// and the lab prints those lines with every figure behind them: the input gradient split into the
// identity path and the branch, per channel, with and without the shortcut, and per block. The depth
// lab's window shows the same cell (its "block" study).
#include "core/cells/residual_block_cell.h"
#include "core/lab/lab.h"

#include <string>
#include <vector>

namespace fb {

struct ResidualBlockLabResult {
    ResidualBlockParams params;
    ResidualBlockCell cell;
    std::vector<std::string> printed;  // the cell's two lines, formatted as the chapter prints them
};

class ResidualBlockLab {
public:
    using Result = ResidualBlockLabResult;
    // channels, batch, height, width, seed, blocks, branch_gain
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);
    static ResidualBlockParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

// "torch.Size([2, 16, 8, 8])"
std::string torchSizeText(const std::vector<int> &shape);
// The chapter's two lines for a computed cell.
std::vector<std::string> residualBlockPrintedLines(const ResidualBlockCell &cell);

void writeJson(JsonWriter &json, const ResidualBlockLabResult &r);

} // namespace fb
