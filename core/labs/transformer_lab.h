#pragma once
// Lab: a tiny decoder-only transformer trained live (218.4 and 218.6 of 000_031aadcae6604a46.txt):
// induction heads forming, RoPE against sinusoidal positions, and the full-bandwidth transformer
// of 218.6 trained exactly or with k passes. The trainings run on their own thread
// (core/transformer/transformer_trainer.h, `fullband train --set model=transformer`); what a
// parameter change computes is the preview: the model's size, its FLOPs per step and its memory.
#include "core/lab/lab.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_report.h"

#include <optional>

namespace fb {

struct TransformerLabResult {
    long long params = 0;       // 101,632 at the defaults, 118,144 with feedback
    double flopsPerStep = 0.0;  // transformerFlopsPerStep
    double workspaceBytes = 0.0;
    // How long Start will train, said beside it: "about 25 min (...)" (transformerExpectedText;
    // the first time for a width it measures this machine's speed, on the lab's worker).
    std::string expected;
    int vocab = 0;
    TransformerTask task = TransformerTask::InductionFixed;
    // The untrained model on the probe sequence (attention maps, induction scores), what the lab
    // shows before Start; only for models small enough to build in a moment (workspace up to
    // kTransformerPreviewBytes).
    std::optional<TransformerSnapshot> initial;
};

inline constexpr double kTransformerPreviewBytes = 64e6;

class TransformerLab {
public:
    using Result = TransformerLabResult;
    static const LabSpec &spec();  // transformerSpec()
    static std::string check(const ParamValues &values);
    Result compute(const ParamValues &values, const RunControl &stop);
    // The command line trains with `fullband train --set model=transformer`.
    static LabDefinition definition();
};

} // namespace fb
