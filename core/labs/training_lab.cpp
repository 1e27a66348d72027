#include "core/labs/training_lab.h"
#include "core/labs/training_spec.h"

namespace fb {

const LabSpec &TrainingLab::spec()
{
    return trainSpec();
}

std::string TrainingLab::check(const ParamValues &values)
{
    TrainConfig c;
    bool both = false;
    return trainFrom(values, c, both);
}

TrainingLabResult TrainingLab::compute(const ParamValues &values, const RunControl &)
{
    TrainConfig config;
    bool both = false;
    refuseUnless(trainFrom(values, config, both));
    TrainConfig token = config, latent = config;
    token.arm = Arm::TokenOnly;
    latent.arm = Arm::LatentFeedback;
    return { parameterCount(token), parameterCount(latent) };
}

LabDefinition TrainingLab::definition()
{
    LabDefinition d;
    d.spec = &TrainingLab::spec;
    d.check = &TrainingLab::check;
    return d;  // no computeJson: `fullband train`
}

} // namespace fb
