#include "views/training/transformer_run_frames.h"

#include "core/transformer/transformer_json.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "views/interpret/replay_bar.h"
#include "views/training/length_table.h"
#include "views/training/transformer_loss_chart.h"
#include "views/widgets/heatmap_grid.h"
#include "views/widgets/readout_panel.h"
#include "views/writing/writing_panel.h"
#include "views/writing/writing_tabs.h"

#include <QCoreApplication>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace fb {

namespace {

// The lab's texts, translated as the view's own.
QString tr(const char *text)
{
    return QCoreApplication::translate("fb::TransformerView", text);
}

QString nats(double v)
{
    return std::isfinite(v) ? QStringLiteral("%1 nats").arg(v, 0, 'f', 3) : QStringLiteral("—");
}

} // namespace

TransformerRunFrames::TransformerRunFrames(TransformerLossChart *chart, HeatmapGrid *maps, InterpretTabs *interpret,
                                           LengthTable *lengths, WritingPanel *writing, WritingTabs *tabs,
                                           ReadoutPanel *readouts)
    : chart_(chart)
    , maps_(maps)
    , interpret_(interpret)
    , lengths_(lengths)
    , writing_(writing)
    , tabs_(tabs)
    , readouts_(readouts)
{
}

void TransformerRunFrames::showSentence(const TransformerFrame &frame)
{
    sentenceShown_ = true;
    maps_->setData(frame.maps);
}

void TransformerRunFrames::clear()
{
    sentenceShown_ = false;
    result_.reset();
    framesShown_ = 0;
    lastFrameStep_ = -1;
    pendingReplay_ = -1;
    replayCurve_.clear();
    gateMean_ = heldout_ = repeat_ = bestScore_ = accuracy_ = trainAccuracy_ = TransformerSnapshot::nan;
    heldoutStep_ = -1;
}

void TransformerRunFrames::showStep(int step, const TransformerConfig &config, double maxLoss)
{
    if (replayCurve_.empty()) replayCurve_ = chart_->losses();
    // As the live view drew it: the curves up to the step, the maps the replay kept for it.
    chart_->startRun(config.steps, maxLoss, transformerHasRepeat(config.task));
    const std::size_t n = std::min(replayCurve_.size(), std::size_t(step));
    chart_->appendLosses(std::vector<double>(replayCurve_.begin(), replayCurve_.begin() + std::ptrdiff_t(n)));
    drawHeldout(step);
    chart_->setPhaseChange(result_->phaseChangeStep >= 0 && result_->phaseChangeStep <= step ? result_->phaseChangeStep : -1);
    interpret_->replay()->showStep(step);
}

void TransformerRunFrames::drawHeldout(int upTo)
{
    std::vector<int> steps;
    std::vector<double> loss, repeat, accuracy, trainAccuracy;
    const auto add = [&](int step, double l, double r, double a, double t) {
        if (step > upTo) return;
        steps.push_back(step);
        loss.push_back(l);
        repeat.push_back(r);
        accuracy.push_back(a);
        trainAccuracy.push_back(t);
    };
    for (const auto &p : result_->heldoutCurve) add(p.step, p.loss, p.secondHalfLoss, p.accuracy, p.trainAccuracy);
    if (result_->heldoutCurve.empty() || result_->heldoutCurve.back().step < result_->stepsDone)  // the final figures
        add(result_->stepsDone, result_->heldoutLoss, result_->secondHalfLoss, result_->accuracy, result_->trainAccuracy);
    chart_->setHeldout(std::move(steps), std::move(loss), std::move(repeat), std::move(accuracy), std::move(trainAccuracy));
}

void TransformerRunFrames::holdReplayAt(int step)
{
    pendingReplay_ = -1;
    if (result_) interpret_->replay()->showStep(step);
    else pendingReplay_ = step;
}

std::optional<SavedModel> TransformerRunFrames::modelToSave() const
{
    if (!result_ || !result_->model) return std::nullopt;
    SavedModel s;
    s.model = *result_->model;
    s.run = *result_;
    s.run.model = nullptr;
    s.run.curve = chart_->losses();  // the run hands its losses over step by step
    const ReplayBar *replay = interpret_->replay();
    for (int i = 0; i < replay->framesKept(); ++i)
        if (const auto &f = replay->frame(i); f && f->snapshot) s.replay.push_back(*f->snapshot);
    return s;
}

bool TransformerRunFrames::pull(TransformerRun &run, TransformerTask task)
{
    TransformerRun::Update u = run.take();
    chart_->appendLosses(u.losses);
    for (const auto &earlier : u.history) {  // every frame is kept for the replay, its held-out point drawn
        interpret_->recordFrame(earlier);
        if (earlier->heldoutStep >= 0)
            chart_->appendHeldout(earlier->heldoutStep, earlier->heldoutLoss, earlier->secondHalfLoss, earlier->accuracy,
                                  earlier->trainAccuracy);
    }
    if (u.weights) writing_->setModel(u.weights, tr("the weights at step %1").arg(u.weightsStep));
    if (u.frame) {
        const TransformerFrame &f = *u.frame;
        interpret_->recordFrame(u.frame);
        if (interpret_->replay()->live() && !sentenceShown_) maps_->setData(f.maps);
        ++framesShown_;
        lastFrameStep_ = f.step;
        gateMean_ = f.gateMean;
        if (f.heldoutStep >= 0) {
            chart_->appendHeldout(f.heldoutStep, f.heldoutLoss, f.secondHalfLoss, f.accuracy, f.trainAccuracy);
            heldout_ = f.heldoutLoss;
            accuracy_ = f.accuracy;
            trainAccuracy_ = f.trainAccuracy;
            repeat_ = f.secondHalfLoss;
            heldoutStep_ = f.heldoutStep;
        }
        bestScore_ = TransformerSnapshot::nan;
        for (const auto &layer : f.inductionScore)
            for (double s : layer)
                if (std::isfinite(s) && !(bestScore_ >= s)) bestScore_ = s;
        if (!f.sample.empty()) writing_->showSample(tr("Sample at step %1: ").arg(f.step) + QString::fromStdString(f.sample));

    }
    if (u.result) {
        result_ = std::move(u.result);
        drawHeldout(result_->stepsDone);
        chart_->setPhaseChange(result_->phaseChangeStep);
        interpret_->setResult(*result_);
        if (pendingReplay_ >= 0) interpret_->replay()->showStep(std::exchange(pendingReplay_, -1));
        if (result_->model && result_->model->corpus)
            writing_->setModel(result_->model, tr("the trained model (the best held-out loss, step %1)").arg(result_->bestStep));
        if (writing_->model()) tabs_->setTextTask(true);
        lengths_->setRows(result_->lengths, transformerHasRepeat(task));
        if (!result_->message.empty()) readouts_->setNote(QString::fromStdString(result_->message).toHtmlEscaped());
    } else if (!u.error.empty()) {
        lengths_->clearRows();  // its rows' numbers will not come
        readouts_->setNote(QStringLiteral("<span style='color:#b00020'>%1</span>")
                               .arg(QString::fromStdString(u.error).toHtmlEscaped()));
    }
    return run.ended() && (result_ || !u.error.empty());
}

void TransformerRunFrames::showFigures(double trainingLoss)
{
    readouts_->setRow(QStringLiteral("live"), tr("Training loss now"), nats(trainingLoss),
                      tr("Mean over the smoothing window"));
    const bool finalFigures = result_.has_value();
    const double held = finalFigures ? result_->heldoutLoss : heldout_;
    const double rep = finalFigures ? result_->secondHalfLoss : repeat_;
    readouts_->setRow(QStringLiteral("heldout"), tr("Held-out loss"),
                      nats(held) + (heldoutStep_ >= 0 && !finalFigures ? tr(" (step %1)").arg(heldoutStep_) : QString()),
                      tr("Mean cross entropy on held-out sequences"));
    const double acc = finalFigures ? result_->accuracy : accuracy_;
    const double trainAcc = finalFigures ? result_->trainAccuracy : trainAccuracy_;
    QString accuracy = QStringLiteral("—");  // the tasks with exact answers only
    if (std::isfinite(acc))
        accuracy = QString::number(100.0 * acc, 'f', 1) + QStringLiteral(" %")
                   + (std::isfinite(trainAcc) ? tr(" (training pairs %1 %)").arg(100.0 * trainAcc, 0, 'f', 1) : QString());
    readouts_->setRow(QStringLiteral("accuracy"), tr("Held-out accuracy"), accuracy,
                      tr("Tasks with exact answers: the share of held-out answer tokens whose most likely "
                         "prediction is the answer (modular-addition: also on the training pairs)"));
    readouts_->setRow(QStringLiteral("repeat"), tr("Held-out loss on the repeat"), nats(rep),
                      tr("Induction tasks: the predictions an induction head can make (ideal 0)"));
    const double best = finalFigures ? bestInductionScore(*result_) : bestScore_;
    readouts_->setRow(QStringLiteral("induction"), tr("Best induction score"),
                      std::isfinite(best) ? QString::number(best, 'f', 3) : QStringLiteral("—"),
                      tr("Mean attention of a query in the repeat on the token after its earlier occurrence"));
    readouts_->setRow(QStringLiteral("gate"), tr("Feedback gate mean"),
                      std::isfinite(gateMean_) ? QString::number(gateMean_, 'f', 3) : QStringLiteral("—"),
                      tr("Mean of σ(W_b u + b_b) on the probe sequence (218.6.2); only with feedback"));
    readouts_->setRow(QStringLiteral("phase"), tr("Phase change"),
                      finalFigures && result_->phaseChangeStep >= 0 ? tr("step %1").arg(result_->phaseChangeStep)
                                                                     : QStringLiteral("—"),
                      tr("Induction tasks: the step where the held-out repeat loss falls fastest (marked on the curves)"));
    readouts_->setRow(QStringLiteral("ablated"), tr("Heads off"), interpret_->ablation()->summary(),
                      tr("Click a head's map or its cell under Heads: the held-out loss with those heads off"));
    QString speed = QStringLiteral("—");
    if (finalFigures && result_->msPerStep > 0)
        speed = QStringLiteral("%1 ms/step · %2 GFLOP/s").arg(result_->msPerStep, 0, 'f', 2)
                    .arg(result_->flopsPerStep / (result_->msPerStep * 1e6), 0, 'f', 1);
    readouts_->setRow(QStringLiteral("speed"), tr("Speed"), speed, tr("Training steps only, one thread"));
}

} // namespace fb
