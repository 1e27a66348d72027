#pragma once
// Lab: latent-feedback training (218.6.5 and Figure 218.2, right, of 000_031aadcae6604a46.txt). The
// trainings themselves run on their own threads (core/training/training_run.h, `fullband train`);
// what a parameter change computes is the preview: both arms' sizes.
#include "core/lab/lab.h"
#include "core/training/trainer.h"

namespace fb {

struct TrainingLabResult {
    long long tokenParams = 0;   // 5,700 at the chapter's sizes
    long long latentParams = 0;  // 8,356
};

class TrainingLab {
public:
    using Result = TrainingLabResult;
    static const LabSpec &spec();  // trainSpec()
    static std::string check(const ParamValues &values);
    Result compute(const ParamValues &values, const RunControl &stop);
    // The command line trains with `fullband train`; `fullband compute` has nothing to print.
    static LabDefinition definition();
};

} // namespace fb
