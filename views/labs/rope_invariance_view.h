#pragma once
// Lab: RoPE's offset invariance (Figure 218.1, left). One fixed content pair (q, k) slides along the
// sequence at a fixed offset: the RoPE logit stays exactly on its value at position 0, the
// additive-sinusoidal logit wanders.
#include "core/labs/rope_invariance_lab.h"
#include "views/lab/lab_view_for.h"

class QLineSeries;

namespace fb {

class ChartPanel;

class RopeInvarianceView : public LabViewFor<RopeInvarianceLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit RopeInvarianceView(QWidget *parent = nullptr);

    // Series shown, for tests.
    QLineSeries *ropeSeries() const { return rope_; }
    QLineSeries *sinusoidalSeries() const { return sinusoidal_; }
    QLineSeries *referenceSeries() const { return reference_; }
    ChartPanel *chart() const { return chart_; }

protected:
    void draw(const RopeInvarianceLabResult &result) override;

private:
    ChartPanel *chart_ = nullptr;
    QLineSeries *rope_ = nullptr;
    QLineSeries *sinusoidal_ = nullptr;
    QLineSeries *reference_ = nullptr;
};

} // namespace fb
