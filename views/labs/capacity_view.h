#pragma once
// Lab: bits that cross one decoding-step boundary (Figure 218.2, left; section 218.6.1): the
// token-only channel log2(V) against the Gaussian capacity (d/2) log2(1 + SNR) of a d-wide latent
// carry, with the chapter's two tables printed live under the chart.
#include "core/labs/capacity_lab.h"
#include "views/lab/lab_view_for.h"

class QAreaSeries;
class QLineSeries;
class QScatterSeries;

namespace fb {

class ChartLabel;
class ChartPanel;
class SelectableText;

class CapacityView : public LabViewFor<CapacityLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit CapacityView(QWidget *parent = nullptr);

    // Series shown, for tests.
    ChartPanel *chartPanel() const { return chart_; }
    QLineSeries *latentSeries() const { return latent_; }      // chosen SNR
    QLineSeries *snrOneSeries() const { return snrOne_; }      // SNR 1
    QScatterSeries *latentMarkers() const { return latentMarks_; }
    QScatterSeries *snrOneMarkers() const { return snrOneMarks_; }
    QLineSeries *bandLower() const { return bandLow_; }
    QLineSeries *bandUpper() const { return bandHigh_; }
    QAreaSeries *band() const { return band_; }
    QScatterSeries *pointSeries() const { return point_; }     // (d, log2 V) and (d, latent bits)
    // The chapter's two tables as printed (plain text, one line per row).
    QString tablesText() const;
    // In-chart annotations: the band's label and the chosen point's ratio.
    QString bandLabel() const;
    QString gapLabel() const;

protected:
    void draw(const CapacityLabResult &r) override;
    // On a slide the tables are set 1.25x larger: their widest line still fits a 1024 px slide.
    void setPresentationScale(double scale) override;

private:
    ChartPanel *chart_ = nullptr;
    QLineSeries *latent_ = nullptr;
    QLineSeries *snrOne_ = nullptr;
    QScatterSeries *latentMarks_ = nullptr;
    QScatterSeries *snrOneMarks_ = nullptr;
    QLineSeries *bandLow_ = nullptr;
    QLineSeries *bandHigh_ = nullptr;
    QAreaSeries *band_ = nullptr;
    QScatterSeries *point_ = nullptr;
    QLineSeries *gap_ = nullptr;
    ChartLabel *bandLabel_ = nullptr;
    ChartLabel *gapLabel_ = nullptr;
    SelectableText *tables_ = nullptr;
};

} // namespace fb
