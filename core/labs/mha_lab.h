#pragma once
// Command-line lab: the multi-head attention cell of section 218.4.5 of 000_031aadcae6604a46.txt
// (core/cells/mha_cell.h), `fullband compute mha`: 4-head self-attention of x = torch.randn(3, 12, 64)
// plus the sinusoidal table, under torch.manual_seed(7). The chapter prints
//   Input: torch.Size([3, 12, 64]), Output: torch.Size([3, 12, 64])
//   Positional encoding range: [-1.000, 1.000]
//   Output norm: 1.7207
// The attention lab's window shows the same cell beside its own heads.
#include "core/cells/mha_cell.h"
#include "core/lab/lab.h"

#include <string>
#include <vector>

namespace fb {

struct MhaLabResult {
    MhaCellParams params;
    MhaCell cell;
    std::vector<std::string> printed;  // the cell's three lines, formatted as the chapter prints them
};

class MhaLab {
public:
    using Result = MhaLabResult;
    // d_model, heads, seq_len, batch, seed, positional
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);  // heads divide d_model too
    static MhaCellParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

// The chapter's three lines for a computed cell.
std::vector<std::string> mhaPrintedLines(const MhaCell &cell);

void writeJson(JsonWriter &json, const MhaLabResult &r);

} // namespace fb
