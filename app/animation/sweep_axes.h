#pragma once
// A sweep's frames on shared axes: for the life of a SweepAxes, the lab's charts keep the ranges
// the whole sweep needs. The constructor sets the lab to every frame's value once (each result
// drawn, its ranges remembered through AxisHold), then holds the union; the destructor lets the
// axes follow the data again. Nothing when recording a training (its run is one run) or when the
// job asks for axes that follow each frame.
#include "app/animation/animation.h"

namespace fb {

class LabView;

class SweepAxes {
public:
    SweepAxes(LabView &lab, const AnimationJob &job);
    ~SweepAxes();
    SweepAxes(const SweepAxes &) = delete;
    SweepAxes &operator=(const SweepAxes &) = delete;

private:
    bool holding_ = false;
};

} // namespace fb
