#pragma once
// Command-line lab: RoPE's frequencies under a context-extension recipe (PI, NTK-aware, YaRN), the
// effective base and YaRN's attention factor (218.4.4 of 000_031aadcae6604a46.txt). The decay-bound
// lab draws the same recipes.
#include "core/rope/context_extension.h"
#include "core/lab/lab.h"

namespace fb {

struct ContextExtensionLabResult {
    int d = 64;
    double base = 10000;
    ContextExtension extension;
    ScaledFrequencies frequencies;  // inverse frequencies, effective base, attention factor
};

class ContextExtensionLab {
public:
    using Result = ContextExtensionLabResult;
    // d, base, method, factor, trained_length
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const ContextExtensionLabResult &r);

} // namespace fb
