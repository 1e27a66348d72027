#include "views/labs/depth_gradients_view.h"

#include "core/labs/depth_gradients_spec.h"
#include "core/run/time_left.h"
#include "views/widgets/chart_panel.h"
#include "views/labs/classifier_runner.h"
#include "views/widgets/palette.h"
#include "views/lab/param_panel.h"
#include "views/widgets/readout_panel.h"

#include <QGridLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

// ", about 30 s left" once the pace of the running arm says so (core/run/time_left.h), else nothing.
QString timeLeft(double seconds, int step, int steps)
{
    const std::string left = timeLeftText(seconds, step, steps);
    return left.empty() ? QString() : QStringLiteral(", ") + QString::fromStdString(left);
}

// A log axis over [lo, hi] with two to about seven labelled ticks. Over many decades the base grows
// (10, 100, 10^4 ...) so labels never pile up and the range is padded a little; over a few decades
// the range widens to whole decades so that at least two ticks carry labels.
void setLogRange(QAbstractAxis *axis, double lo, double hi)
{
    auto *log = qobject_cast<QLogValueAxis *>(axis);
    if (!log || !(hi > 0.0) || !std::isfinite(hi)) return;
    lo = std::clamp(lo, kSmallestDrawn, hi);
    const double decades = std::log10(hi / lo);
    const int step = std::max(1, int(std::ceil(decades / 7.0)));
    log->setBase(std::pow(10.0, step));  // base 10 (one decade a step) gets the 2 ... 9 grid (MinorGrid)
    if (decades < 3.0) {
        // Whole decades, nudged outward so that Qt does not drop the ticks at the ends.
        const double a = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
        const double b = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
        log->setRange(a * (1.0 - 1e-9), (b > a ? b : a * 10.0) * (1.0 + 1e-9));
        return;
    }
    const double pad = std::pow(10.0, 0.04 * decades);
    log->setRange(std::max(lo / pad, kSmallestDrawn), hi * pad);
}

void extendRange(const QList<QPointF> &pts, double &lo, double &hi)
{
    for (const QPointF &p : pts) {
        lo = std::min(lo, p.y());
        hi = std::max(hi, p.y());
    }
}

// Ratios of gradient norms; an exact 0 is an underflow below double's range.
QString sci(double v)
{
    if (v == 0.0) return QStringLiteral("< 1e-300");
    if (std::fabs(v) >= 1e-2 && std::fabs(v) < 1e4) return QString::number(v, 'g', 3);
    return QString::number(v, 'e', 1);
}

QList<QPointF> curvePoints(const std::vector<double> &curve)
{
    QList<QPointF> pts;
    pts.reserve(qsizetype(curve.size()));
    for (std::size_t i = 0; i < curve.size(); ++i) pts.append(QPointF(double(i + 1), curve[i]));
    return pts;
}

QList<QPointF> pairPoints(const std::vector<std::pair<int, double>> &curve)
{
    QList<QPointF> pts;
    for (const auto &[step, value] : curve) pts.append(QPointF(step, value));
    return pts;
}

ClassifierConfig classifierConfig(const ParamValues &v)
{
    DepthLabConfig c;
    depthLabFrom(v, c);  // values in the panel are always valid
    return c.classifier;
}

bool sameTraining(const ClassifierConfig &a, const ClassifierConfig &b)
{
    return a.vocab == b.vocab && a.seqLen == b.seqLen && a.embed == b.embed && a.hidden == b.hidden
        && a.batch == b.batch && a.steps == b.steps && a.lr == b.lr && a.seed == b.seed && a.heldout == b.heldout;
}

} // namespace

DepthGradientsView::DepthGradientsView(QWidget *parent)
    : LabViewFor(parent)
    , classifier_(new ClassifierRunner(this))
{
    setExplanation(explanationText());
    buildCharts();
    connect(classifier_, &ClassifierRunner::resultsReady, this, &DepthGradientsView::showClassifier);
    connect(classifier_, &ClassifierRunner::progressed, this, &DepthGradientsView::showClassifierProgress);
    connect(classifier_, &ClassifierRunner::failed, this, [this](const QString &error) {
        readouts()->setRow(QStringLiteral("training"), tr("Classifier"), tr("failed: %1").arg(error));
    });
    connect(panel(), &ParamPanel::valuesChanged, this, &DepthGradientsView::onValuesChanged);
    onValuesChanged();
    // Its LSTM trains on every change (0.19 s of a core at the chapter's sizes, on this lab's
    // worker, behind whichever lab a new window shows).
    setComputeOnlyWhenShown(true);
    beginComputing();
}

DepthGradientsView::~DepthGradientsView()
{
    // A chart the focus layout holds is deleted with its parent; one out of every layout has none.
    for (ChartPanel *c : { depthChart_, timeChart_, classifierChart_, blockChart_ })
        if (c && !c->parent()) delete c;
}

void DepthGradientsView::buildCharts()
{
    depthChart_ = new ChartPanel(QString());
    depthChart_->setValueAxis(Qt::Horizontal, tr("layer l (0 = input, L = output)"));
    depthChart_->setLogAxis(Qt::Vertical, tr("‖∂L/∂x_l‖ ÷ ‖∂L/∂x_L‖ (log)"));
    plain_ = depthChart_->addLine(QString(), seriesColor(1));
    residual_ = depthChart_->addLine(QString(), seriesColor(0));
    depthUnit_ = depthChart_->addLine(QString(), QColor(120, 120, 120), 1.5, Qt::DotLine);

    timeChart_ = new ChartPanel(QString());
    timeChart_->setValueAxis(Qt::Horizontal, tr("time step k (loss at T)"));
    timeChart_->setLogAxis(Qt::Vertical, tr("gradient norm ÷ its value at k = T"));
    timeChart_->setShortAxisTitle(timeChart_->axisY(), tr("÷ value at k = T"));
    rnn_ = timeChart_->addLine(QString(), seriesColor(1));
    lstmCell_ = timeChart_->addLine(QString(), seriesColor(0));
    lstmHidden_ = timeChart_->addLine(QString(), seriesColor(5), 2.0, Qt::DashLine);
    lstmCarousel_ = timeChart_->addLine(QString(), seriesColor(2), 2.5, Qt::DotLine);

    classifierChart_ = new ChartPanel(QString());
    classifierChart_->setValueAxis(Qt::Horizontal, tr("Adam step"));
    classifierChart_->setValueAxis(Qt::Vertical, tr("accuracy"));
    lstmHeldout_ = classifierChart_->addLine(QString(), seriesColor(0));
    lstmTrain_ = classifierChart_->addLine(QString(), seriesColor(0), 1.8, Qt::DashLine);
    meanHeldout_ = classifierChart_->addLine(QString(), seriesColor(1));
    meanTrain_ = classifierChart_->addLine(QString(), seriesColor(1), 1.8, Qt::DashLine);
    chance_ = classifierChart_->addLine(QString(), QColor(120, 120, 120), 1.5, Qt::DotLine);
    if (auto *y = qobject_cast<QValueAxis *>(classifierChart_->axisY())) {
        y->setRange(0.0, 1.0);
        y->setTickCount(6);
    }

    // The chapter's residual block cell (218.1): the input gradient per channel.
    blockChart_ = new ChartPanel(QString());
    blockChart_->setValueAxis(Qt::Horizontal, tr("channel c of x_req"));
    blockChart_->setValueAxis(Qt::Vertical, tr("‖∂L/∂x[:, c]‖, L = y.sum()"));
    blockTotal_ = blockChart_->addLine(QString(), seriesColor(0), 2.5);
    blockIdentity_ = blockChart_->addLine(QString(), seriesColor(2), 2.0, Qt::DashLine);
    blockBranch_ = blockChart_->addLine(QString(), seriesColor(5), 2.0, Qt::DotLine);
    blockPlain_ = blockChart_->addLine(QString(), seriesColor(1), 2.5);
    for (QLineSeries *s : { blockTotal_, blockIdentity_, blockBranch_, blockPlain_ }) s->setPointsVisible(true);
    if (auto *x = qobject_cast<QValueAxis *>(blockChart_->axisX())) x->setLabelFormat(QStringLiteral("%.0f"));

    // The figures in reading order: depth, time, classifier.
    const QString wait = QStringLiteral("…");
    readouts()->setRow(QStringLiteral("plainratio"), tr("Plain: ‖∂L/∂x₀‖ ÷ ‖∂L/∂x_L‖"), wait,
                       tr("How much of the output layer's gradient reaches the input"));
    readouts()->setRow(QStringLiteral("resratio"), tr("Residual: ‖∂L/∂x₀‖ ÷ ‖∂L/∂x_L‖"), wait);
    readouts()->setRow(QStringLiteral("resfactor"), tr("Residual block factor, measured vs √(1 + s²)"), wait,
                       tr("Geometric mean over the blocks of how much one block scales the gradient going back. "
                          "The chapter's ∂L/∂x = ∂L/∂H·(1 + ∂F/∂x): the identity contributes 1, ∂F/∂x a term of size s, "
                          "its RMS singular value, at right angles on average: √(1 + s²)"));
    readouts()->setRow(QStringLiteral("jac"), tr("s = ‖∂F/∂x‖ per residual block"), wait,
                       tr("RMS singular value of the block's Jacobian (geometric mean over blocks)"));
    readouts()->setRow(QStringLiteral("plainfactor"), tr("Plain block factor, measured vs s"), wait,
                       tr("Without the identity path a block scales the gradient by ‖∂F/∂x‖ alone"));
    readouts()->setRow(QStringLiteral("blocknorm"), tr("Residual block cell (218.1): input gradient norm"), wait,
                       tr("‖∂L/∂x_req‖ for L = y.sum() through the chapter's ResidualBlock(16) under "
                          "torch.manual_seed(seed), input 2 × 16 × 8 × 8. The chapter prints 37.9606 (seed 0, one block, γ = 1)."));
    readouts()->setRow(QStringLiteral("blockshape"), tr("… input shape → output shape"), wait);
    readouts()->setRow(QStringLiteral("blocksplit"), tr("… through the identity + through the branch"), wait,
                       tr("∂L/∂x = ∂L/∂S + (∂F/∂x)ᵀ ∂L/∂S with S = F(x) + x before the last ReLU: the chapter's "
                          "(1 + ∂F/∂x). The norms of the two parts and the cosine between them."));
    readouts()->setRow(QStringLiteral("blockplain"), tr("… without the shortcut (same weights, same input)"), wait);
    readouts()->setRow(QStringLiteral("blockdepth"), tr("… at each block's input, with / without shortcuts"), wait,
                       tr("‖∂L/∂x_k‖ at the input of block k, k = 0 first; the last is ‖∂L/∂y‖"));
    readouts()->setRow(QStringLiteral("rnnrate"), tr("RNN log-rate per step back, fit vs log ρ + log rms tanh′"), wait,
                       tr("Slope of log‖∂L/∂h_k‖ per step, fitted over all steps. Each step multiplies the gradient by "
                          "diag(tanh′)·W_hᵀ, and every singular value of W_h is ρ"));
    readouts()->setRow(QStringLiteral("rnnderiv"), tr("E[tanh′] and log(ρ·E[tanh′])"), wait);
    readouts()->setRow(QStringLiteral("lstmcell"), tr("LSTM ‖∂L/∂c₀‖ ÷ ‖∂L/∂c_T‖"), wait);
    readouts()->setRow(QStringLiteral("carousel"), tr("… through the forget gates alone"), wait,
                       tr("‖∂L/∂c_T ⊙ f_T ⋯ f_1‖ ÷ ‖∂L/∂c_T‖: the direct path cₜ₋₁ → cₜ, without the detour "
                          "through h and the gates"));
    readouts()->setRow(QStringLiteral("forget"), tr("Mean forget gate f"), wait);
    readouts()->setRow(QStringLiteral("lstmacc"), tr("LSTM accuracy, training / held-out"), wait);
    readouts()->setRow(QStringLiteral("meanacc"), tr("Mean pooling, training / held-out"), wait);
    readouts()->setRow(QStringLiteral("chance"), tr("Held-out, always the larger class"), wait);
    readouts()->setRow(QStringLiteral("training"), tr("Classifier training"), wait);

    // Legend markers drawn as short pieces of each line, so dashed and dotted series read as such.
    for (ChartPanel *c : { depthChart_, timeChart_, classifierChart_, blockChart_ })
        c->chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);

    auto *area = new QWidget;
    grid_ = new QGridLayout(area);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(6);
    chartArea()->addWidget(area, 1);
    // Export order: the three studies as before, the cell fourth.
    for (ChartPanel *c : { depthChart_, timeChart_, classifierChart_, blockChart_ }) registerExportable(c);
}

void DepthGradientsView::arrangeCharts(int focus)
{
    if (focus == focus_) return;
    focus_ = focus;
    ChartPanel *charts[4] = { depthChart_, timeChart_, classifierChart_, blockChart_ };
    for (ChartPanel *c : charts) grid_->removeWidget(c);
    grid_->addWidget(charts[focus], 0, 0, 1, 2);
    // Two small charts below, wide enough for their legends: the other two of depth, time and
    // classifier; with the cell in focus, depth and time. The cell is shown only in focus (its
    // export works hidden: charts render their scene).
    int col = 0;
    for (int i : { 0, 1, 2 }) {
        const bool small = i != focus && col < 2;
        charts[i]->setVisible(i == focus || small);
        if (small) grid_->addWidget(charts[i], 1, col++);
    }
    blockChart_->setVisible(focus == 3);
    grid_->setRowStretch(0, 1);
    grid_->setRowStretch(1, 1);
    grid_->setColumnStretch(0, 1);
    grid_->setColumnStretch(1, 1);
    updateNames();
}

namespace {

// Titles and names are set on every result: only a real change may lay the chart out again (and
// repaint it).
void setTitle(ChartPanel *chart, const QString &title)
{
    chart->setTitle(title);
}

void setName(QAbstractSeries *series, const QString &name)
{
    if (series->name() != name) series->setName(name);
}

} // namespace

void DepthGradientsView::updateNames()
{
    const bool big0 = focus_ == 0, big1 = focus_ == 1, big2 = focus_ == 2, big3 = focus_ == 3;
    setTitle(depthChart_, big0 ? tr("Gradient through depth, plain vs residual: %1").arg(depthParams_)
                               : tr("Through depth: plain vs residual"));
    setName(plain_, big0 ? tr("plain: xₗ₊₁ = φ(W xₗ + b)") : tr("plain"));
    setName(residual_, big0 ? tr("residual: xₗ₊₁ = xₗ + φ(W xₗ + b)") : tr("residual"));
    setName(depthUnit_, big0 ? tr("output layer (= 1)") : tr("= 1"));
    setTitle(timeChart_, big1 ? tr("Gradient through time, vanilla RNN vs LSTM: %1").arg(timeParams_)
                              : tr("Through time: RNN vs LSTM"));
    setName(rnn_, big1 ? tr("RNN ‖∂L/∂h_k‖, ρ = %1").arg(radius_) : tr("RNN h"));
    setName(lstmCell_, big1 ? tr("LSTM ‖∂L/∂c_k‖, b_f = %1").arg(forgetBias_) : tr("LSTM c"));
    setName(lstmHidden_, big1 ? tr("LSTM ‖∂L/∂h_k‖") : tr("LSTM h"));
    setName(lstmCarousel_, big1 ? tr("forget gates alone ‖∂L/∂c_T ⊙ f_T⋯f_(k+1)‖") : tr("∏ f"));
    setTitle(classifierChart_, big2 ? tr("LSTM vs mean pooling: the chapter's cell, each arm with its own embedding")
                                    : tr("LSTM vs mean pooling"));
    setName(lstmHeldout_, big2 ? tr("LSTM, held-out") : tr("LSTM"));
    setName(lstmTrain_, big2 ? tr("LSTM, training set") : tr("LSTM train"));
    setName(meanHeldout_, big2 ? tr("mean pooling, held-out") : tr("mean"));
    setName(meanTrain_, big2 ? tr("mean pooling, training set") : tr("mean train"));
    setName(chance_, big2 ? tr("always the larger class") : tr("chance"));
    setTitle(blockChart_, big3 ? tr("The chapter's residual block (218.1): input gradient per channel, %1").arg(blockParams_)
                               : tr("Residual block cell, per channel"));
    setName(blockTotal_, big3 ? tr("with the shortcut: ∂L/∂x") : tr("∂L/∂x"));
    setName(blockIdentity_, big3 ? tr("its identity part ∂L/∂S (the 1)") : tr("identity"));
    setName(blockBranch_, big3 ? tr("its branch part (∂F/∂x)ᵀ∂L/∂S") : tr("branch"));
    setName(blockPlain_, big3 ? tr("without the shortcut") : tr("no shortcut"));
}

void DepthGradientsView::onValuesChanged()
{
    const std::string &study = values().text("study");
    arrangeCharts(study == "time" ? 1 : study == "classifier" ? 2 : study == "block" ? 3 : 0);
}

void DepthGradientsView::computationStarted()
{
    const ClassifierConfig c = classifierConfig(values());
    if (trainedConfig_ && sameTraining(*trainedConfig_, c)) return;
    trainedConfig_ = std::make_unique<ClassifierConfig>(c);
    classifier_->start(c);
    showClassifierProgress();
}

void DepthGradientsView::waitForResult()
{
    LabView::waitForResult();
    classifier_->wait();
}

void DepthGradientsView::draw(const DepthGradientsLabResult &f)
{
    const DepthGradients &d = f.depthNumbers;
    const TimeGradients &t = f.timeNumbers;
    const DepthStackParams &stack = f.config.stack;
    const TimeGradientParams &time = f.config.time;
    auto points = [](const RelativeCurve &c) {
        QList<QPointF> pts;
        pts.reserve(qsizetype(c.index.size()));
        for (std::size_t i = 0; i < c.index.size(); ++i) pts.append(QPointF(c.index[i], c.ratio[i]));
        return pts;
    };

    // ---- study 1
    const QList<QPointF> plain = points(f.plain), residual = points(f.residual);
    depthChart_->replacePoints(plain_, plain);
    depthChart_->replacePoints(residual_, residual);
    depthChart_->replacePoints(depthUnit_, { QPointF(0, 1.0), QPointF(stack.depth, 1.0) });
    double lo = 1.0, hi = 1.0;
    extendRange(plain, lo, hi);
    extendRange(residual, lo, hi);
    ChartPanel::setRange(depthChart_->axisX(), 0.0, stack.depth, 0.0);
    setLogRange(depthChart_->axisY(), lo, hi);

    auto f4 = [](double v) { return QString::number(v, 'f', 4); };
    readouts()->setRow(QStringLiteral("plainratio"), QString(), sci(d.plainRatio));
    readouts()->setRow(QStringLiteral("resratio"), QString(), sci(d.residualRatio));
    readouts()->setRow(QStringLiteral("resfactor"), QString(),
                       QStringLiteral("%1 vs %2").arg(f4(d.residualFactorMeasured), f4(d.residualFactorPredicted)));
    readouts()->setRow(QStringLiteral("jac"), QString(), QString::number(d.residualJacobianRms, 'f', 3));
    readouts()->setRow(QStringLiteral("plainfactor"), QString(),
                       QStringLiteral("%1 vs %2").arg(f4(d.plainFactorMeasured), f4(d.plainFactorPredicted)));

    // ---- the residual block cell (218.1)
    const ResidualBlockCell &b = f.block.cell;
    auto channelPoints = [](const std::vector<double> &v) {
        QList<QPointF> pts;
        pts.reserve(qsizetype(v.size()));
        for (std::size_t c = 0; c < v.size(); ++c) pts.append(QPointF(double(c), v[c]));
        return pts;
    };
    double blockTop = 0.0;
    for (const std::vector<double> *v : { &b.channelGradNorm, &b.channelIdentityNorm, &b.channelBranchNorm, &b.channelPlainGradNorm })
        for (double x : *v) blockTop = std::max(blockTop, x);
    blockChart_->replacePoints(blockTotal_, channelPoints(b.channelGradNorm));
    blockChart_->replacePoints(blockIdentity_, channelPoints(b.channelIdentityNorm));
    blockChart_->replacePoints(blockBranch_, channelPoints(b.channelBranchNorm));
    blockChart_->replacePoints(blockPlain_, channelPoints(b.channelPlainGradNorm));
    const int channels = int(b.channelGradNorm.size());
    if (auto *x = qobject_cast<QValueAxis *>(blockChart_->axisX())) {
        // Channels 0 … C − 1 with whole-number ticks, half a channel of room at each end.
        const double step = channels <= 10 ? 1.0 : channels <= 20 ? 2.0 : 4.0;
        ChartPanel::setTickedRange(x, -0.5, channels - 0.5, step);
    }
    ChartPanel::setRange(blockChart_->axisY(), 0.0, blockTop > 0.0 ? blockTop * 1.08 : 1.0, 0.0);

    auto shape = [](const std::array<int, 4> &s) {
        return QStringLiteral("(%1, %2, %3, %4)").arg(s[0]).arg(s[1]).arg(s[2]).arg(s[3]);
    };
    readouts()->setRow(QStringLiteral("blocknorm"), QString(),
                       tr("%1   (the chapter prints 37.9606)").arg(f4(b.inputGradNorm)));
    readouts()->setRow(QStringLiteral("blockshape"), QString(),
                       QStringLiteral("%1 → %2").arg(shape(b.inputShape), shape(b.outputShape)));
    readouts()->setRow(QStringLiteral("blocksplit"), QString(),
                       tr("%1 + %2 (cosine %3)").arg(f4(b.identityGradNorm), f4(b.branchGradNorm))
                           .arg(b.identityBranchCosine, 0, 'f', 3));
    readouts()->setRow(QStringLiteral("blockplain"), QString(), f4(b.plainInputGradNorm));
    auto list = [](const std::vector<double> &v) {
        QStringList parts;
        for (double x : v) parts << QString::number(x, 'g', 4);
        return parts.join(QStringLiteral(", "));
    };
    readouts()->setRow(QStringLiteral("blockdepth"), QString(),
                       QStringLiteral("%1\n%2").arg(list(b.blockGradNorm), list(b.plainBlockGradNorm)));
    const ResidualBlockParams &bp = f.block.params;
    blockParams_ = tr("seed %1, %2 block%3, γ = %4")
                       .arg(bp.seed).arg(bp.blocks).arg(bp.blocks == 1 ? QString() : QStringLiteral("s"))
                       .arg(QString::fromStdString(formatNumber(bp.branchGain)));

    // ---- study 2
    const QList<QPointF> rnn = points(f.rnn), cell = points(f.lstmCell), hidden = points(f.lstmHidden),
                         carousel = points(f.lstmCarousel);
    timeChart_->replacePoints(rnn_, rnn);
    timeChart_->replacePoints(lstmCell_, cell);
    timeChart_->replacePoints(lstmHidden_, hidden);
    timeChart_->replacePoints(lstmCarousel_, carousel);
    lo = 1.0;
    hi = 1.0;
    for (const auto *pts : { &rnn, &cell, &hidden, &carousel }) extendRange(*pts, lo, hi);
    ChartPanel::setRange(timeChart_->axisX(), 0.0, time.seqLen, 0.0);
    setLogRange(timeChart_->axisY(), lo, hi);

    auto f3 = [](double v) { return QString::number(v, 'f', 3); };
    readouts()->setRow(QStringLiteral("rnnrate"), QString(), QStringLiteral("%1 vs %2").arg(f3(t.rnnRate), f3(t.rnnPredictedRate)));
    readouts()->setRow(QStringLiteral("rnnderiv"), QString(),
                       QStringLiteral("%1, %2").arg(f3(t.rnnMeanDeriv), f3(f.rnnLogFactor)));
    readouts()->setRow(QStringLiteral("lstmcell"), QString(), sci(t.lstmCellRatio));
    readouts()->setRow(QStringLiteral("carousel"), QString(), sci(t.lstmCarouselRatio));
    readouts()->setRow(QStringLiteral("forget"), QString(), f3(t.meanForget));

    depthParams_ = QStringLiteral("L = %1, %2%3, σ = %4, w = %5")
                       .arg(stack.depth)
                       .arg(QString::fromStdString(activationName(stack.activation)),
                            stack.norm ? QStringLiteral(" + norm") : QString(),
                            QString::fromStdString(formatNumber(stack.initScale)))
                       .arg(stack.width);
    timeParams_ = tr("T = %1, hidden %2").arg(time.seqLen).arg(time.hidden);
    radius_ = time.radius;
    forgetBias_ = time.forgetBias;
    updateNames();
}

void DepthGradientsView::showClassifierProgress()
{
    if (!classifier_->busy()) return;
    const QString arm = classifier_->progressArm() == 0 ? tr("LSTM") : tr("mean pooling");
    readouts()->setRow(QStringLiteral("training"), QString(),
                       classifier_->progressSteps() > 0
                           ? tr("%1 %2/%3").arg(arm).arg(classifier_->progressStep()).arg(classifier_->progressSteps())
                                 + timeLeft(classifier_->progressSeconds(), classifier_->progressStep(),
                                            classifier_->progressSteps())
                                 + QStringLiteral("…")
                           : tr("starting…"));
}

void DepthGradientsView::showClassifier()
{
    const auto &r = classifier_->results();
    if (r.size() != 2) return;
    const ClassifierResult &lstm = r[0], &mean = r[1];
    classifierChart_->replacePoints(lstmHeldout_, pairPoints(lstm.heldoutCurve));
    classifierChart_->replacePoints(lstmTrain_, curvePoints(lstm.accuracyCurve));
    classifierChart_->replacePoints(meanHeldout_, pairPoints(mean.heldoutCurve));
    classifierChart_->replacePoints(meanTrain_, curvePoints(mean.accuracyCurve));
    const double steps = double(std::max<std::size_t>(1, lstm.curve.size()));
    classifierChart_->replacePoints(chance_, { QPointF(0, lstm.heldoutMajority), QPointF(steps, lstm.heldoutMajority) });
    ChartPanel::setRange(classifierChart_->axisX(), 0.0, steps, 0.0);

    auto acc = [](const ClassifierResult &a) {
        return QStringLiteral("%1 / %2").arg(a.accuracy, 0, 'f', 2).arg(a.heldoutAccuracy, 0, 'f', 3);
    };
    readouts()->setRow(QStringLiteral("lstmacc"), QString(), acc(lstm),
                       tr("%1 parameters. The chapter prints the training-set accuracy; held-out is on %2 fresh sequences")
                           .arg(lstm.params).arg(512));
    readouts()->setRow(QStringLiteral("meanacc"), QString(), acc(mean), tr("%1 parameters").arg(mean.params));
    readouts()->setRow(QStringLiteral("chance"), QString(), QString::number(lstm.heldoutMajority, 'f', 3));
    readouts()->setRow(QStringLiteral("training"), QString(),
                       tr("%1, %2 s").arg(QString::fromStdString(classifierStatusName(lstm.status)))
                           .arg(lstm.seconds + mean.seconds, 0, 'f', 2),
                       tr("Final training loss: LSTM %1, mean pooling %2")
                           .arg(sci(lstm.curve.empty() ? 0.0 : lstm.curve.back()), sci(mean.curve.empty() ? 0.0 : mean.curve.back())));
}

QString DepthGradientsView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> Four studies of 218.1 and 218.2, all computed, one drawn large (<i>study in "
        "focus</i>). <i>depth</i>: the gradient ‖∂L/∂x<sub>l</sub>‖ at every layer of a plain stack and of a "
        "residual stack x<sub>l+1</sub> = x<sub>l</sub> + F(x<sub>l</sub>), relative to the output's. <i>block</i>: the "
        "chapter's residual block cell. <i>time</i>: the gradient through time of a vanilla RNN "
        "h<sub>t</sub> = tanh(W<sub>h</sub>h<sub>t−1</sub> + W<sub>x</sub>x<sub>t</sub> + b) against an LSTM. "
        "<i>classifier</i>: the chapter's LSTM against mean pooling, trained live.</p>"
        "<p><b>The formula.</b> ∂L/∂x = ∂L/∂H · (1 + ∂F/∂x): the additive 1 carries the gradient through the "
        "identity path even where ∂F/∂x vanishes.</p>"
        "<p><b>Try.</b> Depth L = 200 with tanh: the plain stack's gradient falls by orders of magnitude, the "
        "residual one does not. Without normalisation the residual gradient grows slowly, by about "
        "√(1 + ‖∂F/∂x‖²) per block: the identity path keeps it from vanishing, not constant. With RMS norm on, "
        "even the plain stack keeps its gradient, as He et al. (2016) observed for their normalised plain nets. "
        "In the time study, move the spectral radius ρ of W<sub>h</sub>: the RNN's gradient shrinks "
        "geometrically with the distance for ρ below 1.</p>"
        "<p><b>The residual block cell</b> (study = block): ∂L/∂x = ∂L/∂S + (∂F/∂x)ᵀ∂L/∂S, the chapter's "
        "(1 + ∂F/∂x) measured per channel. At branch gain γ = 0 the branch falls silent: the residual block "
        "still passes ∂L/∂S, the block without its shortcut passes exactly nothing.</p>"
        "<p><b>The chapter's classifier cell cannot run as printed.</b> It computes <tt>emb = embedding(X)</tt> "
        "once per step and backpropagates both losses through it: <tt>loss_lstm.backward()</tt> frees the graph "
        "behind <tt>emb</tt>, so <tt>loss_avg.backward()</tt> fails (&ldquo;Trying to backward through the graph "
        "a second time&rdquo;); and both optimisers update the one shared embedding. FullBand trains each arm on "
        "its own graph with its own embedding (both start from the same values). The label (mean token &gt; 10) "
        "is a linear function of the token counts, so mean pooling plus a linear layer fits it exactly. With the "
        "chapter's 8 training sequences both arms reach 100% on them and about chance on fresh ones; raise "
        "<i>training sequences</i> to see which arm generalises.</p>");
}

} // namespace fb
