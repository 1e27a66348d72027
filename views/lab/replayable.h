#pragma once
// A lab whose chart grows during a training run: it trains on its own workers, and once the run has
// ended it can redraw its chart as it looked at any step of it (the curves up to that step, the axes
// as the live view had them then). `fullband animate training` and File → Export animation… record
// a run this way: train once to the end, then one frame per step s_i = round(i * S / (N - 1)).
#include <QString>

namespace fb {

class Replayable {
public:
    virtual ~Replayable() = default;

    // Starts training the current values and returns at once (the run goes on on workers). Empty on
    // success, otherwise why the values cannot be trained.
    virtual QString startTraining() = 0;
    // Steps done and planned over all arms of the current run, for a progress bar.
    virtual int trainingStepsDone() const = 0;
    virtual int trainingStepsTotal() const = 0;
    // True once every arm of the run has ended.
    virtual bool isTrained() const = 0;
    // The run's planned steps per arm (S): frames show steps 0 .. S. The current values' before a run.
    virtual int replaySteps() const = 0;
    // The chart as it looked at step (0 .. S) of the ended run; replaySteps() shows all of it again.
    virtual void showStep(int step) = 0;
    // True when showStep draws what the lab pulled while the run went on (the transformer's replay
    // keeps the frames it pulled): a recording then lets the lab's timer run until the run ends,
    // rather than waiting for the end, which would see the last frame only.
    virtual bool recordsLivePulls() const { return false; }
    // The exportable a recording draws unless told otherwise (its index in the lab's exportables).
    virtual int recordedChart() const { return 0; }
};

} // namespace fb
