#pragma once
// A parameter swept from one value to another, linearly or in log space (like the parameter's
// slider): the frames of `fullband animate --sweep` (app/animation/animation.h) and of a deck's animation
// slide (app/scene/scene_animation.h). Qt Core only: the scene loader and its fuzz target use it too.
#include "core/lab/param_spec.h"

#include <QString>

#include <string>

namespace fb {

struct Sweep {
    std::string key;
    double from = 0.0;
    double to = 1.0;
    bool log = false;
    int frames = 150;
    // The parameter's value in frame i (0-based), rounded to a valid integer for integer parameters.
    double valueAt(const ParamSpec &spec, int i) const;
};

// "KEY=FROM:TO[:log]" for lab: both ends checked against the parameter's range, log needs both
// ends positive. Returns an empty string on success, otherwise one line naming the key and range.
QString parseSweep(const LabSpec &lab, const QString &text, Sweep &out);

} // namespace fb
