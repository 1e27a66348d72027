#include "core/interpret/head_ablator.h"

#include "core/interpret/transformer_anatomy.h"
#include "core/transformer/transformer_tasks.h"

#include <stdexcept>

namespace fb {

HeadAblator::HeadAblator(std::shared_ptr<const TrainedTransformer> model)
    : model_(std::move(model))
{
    if (!model_) throw std::invalid_argument("HeadAblator: no trained model");
    const TransformerConfig &c = model_->config;
    // Built as the trainer builds its own (core/transformer/transformer_trainer.cpp), on one thread.
    net_ = std::make_unique<TransformerNet<float>>(model_->shape, 1);
    net_->params = model_->params;
    const int longest = transformerLongestEvaluation(c);
    tasks_ = std::make_unique<TransformerTasks>(c, model_->corpus.get(), longest + 1);
    tables_.build(c.pos, c.dModel, c.heads, c.base, longest);
    evaluator_ = std::make_unique<TransformerEvaluator>(c, *net_, *tasks_, tables_);
}

HeadAblator::~HeadAblator() = default;

TransformerEvaluator::Losses HeadAblator::evaluate(const std::vector<HeadId> &heads, AblationKind kind)
{
    Ablation a;
    a.heads = heads;
    a.kind = kind;
    return evaluate(a);
}

TransformerEvaluator::Losses HeadAblator::evaluate(const Ablation &parts)
{
    const TransformerConfig &c = model_->config;
    Ablation a = parts;
    a.means.clear();
    if (c.feedback == FeedbackMode::Off) a.feedbackShut = false;  // nothing to shut
    if (a.kind == AblationKind::Mean && !a.heads.empty()) {
        if (means_.empty()) means_ = TransformerAnatomy::headMeans(*evaluator_, c.feedback, c.passes);
        a.means = means_;
    }
    return evaluator_->heldout(c.feedback, c.passes, &a);
}

namespace {

// The increases over the base, NaN where either is unknown.
void fillIncreases(HeadAblator::Table &t)
{
    t.heldoutIncrease = t.heldout;
    t.repeatIncrease = t.repeat;
    for (auto &row : t.heldoutIncrease)
        for (double &v : row) v -= t.baseHeldout;
    for (auto &row : t.repeatIncrease)
        for (double &v : row) v -= t.baseRepeat;
}

} // namespace

HeadAblator::Table HeadAblator::table(AblationKind kind, const std::function<bool()> &stopped)
{
    const TransformerConfig &c = model_->config;
    const double nan = TransformerResult::nan;
    Table t;
    t.kind = kind;
    const TransformerEvaluator::Losses base = evaluate({}, kind);
    t.baseHeldout = base.loss;
    t.baseRepeat = base.repeat;
    t.heldout.assign(std::size_t(c.layers), std::vector<double>(std::size_t(c.heads), nan));
    t.repeat = t.heldout;
    for (int l = 0; l < c.layers; ++l)
        for (int h = 0; h < c.heads; ++h) {
            if (stopped && stopped()) return t;
            const TransformerEvaluator::Losses losses = evaluate({ { l, h } }, kind);
            t.heldout[std::size_t(l)][std::size_t(h)] = losses.loss;
            t.repeat[std::size_t(l)][std::size_t(h)] = losses.repeat;
        }
    fillIncreases(t);
    return t;
}

HeadAblator::Table HeadAblator::tableOf(const TransformerResult &r)
{
    Table t;
    t.kind = r.meanAblation ? AblationKind::Mean : AblationKind::Zero;
    t.baseHeldout = r.heldoutLoss;
    t.baseRepeat = r.secondHalfLoss;
    t.heldout = r.ablationHeldoutLoss;
    t.repeat = r.ablationSecondHalfLoss;
    if (t.repeat.empty())
        t.repeat.assign(t.heldout.size(), std::vector<double>(t.heldout.empty() ? 0 : t.heldout[0].size(),
                                                              TransformerResult::nan));
    fillIncreases(t);
    return t;
}

} // namespace fb
