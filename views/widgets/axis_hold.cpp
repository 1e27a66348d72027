#include "views/widgets/axis_hold.h"

#include "views/widgets/chart_panel.h"

#include <QAbstractAxis>
#include <QChart>

#include <algorithm>
#include <map>
#include <utility>

namespace fb {

namespace {
enum class Mode { Off, Record, Hold };
struct State {
    Mode mode = Mode::Off;
    // Watched axes -> the union of the ranges asked (min > max: none asked yet).
    std::map<const QAbstractAxis *, std::pair<double, double>> ranges;
};
State &state()
{
    static State s;
    return s;
}
} // namespace

void AxisHold::record(const QWidget *root)
{
    State &s = state();
    s.ranges.clear();
    s.mode = Mode::Record;
    if (!root) return;
    for (const ChartPanel *panel : root->findChildren<const ChartPanel *>())
        for (const QAbstractAxis *axis : panel->chart()->axes()) s.ranges[axis] = { 1.0, -1.0 };
}

void AxisHold::hold()
{
    state().mode = Mode::Hold;
}

void AxisHold::release()
{
    state() = State {};
}

bool AxisHold::adjust(const QAbstractAxis *axis, double &lo, double &hi)
{
    State &s = state();
    if (s.mode == Mode::Off) return false;
    const auto it = s.ranges.find(axis);
    if (it == s.ranges.end()) return false;
    auto &[min, max] = it->second;
    if (s.mode == Mode::Record) {
        if (min > max) {
            min = lo;
            max = hi;
        } else {
            min = std::min(min, lo);
            max = std::max(max, hi);
        }
    } else if (min <= max) {
        lo = min;
        hi = max;
    }
    return true;
}

} // namespace fb
