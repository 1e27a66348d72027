#include "views/training/transformer_run.h"

#include "core/transformer/transformer_trainer.h"

#include <QString>

#include <exception>

namespace fb {

TransformerRun::TransformerRun(TransformerConfig config)
    : config_(std::move(config))
{
    pending_.reserve(std::size_t(config_.steps));
    thread_ = std::thread([this] { work(); });
}

TransformerRun::~TransformerRun()
{
    control_.abandon();
    join();
}

void TransformerRun::join()
{
    if (thread_.joinable()) thread_.join();
}

void TransformerRun::setPaused(bool paused)
{
    if (paused) control_.pause();
    else control_.resume();
}

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
    f->sample = snap.sample;
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
                shortScore = QStringLiteral(" %1").arg(snap.inductionScore[l][h], 0, 'f', 2);
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

void TransformerRun::work()
{
    try {
        TransformerResult r = trainTransformer(
            config_,
            [this](const TransformerProgress &p) {
                std::lock_guard<std::mutex> lock(mutex_);
                pending_.push_back(p.loss);
            },
            [this](const TransformerSnapshot &s) {
                std::shared_ptr<const TransformerFrame> f = makeFrame(s, config_.task);
                std::lock_guard<std::mutex> lock(mutex_);
                frame_ = std::move(f);
            },
            &control_);
        r.curve.clear();  // the view has every loss from take()
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = std::move(r);
    } catch (const std::exception &e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = e.what();
    }
    ended_ = true;
}

TransformerRun::Update TransformerRun::take()
{
    Update u;
    std::lock_guard<std::mutex> lock(mutex_);
    u.losses.swap(pending_);
    u.frame = std::move(frame_);
    frame_.reset();
    if (!reported_ && ended_) {
        if (result_) u.result = std::move(result_);
        u.error = error_;
        reported_ = true;
    }
    return u;
}

} // namespace fb
