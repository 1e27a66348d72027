#pragma once
// Lab: depth and gradients, the road to transformers (sections 218.1 and 218.2). Four studies:
//   1. the gradient norm through a plain and a residual stack of the same random layers, with the
//      chapter's "dL/dx = dL/dH (1 + dF/dx)" shown with measured numbers; and the chapter's residual
//      block cell (218.1): its input gradient per channel, split into the identity path and the
//      branch, with and without the shortcut, beside the printed norm 37.9606;
//   2. the gradient norm back through time in a vanilla RNN (spectral radius rho) and an LSTM
//      (forget-gate bias b_f);
//   3. the chapter's LSTM vs mean-pooling classifier, trained live on a worker thread.
// Studies 1 and 2 and the cell run on the lab's latest-wins worker (each recomputed only when one of
// its own parameters changed); study 3 on a ClassifierRunner. The "study" parameter picks the chart
// shown large, with two of the others small below it (the cell's chart only when it is in focus).
#include "core/labs/depth_gradients_lab.h"
#include "views/lab/lab_view_for.h"

class QGridLayout;
class QLineSeries;
class QWidget;

namespace fb {

class ChartPanel;
class ClassifierRunner;
struct ClassifierConfig;

class DepthGradientsView : public LabViewFor<DepthGradientsLab> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit DepthGradientsView(QWidget *parent = nullptr);
    ~DepthGradientsView() override;

    // Also waits for the classifier's training and draws it.
    void waitForResult() override;

    // For tests.
    ChartPanel *depthChart() const { return depthChart_; }
    ChartPanel *timeChart() const { return timeChart_; }
    ChartPanel *classifierChart() const { return classifierChart_; }
    ChartPanel *blockChart() const { return blockChart_; }
    QLineSeries *plainSeries() const { return plain_; }
    QLineSeries *residualSeries() const { return residual_; }
    QLineSeries *rnnSeries() const { return rnn_; }
    QLineSeries *lstmCellSeries() const { return lstmCell_; }
    QLineSeries *lstmHeldoutSeries() const { return lstmHeldout_; }
    QLineSeries *meanHeldoutSeries() const { return meanHeldout_; }
    // The residual block cell, per channel: with the shortcut, its identity and branch parts, without it.
    QLineSeries *blockTotalSeries() const { return blockTotal_; }
    QLineSeries *blockIdentitySeries() const { return blockIdentity_; }
    QLineSeries *blockBranchSeries() const { return blockBranch_; }
    QLineSeries *blockPlainSeries() const { return blockPlain_; }
    ClassifierRunner *classifierRunner() const { return classifier_; }
    // The chart shown large (the "study" parameter): 0 depth, 1 time, 2 classifier, 3 block.
    int focusedChart() const { return focus_; }

protected:
    void draw(const DepthGradientsLabResult &f) override;
    // The classifier trains with the lab's computation: held while the lab is hidden.
    void computationStarted() override;

private:
    void buildCharts();
    void arrangeCharts(int focus);
    void onValuesChanged();
    void showClassifier();
    void showClassifierProgress();
    // Long, descriptive titles and legend names for the chart shown large, short ones for the others.
    void updateNames();

    ChartPanel *depthChart_ = nullptr;
    ChartPanel *timeChart_ = nullptr;
    ChartPanel *classifierChart_ = nullptr;
    ChartPanel *blockChart_ = nullptr;
    QGridLayout *grid_ = nullptr;
    int focus_ = -1;

    QLineSeries *plain_ = nullptr;
    QLineSeries *residual_ = nullptr;
    QLineSeries *depthUnit_ = nullptr;
    QLineSeries *rnn_ = nullptr;
    QLineSeries *lstmCell_ = nullptr;
    QLineSeries *lstmHidden_ = nullptr;
    QLineSeries *lstmCarousel_ = nullptr;
    QLineSeries *lstmTrain_ = nullptr;
    QLineSeries *lstmHeldout_ = nullptr;
    QLineSeries *meanTrain_ = nullptr;
    QLineSeries *meanHeldout_ = nullptr;
    QLineSeries *chance_ = nullptr;
    QLineSeries *blockTotal_ = nullptr;
    QLineSeries *blockIdentity_ = nullptr;
    QLineSeries *blockBranch_ = nullptr;
    QLineSeries *blockPlain_ = nullptr;

    // Parameters of the curves on show, for titles and legend names.
    QString depthParams_, timeParams_, blockParams_;
    double radius_ = 0.0, forgetBias_ = 0.0;

    ClassifierRunner *classifier_ = nullptr;
    std::unique_ptr<ClassifierConfig> trainedConfig_;  // what the classifier runner was last asked for
};

} // namespace fb
