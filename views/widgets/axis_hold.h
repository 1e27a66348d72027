#pragma once
// Chart axes held at fixed ranges, for an animation whose frames must share their axes (a decay
// bound rescaling from 1.5 to 400 over a sweep cannot be compared frame to frame). While recording,
// every range ChartPanel::setRange is asked for an axis of the watched widget's charts is
// remembered (the union over the calls); while holding, setRange sets that union whatever it is
// asked. Only the watched widget's axes, so the window's other charts go on following their data.
// GUI thread only; one hold at a time.
class QAbstractAxis;
class QWidget;

namespace fb {

class AxisHold {
public:
    // Starts remembering the ranges of the axes of every chart inside root (forgets earlier ones).
    static void record(const QWidget *root);
    // From now on the watched axes keep the union of what was asked while recording.
    static void hold();
    // Back to following the data; forgets everything.
    static void release();
    // Called by ChartPanel::setRange with the range asked (before padding): remembers it, or
    // replaces it by the held one. Returns true when the axis is watched.
    static bool adjust(const QAbstractAxis *axis, double &lo, double &hi);
};

} // namespace fb
