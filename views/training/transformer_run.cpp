#include "views/training/transformer_run.h"

#include "core/transformer/transformer_trainer.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <exception>

namespace fb {

namespace {
// Frames published and not yet pulled, at most (twice the replay's own bound).
constexpr std::size_t kMaxUnread = 192;
} // namespace

TransformerRun::TransformerRun(TransformerConfig config, double pace)
    : config_(std::move(config))
    , pace_(std::make_shared<Pace>(pace))
{
    // The work owns a copy of the config; makeFrame is static and touches nothing of this object.
    run_ = std::make_unique<Run>([config = config_, pace = pace_](RunControl &control, Run::Outbox &out) {
        Pace::Clock::time_point lastStep = Pace::Clock::now();
        TransformerResult r = trainTransformer(
            config,
            [&](const TransformerProgress &p) {
                out.publish([&](Pending &u) { u.losses.push_back(p.loss); });
                pace->afterStep(control, lastStep);
            },
            [&out, task = config.task](const TransformerSnapshot &s) {
                std::shared_ptr<const TransformerFrame> f = makeFrame(s, task);
                out.publish([&](Pending &u) {
                    // every frame reaches the replay (the older ones without their states: the lab shows the
                    // newest frame's only, and 192 frames' states would be large) ...
                    if (u.frame) u.history.push_back(withoutStates(std::move(u.frame)));
                    if (u.history.size() >= kMaxUnread) {  // ... unless nothing pulls (a wait for the end):
                        std::size_t kept = 0;              // then every second one, as the replay thins
                        for (std::size_t i = 0; i < u.history.size(); i += 2) u.history[kept++] = std::move(u.history[i]);
                        u.history.resize(kept);
                    }
                    u.frame = std::move(f);
                    if (s.weights) {
                        u.weights = s.weights;
                        u.weightsStep = s.step;
                    }
                });
            },
            &control);
        r.curve.clear();  // the view has every loss from take()
        return r;
    });
}

TransformerRun::TransformerRun(SavedModel saved)
    : config_(saved.model.config)
    , pace_(std::make_shared<Pace>(0.0))
{
    auto file = std::make_shared<SavedModel>(std::move(saved));
    run_ = std::make_unique<Run>([file](RunControl &, Run::Outbox &out) {
        auto model = std::make_shared<const TrainedTransformer>(std::move(file->model));
        TransformerResult r = std::move(file->run);
        r.model = model;
        std::shared_ptr<TransformerFrame> f = makeFrame(r.finalSnapshot, model->config.task);
        std::vector<std::shared_ptr<const TransformerFrame>> history;
        for (const TransformerSnapshot &snap : file->replay)
            if (snap.step < r.finalSnapshot.step) history.push_back(makeFrame(snap, model->config.task));
        out.publish([&](Pending &u) {
            u.losses = std::move(r.curve);
            u.frame = std::move(f);
            u.history = std::move(history);
            if (model->corpus) {
                u.weights = model;
                u.weightsStep = r.bestStep;
            }
        });
        r.curve.clear();
        return r;
    });
}

TransformerRun::~TransformerRun() = default;  // the run abandons and joins

std::shared_ptr<TransformerFrame> TransformerRun::makeFrame(const TransformerSnapshot &snap, TransformerTask task)
{
    auto f = std::make_shared<TransformerFrame>();
    f->step = snap.step;
    f->elapsedSeconds = snap.elapsedSeconds;
    f->inductionScore = snap.inductionScore;
    f->gateMean = snap.gateMean;
    f->heldoutStep = snap.heldoutStep;
    f->heldoutLoss = snap.heldoutLoss;
    f->secondHalfLoss = snap.secondHalfLoss;
    f->accuracy = snap.accuracy;
    f->trainAccuracy = snap.trainAccuracy;
    f->sample = snap.sample;
    f->states = makeStates(snap);
    auto source = std::make_shared<TransformerSnapshot>(snap);
    source->weights = nullptr;
    source->states.clear();  // the frame has them coloured; a model file keeps none
    source->statePositions.clear();
    f->snapshot = std::move(source);
    HeatmapGridData &m = f->maps;
    m.title = QStringLiteral("Attention on the probe sequence, step %1").arg(snap.step);
    m.masked = true;
    m.maxValue = 1.0;
    m.xTitle = QStringLiteral("key position");
    m.yTitle = QStringLiteral("query position");
    m.valueTitle = QStringLiteral("weight");
    auto values = std::make_shared<std::vector<Eigen::MatrixXd>>();
    values->reserve(snap.attention.size());
    for (int l = 0; l < snap.layers; ++l)
        for (int h = 0; h < snap.heads; ++h) {
            const std::size_t i = std::size_t(l * snap.heads + h);
            if (i >= snap.attention.size()) break;
            values->push_back(snap.attention[i].cast<double>());
            QImage image;
            HeatmapGrid::colourInto(image, values->back(), 1.0, true);
            m.images.append(image);
            QString score, shortScore;
            if (std::size_t(l) < snap.inductionScore.size() && std::size_t(h) < snap.inductionScore[l].size()) {
                score = QStringLiteral(" · ind %1").arg(snap.inductionScore[l][h], 0, 'f', 2);
                // one line in a narrow panel ("L2H1 .91"): three lines ("L2H1" / "ind" / "0.91") took the
                // height of the maps themselves on a 1024 x 768 slide
                shortScore = QStringLiteral(" %1").arg(snap.inductionScore[l][h], 0, 'f', 2);
                if (shortScore.startsWith(QLatin1String(" 0."))) shortScore.remove(1, 1);
            }
            m.panelTitles << QStringLiteral("L%1 H%2%3").arg(l + 1).arg(h + 1).arg(score);
            m.shortTitles << QStringLiteral("L%1H%2%3").arg(l + 1).arg(h + 1).arg(shortScore);
        }
    m.values = values;
    // Position ticks: the probe's tokens are numbers too, and would read as positions.
    for (int t : snap.probeTokens) m.tokens << QString::number(t);
    m.tokenTicks = false;
    (void)task;
    return f;
}

std::shared_ptr<const TransformerFrame> TransformerRun::withoutStates(std::shared_ptr<const TransformerFrame> frame)
{
    if (!frame || !frame->states) return frame;
    auto copy = std::make_shared<TransformerFrame>(*frame);
    copy->states = nullptr;
    copy->statesDropped = true;
    return copy;
}

std::shared_ptr<const TransformerStates> TransformerRun::makeStates(const TransformerSnapshot &snap)
{
    if (snap.statePositions.empty() || snap.states.empty()) return nullptr;
    auto out = std::make_shared<TransformerStates>();
    out->positions = snap.statePositions;
    out->seqLen = snap.seqLen;
    double top = 0.0;  // one scale for every position and head
    for (const std::vector<Eigen::MatrixXf> &head : snap.states)
        for (const Eigen::MatrixXf &s : head)
            if (s.size()) top = std::max(top, double(s.cwiseAbs().maxCoeff()));
    if (!(top > 0.0) || !std::isfinite(top)) top = 1.0;
    for (std::size_t i = 0; i < snap.statePositions.size(); ++i) {
        HeatmapGridData m;
        m.title = QStringLiteral("State after position %1 of %2, step %3")
                      .arg(snap.statePositions[i]).arg(snap.seqLen - 1).arg(snap.step);
        m.maxValue = top;
        m.xTitle = QStringLiteral("key feature");
        m.yTitle = QStringLiteral("value feature");
        m.valueTitle = QStringLiteral("|S|");
        m.csvHeader = QStringLiteral("head,value_feature,key_feature,abs_state");
        auto values = std::make_shared<std::vector<Eigen::MatrixXd>>();
        for (int l = 0; l < snap.layers; ++l)
            for (int h = 0; h < snap.heads; ++h) {
                const std::size_t k = std::size_t(l * snap.heads + h);
                if (k >= snap.states.size() || i >= snap.states[k].size()) continue;  // a softmax layer
                values->push_back(snap.states[k][i].cast<double>().cwiseAbs());
                QImage image;
                HeatmapGrid::colourInto(image, values->back(), top, false);
                m.images.append(image);
                const double norm = double(snap.states[k][i].norm());
                m.panelTitles << QStringLiteral("L%1 H%2 · |S| %3").arg(l + 1).arg(h + 1).arg(norm, 0, 'f', 2);
                m.shortTitles << QStringLiteral("L%1H%2 %3").arg(l + 1).arg(h + 1).arg(norm, 0, 'f', 1);
            }
        m.values = values;
        out->grids.push_back(std::move(m));
    }
    return out;
}

TransformerRun::Update TransformerRun::take()
{
    Run::Taken t = run_->take();
    Update u;
    u.losses = std::move(t.update.losses);
    u.frame = std::move(t.update.frame);
    u.history = std::move(t.update.history);
    u.weights = std::move(t.update.weights);
    u.weightsStep = t.update.weightsStep;
    u.result = std::move(t.result);
    u.error = std::move(t.error);
    return u;
}

} // namespace fb
