#include "app/animation/sweep_axes.h"

#include "app/registry/lab_registry.h"
#include "views/lab/lab_view.h"
#include "views/widgets/axis_hold.h"

namespace fb {

SweepAxes::SweepAxes(LabView &lab, const AnimationJob &job)
{
    if (job.recording || !job.fixedAxes) return;
    const LabSpec *spec = labSpec(lab.name());
    const ParamSpec *swept = spec ? spec->find(job.sweep.key) : nullptr;
    if (!swept) return;
    const ParamValues before = lab.values();
    AxisHold::record(&lab);
    holding_ = true;
    for (int i = 0; i < job.sweep.frames; ++i) {
        ParamValues values = before;
        values.numbers[job.sweep.key] = job.sweep.valueAt(*swept, i);
        if (!lab.setValues(values, false).isEmpty()) continue;  // the frame itself will say why
        lab.waitForResult();
    }
    AxisHold::hold();
}

SweepAxes::~SweepAxes()
{
    if (holding_) AxisHold::release();
}

} // namespace fb
