#pragma once
// Lab: what the wider channel costs (section 218.6.4 and Part C of the cell in 218.6.5). The six
// figures are shown as formulas with today's values substituted, and a chart sweeps the
// pretraining compute saved against the number of layers L or the latent-phase fraction phi.
#include "core/labs/accounting_lab.h"
#include "views/lab/lab_view_for.h"

class QLineSeries;
class QScatterSeries;

namespace fb {

class ChartPanel;
class FormulaPanel;

class AccountingView : public LabViewFor<AccountingLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit AccountingView(QWidget *parent = nullptr);

    // Shown parts, for tests.
    ChartPanel *chartPanel() const { return chart_; }
    FormulaPanel *formulaPanel() const { return formulas_; }
    QLineSeries *savingSeries() const { return saving_; }    // (L or phi, saving in %)
    QLineSeries *zeroSeries() const { return zero_; }
    QLineSeries *nominalSeries() const { return nominal_; }  // 1 - 1 / data ratio, no overhead
    QScatterSeries *pointSeries() const { return point_; }

protected:
    void draw(const AccountingLabResult &r) override;

private:
    ChartPanel *chart_ = nullptr;
    FormulaPanel *formulas_ = nullptr;
    QLineSeries *saving_ = nullptr;
    QLineSeries *zero_ = nullptr;
    QLineSeries *nominal_ = nullptr;
    QScatterSeries *point_ = nullptr;
    AccountingSweep sweep_ = AccountingSweep::Layers;  // the sweep the x axis is built for
};

} // namespace fb
