#include "views/labs/length_cost_view.h"

#include "core/transformer/mixer.h"

#include "views/widgets/chart_panel.h"
#include "views/widgets/number_text.h"
#include "views/widgets/palette.h"
#include "views/widgets/readout_panel.h"
#include "views/widgets/series_points.h"

#include <QChart>
#include <QVBoxLayout>
#include <QLineSeries>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>

namespace fb {

namespace {

QString nameOf(int mixer)
{
    return QString::fromStdString(mixerName(Mixer(mixer)));
}

std::vector<double> asDoubles(const std::vector<int> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

// The range of the positive, finite values of the lists, for a log axis.
void spanOf(std::initializer_list<const std::vector<double> *> lists, double &lo, double &hi)
{
    lo = HUGE_VAL;
    hi = 0.0;
    for (const auto *v : lists)
        for (double y : *v)
            if (y > 0.0 && std::isfinite(y)) {
                lo = std::min(lo, y);
                hi = std::max(hi, y);
            }
    if (hi <= 0.0) lo = hi = 1.0;
}

} // namespace

LengthCostView::LengthCostView(QWidget *parent)
    : LabViewFor(parent)
{
    setExplanation(explanationText());
    // Time on a linear axis from 0 (softmax's cost per token grows with T, the others' stays flat),
    // memory on a log axis (the KV cache passes a fixed state by orders of magnitude).
    timeChart_ = new ChartPanel(tr("A training step, per token"));
    timeChart_->setLogAxis(Qt::Horizontal, tr("sequence length T (dashed: the FLOP count's prediction)"), 2.0)->setLabelFormat(QStringLiteral("%.0f"));
    timeChart_->setValueAxis(Qt::Vertical, tr("µs per token"))->setLabelFormat(QStringLiteral("%g"));
    memoryChart_ = new ChartPanel(tr("One sequence's memory at inference"));
    memoryChart_->setLogAxis(Qt::Horizontal, tr("sequence length T"), 2.0)->setLabelFormat(QStringLiteral("%.0f"));
    memoryChart_->setLogAxis(Qt::Vertical, tr("kB (KV cache or state)"), 10.0)->setLabelFormat(QStringLiteral("%g"));
    // on a 1024 x 768 slide the whole titles do not fit beside the axes
    timeChart_->setShortAxisTitle(timeChart_->axisY(), tr("µs"));
    memoryChart_->setShortAxisTitle(memoryChart_->axisY(), tr("kB"));
    for (int k = 0; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        const QString name = nameOf(k);
        measured_[m] = timeChart_->addLine(name, seriesColor(k), 2.5);
        // the dashed lines: the axis title says what they are
        predicted_[m] = timeChart_->addLine(name + tr(" (FLOP count)"), seriesColor(k), 1.2, Qt::DashLine);
        hideFromLegend(timeChart_->chart(), predicted_[m]);
        bytes_[m] = memoryChart_->addLine(k == 0 ? tr("softmax: KV cache 2·L·T·d·4") : name, seriesColor(k), 2.5);
    }
    // One above the other: side by side, at 1024 x 768, neither chart had the width for its legend.
    auto *column = new QVBoxLayout;
    column->setSpacing(8);
    column->addWidget(timeChart_, 1);
    column->addWidget(memoryChart_, 1);
    chartArea()->addLayout(column, 1);
    registerExportable(timeChart_);
    registerExportable(memoryChart_);

    setComputeOnlyWhenShown(true);  // a measurement: while on screen, not behind the other labs at start
    beginComputing();
}

void LengthCostView::draw(const LengthCostLabResult &r)
{
    if (!r.complete || r.lengths.empty()) return;  // a stopped measurement: the next one follows
    const std::vector<double> T = asDoubles(r.lengths);
    double usLo = 1, usHi = 1, bytesLo = 1, bytesHi = 1;  // the time axis starts at 0, not at usLo
    spanOf({ &r.usPerToken[0], &r.usPerToken[1], &r.usPerToken[2], &r.usPerToken[3], &r.predictedUs[0],
             &r.predictedUs[1], &r.predictedUs[2], &r.predictedUs[3] }, usLo, usHi);
    spanOf({ &r.stateBytes[0], &r.stateBytes[1], &r.stateBytes[2], &r.stateBytes[3] }, bytesLo, bytesHi);
    for (int k = 0; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        timeChart_->replacePoints(measured_[m], xyPoints(T, r.usPerToken[m]));
        timeChart_->replacePoints(predicted_[m], xyPoints(T, r.predictedUs[m]));
        memoryChart_->replacePoints(bytes_[m], xyPoints(T, r.stateBytes[m], 1e-3));
    }
    for (ChartPanel *c : { timeChart_, memoryChart_ }) ChartPanel::setRange(c->axisX(), T.front(), T.back(), 0.03);
    ChartPanel::setRange(timeChart_->axisY(), 0.0, usHi * 1.05, 0.0);
    // Whole decades: a log axis labels its powers of 10 only, and 8 to 524 kB showed 10 and 100 with
    // nothing above the KV cache's end.
    const double kbLo = std::pow(10.0, std::floor(std::log10(std::max(bytesLo, bytesHi * 1e-6) * 1e-3)));
    const double kbHi = std::max(kbLo * 10.0, std::pow(10.0, std::ceil(std::log10(bytesHi * 1e-3))));
    ChartPanel::setRange(memoryChart_->axisY(), kbLo, kbHi, 0.0);

    const LengthCostParams &p = r.params;
    const std::size_t last = r.lengths.size() - 1;
    readouts()->setRow(QStringLiteral("model"), tr("Measured"),
                       tr("%1 layers, d %2, %3 heads; %4 tokens a step, one thread, best of %5")
                           .arg(p.layers).arg(p.dModel).arg(p.heads).arg(text::grouped(p.tokens)).arg(p.repeats),
                       tr("Batch = tokens / T sequences (at least one): every point does about the same work"));
    for (int k = 1; k < kLengthCostMixers; ++k) {
        const std::size_t m = std::size_t(k);
        const QString name = nameOf(k);
        const QString when = r.crossover[m] > 0
                                 ? tr("no slower than softmax from T = %1 on").arg(r.crossover[m])
                                 : tr("slower than softmax at T = %1").arg(r.lengths[last]);
        readouts()->setRow(QStringLiteral("cross-") + name, name, when,
                           tr("Per token of a training step, measured here: softmax attention's work grows with T, "
                              "a linear mixer's does not"));
    }
    readouts()->setRow(QStringLiteral("longest"), tr("At T = %1").arg(r.lengths[last]),
                       tr("softmax %1 µs/token, gated-deltanet %2 (%3×)")
                           .arg(text::fixed(r.usPerToken[0][last], 2), text::fixed(r.usPerToken[3][last], 2),
                                text::fixed(r.timesSoftmax[3], 2)));
    readouts()->setRow(QStringLiteral("bytes"), tr("Memory at T = %1").arg(r.lengths[last]),
                       tr("KV cache %1; a linear mixer's state %2, at any T")
                           .arg(text::bytes(r.stateBytes[0][last]), text::bytes(r.stateBytes[1][last])),
                       tr("KV cache: 2 · L · T · d · 4 bytes, the costs lab's formula; a state: heads · d_head² floats "
                          "per layer (+ heads · d_head for linear attention's normaliser)"));
    readouts()->setRow(QStringLiteral("gflops"), tr("Arithmetic rate"),
                       tr("softmax %1 GFLOP/s at T = 64, %2 at T = %3")
                           .arg(text::fixed(r.gflops(0, 0), 1), text::fixed(r.gflops(0, last), 1)).arg(r.lengths[last]),
                       tr("The step's counted FLOPs over its measured time (one thread)"));
}

QString LengthCostView::explanationText()
{
    return tr(
        "<p><b>What it shows.</b> The trade at the centre of hybrid linear-attention models (encyclopedia page, "
        "\"Hybrid linear-attention models\"). Softmax attention compares every token with every earlier one: a "
        "training step's work per token grows with the length T, and at inference its KV cache grows by "
        "2 · L · d · 4 bytes per token. Linear attention, DeltaNet and Gated DeltaNet keep a fixed d_head × d_head "
        "state per head instead: their work per token and their memory do not grow with T.</p>"
        "<p><b>Measured, not modelled.</b> Each point times one training step (forward and backward, one thread) "
        "of the tiny transformer with that mixer in every layer, on this machine. The dashed lines are what "
        "FullBand's FLOP count of the step predicts, scaled to the time measured at T = 64: where a solid line "
        "leaves its dashed one, the machine, not the arithmetic, sets the cost.</p>"
        "<p><b>Try.</b> Raise longest T to 2048 and watch softmax's line bend up while the linear mixers stay flat; "
        "the readouts name the length from which each linear mixer is no slower. Widen d (a bigger state, more "
        "work per token for the linear mixers) and the crossover moves out. The memory chart is exact: the bytes "
        "the transformer lab's JSON reports as state_bytes.</p>");
}

} // namespace fb
