#pragma once
// Command-line lab: gradients through time in an RNN and an LSTM (218.2 of 000_031aadcae6604a46.txt),
// the depth lab's second study on its own (the depth lab's keys but its study).
#include "core/lab/lab.h"

namespace fb {

class RnnGradientsLab {
public:
    static const LabSpec &spec();  // depthLabSpec()'s keys except study
    static std::string check(const ParamValues &values);
    static LabDefinition definition();  // prints the time study (core/depth/depth_json.h)
};

} // namespace fb
