#pragma once
// Lab: cost against length (encyclopedia page, "Hybrid linear-attention models"; issue 30). A
// training step's time per token and the memory of one sequence at inference against T, for
// softmax attention and the three linear mixers, measured on this machine beside what the counts
// predict: the step's FLOPs scaled to the time measured at T = 64 (dashed), and the costs lab's KV
// cache formula 2 · L · T · d · 4 bytes against the linear mixers' fixed states.
#include "core/labs/length_cost_lab.h"
#include "views/lab/lab_view_for.h"

#include <array>

class QLineSeries;

namespace fb {

class ChartPanel;

class LengthCostView : public LabViewFor<LengthCostLab> {
    Q_OBJECT
public:
    // What the lab shows, the formulas it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit LengthCostView(QWidget *parent = nullptr);

    // Shown parts, for tests: mixers in Mixer's order (softmax, linear, deltanet, gated-deltanet).
    ChartPanel *timeChart() const { return timeChart_; }
    ChartPanel *memoryChart() const { return memoryChart_; }
    QLineSeries *measuredSeries(int mixer) const { return measured_[std::size_t(mixer)]; }
    QLineSeries *predictedSeries(int mixer) const { return predicted_[std::size_t(mixer)]; }
    QLineSeries *bytesSeries(int mixer) const { return bytes_[std::size_t(mixer)]; }

protected:
    void draw(const LengthCostLabResult &r) override;

private:
    ChartPanel *timeChart_ = nullptr;
    ChartPanel *memoryChart_ = nullptr;
    std::array<QLineSeries *, kLengthCostMixers> measured_ {};
    std::array<QLineSeries *, kLengthCostMixers> predicted_ {};
    std::array<QLineSeries *, kLengthCostMixers> bytes_ {};
};

} // namespace fb
