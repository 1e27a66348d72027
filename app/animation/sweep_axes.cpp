#include "app/animation/sweep_axes.h"

#include "app/registry/lab_registry.h"
#include "views/lab/lab_view.h"
#include "views/widgets/axis_hold.h"

namespace fb {

SweepAxes::SweepAxes(LabView &lab, const AnimationJob &job)
    : lab_(lab)
    , job_(job)
{
    if (job.recording || !job.fixedAxes) return;
    const LabSpec *spec = labSpec(lab.name());
    swept_ = spec ? spec->find(job.sweep.key) : nullptr;
    if (!swept_) return;
    before_ = lab.values();
    AxisHold::record(&lab);
    holding_ = true;
}

bool SweepAxes::recordNext()
{
    if (!holding_ || next_ >= job_.sweep.frames) return false;
    ParamValues values = before_;
    values.numbers[job_.sweep.key] = job_.sweep.valueAt(*swept_, next_);
    if (lab_.setValues(values, false).isEmpty()) lab_.waitForResult();  // (else the frame itself will say why)
    if (++next_ < job_.sweep.frames) return true;
    AxisHold::hold();
    return false;
}

void SweepAxes::recordAll()
{
    while (recordNext()) {
    }
}

SweepAxes::~SweepAxes()
{
    if (holding_) AxisHold::release();
}

} // namespace fb
