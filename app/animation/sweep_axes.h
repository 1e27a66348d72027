#pragma once
// A sweep's frames on shared axes: for the life of a SweepAxes, the lab's charts keep the ranges
// the whole sweep needs. recordNext() sets the lab to one frame's value (its result drawn, its
// ranges remembered through AxisHold); after the last frame the union is held. The window calls it
// once per turn of the event loop, the command line in one go (recordAll). The destructor lets the
// axes follow the data again. Nothing to record when recording a training (its run is one run) or
// when the job asks for axes that follow each frame.
#include "app/animation/animation.h"

namespace fb {

class LabView;
struct ParamSpec;

class SweepAxes {
public:
    SweepAxes(LabView &lab, const AnimationJob &job);
    ~SweepAxes();
    SweepAxes(const SweepAxes &) = delete;
    SweepAxes &operator=(const SweepAxes &) = delete;

    // Records the next frame's ranges; false once every frame is recorded (and the axes held).
    bool recordNext();
    void recordAll();

private:
    LabView &lab_;
    AnimationJob job_;
    const ParamSpec *swept_ = nullptr;
    ParamValues before_;
    int next_ = 0;
    bool holding_ = false;
};

} // namespace fb
