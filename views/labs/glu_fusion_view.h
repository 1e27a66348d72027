#pragma once
// Lab: the gated fusion of section 218.6.2, x_{t+1} = (W_a u) ⊙ σ(W_b u), u = [e ; h]. The histogram
// of the gates with their mean and the fraction open, the sensitivity of x_{t+1} to h_t as the h
// columns of W_a and W_b are scaled from 0 (the standard decoder) to 1 (the chapter's fusion) with
// the current alpha marked, and the fusion's parameters and FLOPs against the stack's, all live. A
// drag of alpha recomputes no draws (core/labs/glu_fusion_lab.h).
#include "core/labs/glu_fusion_lab.h"
#include "views/lab/lab_view_for.h"

class QAreaSeries;
class QLineSeries;
class QScatterSeries;

namespace fb {

class ChartLabel;
class ChartPanel;
class SelectableText;

class GluFusionView : public LabViewFor<GluFusionLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit GluFusionView(QWidget *parent = nullptr);

    // For tests.
    ChartPanel *histogramChart() const { return histogramChart_; }
    ChartPanel *sensitivityChart() const { return sensitivityChart_; }
    QLineSeries *histogramSeries() const { return histogram_; }      // the bins' outline
    QLineSeries *meanGateLine() const { return meanLine_; }
    QLineSeries *sensitivitySeries() const { return sensitivity_; }  // over alpha
    QScatterSeries *currentAlphaMarker() const { return current_; }
    QScatterSeries *standardDecoderMarker() const { return standard_; }
    QString alphaLabel() const;
    // The overhead table under the charts, as plain text.
    QString overheadText() const;

protected:
    void draw(const GluFusionLabResult &r) override;

private:
    ChartPanel *histogramChart_ = nullptr;
    QAreaSeries *histogramArea_ = nullptr;
    QLineSeries *histogram_ = nullptr;
    QLineSeries *histogramBase_ = nullptr;
    QLineSeries *halfLine_ = nullptr;
    QLineSeries *meanLine_ = nullptr;

    ChartPanel *sensitivityChart_ = nullptr;
    QLineSeries *sensitivity_ = nullptr;
    QLineSeries *alphaLine_ = nullptr;
    QScatterSeries *current_ = nullptr;
    QScatterSeries *standard_ = nullptr;
    ChartLabel *alphaLabel_ = nullptr;
    ChartLabel *standardLabel_ = nullptr;

    SelectableText *overhead_ = nullptr;
};

} // namespace fb
