#include "core/labs/common_params.h"

namespace fb::params {

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

ParamSpec extensionFactor()
{
    return realParam("factor", "extension factor s", "", 1, kMaxFactor, 1,
                     "How many times the trained context to reach; 1 leaves RoPE unchanged.", true);
}

ParamSpec trainedLength()
{
    return integerParam("trained_length", "trained context L", "tokens", 16, 1048576, 4096,
                        "Context length the model was trained on (YaRN's ramp is measured against it).", true);
}

ParamSpec scalingChoice(const std::string &key, const std::string &label, const std::string &help)
{
    return choiceParam(key, label, { "none", "pi", "ntk", "yarn" }, "none", help);
}

ParamSpec seed(double def, std::string help)
{
    return integerParam("seed", "random seed", "", 0, kMaxSeed, def, std::move(help));
}

ScalingMethod scalingOf(const std::string &text)
{
    ScalingMethod m = ScalingMethod::None;
    parseScalingMethod(text, m);
    return m;
}

} // namespace fb::params
