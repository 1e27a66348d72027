#pragma once
// An evaluator over given weights, built as the trainer builds its own (the same held-out set, the
// same tasks and position tables): a trained model's figures measured again, or with its weights
// changed (tst_interpret, tst_mqar_recall).
#include "core/transformer/position_tables.h"
#include "core/transformer/transformer_config.h"
#include "core/transformer/transformer_evaluator.h"
#include "core/transformer/transformer_net.h"
#include "core/transformer/transformer_tasks.h"

#include <memory>

namespace fb::test {

struct WeightsEvaluator {
    TransformerConfig c;
    std::unique_ptr<TransformerNet<float>> net;
    std::unique_ptr<TransformerTasks> tasks;
    PositionTables<float> tables;
    std::unique_ptr<TransformerEvaluator> eval;

    WeightsEvaluator(const TransformerConfig &config, const Eigen::VectorXf &params) : c(config)
    {
        net = std::make_unique<TransformerNet<float>>(transformerShape(c, transformerVocabulary(c)));
        net->params = params;
        const int longest = transformerLongestEvaluation(c);
        tasks = std::make_unique<TransformerTasks>(c, nullptr, longest + 1);
        tables.build(c.pos, c.dModel, c.heads, c.base, longest);
        eval = std::make_unique<TransformerEvaluator>(c, *net, *tasks, tables);
    }
    // The held-out loss, with heads ablated or not.
    double loss(const Ablation *a = nullptr) { return eval->heldout(c.feedback, c.passes, a).loss; }
};

} // namespace fb::test
