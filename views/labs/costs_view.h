#pragma once
// Lab: what a transformer costs (encyclopedia page, "Scaling relationships", "Memory: the KV
// cache", "Bandwidth, not arithmetic, often sets the speed limit"): the KV cache under MHA, GQA and
// MQA, parameters 12·L·d², training compute 6ND, attention against dense compute per token with the
// crossover n = 6d, and the bandwidth ceiling of single-stream decoding. Presets load the page's
// GPT-3 and 70B-class configurations.
#include "core/labs/costs_lab.h"
#include "views/lab/lab_view_for.h"

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineSeries;
class QScatterSeries;

namespace fb {

class ChartLabel;
class ChartPanel;
class FormulaPanel;

class ScrolledText;

class CostsView : public LabViewFor<CostsLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit CostsView(QWidget *parent = nullptr);

    // Loads costsPresets()[index]; returns an error message or empty.
    QString applyPreset(int index);
    QComboBox *presetBox() const { return presets_; }

    // Shown parts, for tests. Variants are ordered MHA, GQA, MQA.
    ChartPanel *barChart() const { return barChart_; }
    ChartPanel *kvChart() const { return kvChart_; }
    ChartPanel *flopsChart() const { return flopsChart_; }
    FormulaPanel *formulaPanel() const { return formulas_; }
    ScrolledText *formulaScroll() const { return formulaScroll_; }

    // On a slide the formulas' row gets more of the height: all of them fit at 1024 x 768.
    void setPresentationScale(double scale) override;
    QBarSet *bar(int variant) const { return bars_[variant]; }
    QLineSeries *kvSeries(int variant) const { return kvLines_[variant]; }
    QLineSeries *attentionSeries() const { return attention_; }
    QLineSeries *denseSeries() const { return dense_; }
    QScatterSeries *crossoverSeries() const { return crossover_; }
    // The bar chart's unit in bytes (1e9 for GB).
    double barUnit() const { return barUnit_; }

protected:
    void draw(const CostsLabResult &r) override;

private:
    void syncPresetBox();

    QComboBox *presets_ = nullptr;
    QLabel *presetNote_ = nullptr;
    ChartPanel *barChart_ = nullptr;
    ChartPanel *kvChart_ = nullptr;
    ChartPanel *flopsChart_ = nullptr;
    FormulaPanel *formulas_ = nullptr;
    ScrolledText *formulaScroll_ = nullptr;
    QGridLayout *grid_ = nullptr;
    QBarSeries *barSeries_ = nullptr;
    QBarCategoryAxis *barAxis_ = nullptr;
    QBarSet *bars_[3] = {};
    QLineSeries *kvLines_[3] = {};
    QScatterSeries *kvNow_ = nullptr;
    QLineSeries *kvContext_ = nullptr;
    QLineSeries *attention_ = nullptr;
    QLineSeries *dense_ = nullptr;
    QScatterSeries *crossover_ = nullptr;
    QLineSeries *flopsContext_ = nullptr;
    ChartLabel *crossoverLabel_ = nullptr;
    ChartLabel *kvContextLabel_ = nullptr;
    ChartLabel *flopsContextLabel_ = nullptr;
    double barUnit_ = 1e9;
};

} // namespace fb
