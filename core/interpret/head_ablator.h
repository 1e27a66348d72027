#pragma once
// A trained transformer evaluated with any set of heads switched off, for the lab's ablation grid:
// the evaluator of the run rebuilt from the model it handed back (TransformerResult::model), so the
// held-out set is the very one the run was judged on (drawn from seed + 1), and the losses equal the
// run's own (an empty set gives result.heldoutLoss, a single head its ablationHeldoutLoss entry).
//
// Not thread-safe: one thread at a time (the lab's worker) calls it. Construction draws the
// held-out set and allocates; evaluate() is one held-out evaluation (plus, the first time a
// mean-ablation is asked for, one more pass for the heads' means); table() is L * H evaluations.
#include "core/interpret/ablation.h"
#include "core/transformer/transformer_evaluator.h"

#include <functional>
#include <memory>
#include <vector>

namespace fb {

class TransformerTasks;

class HeadAblator {
public:
    explicit HeadAblator(std::shared_ptr<const TrainedTransformer> model);
    ~HeadAblator();
    HeadAblator(const HeadAblator &) = delete;
    HeadAblator &operator=(const HeadAblator &) = delete;

    // The held-out losses with `heads` replaced by zero or by their mean output.
    TransformerEvaluator::Losses evaluate(const std::vector<HeadId> &heads, AblationKind kind);
    // The same with any parts off: heads (of parts.kind), FFNs, the feedback gate (parts.means unused).
    TransformerEvaluator::Losses evaluate(const Ablation &parts);

    // Each head ablated alone: [layer][head] its held-out loss and (induction) its repeat loss (NaN
    // elsewhere), as TransformerAnatomy's table, of the given kind, and how much each exceeds the
    // unablated model's.
    struct Table {
        AblationKind kind = AblationKind::Zero;
        double baseHeldout = TransformerResult::nan, baseRepeat = TransformerResult::nan;  // nothing ablated
        std::vector<std::vector<double>> heldout, repeat;
        std::vector<std::vector<double>> heldoutIncrease, repeatIncrease;  // minus the base
    };
    // stopped (may be empty) is asked between heads; when it says yes the table is left incomplete.
    Table table(AblationKind kind, const std::function<bool()> &stopped = {});
    // The table the run itself computed (TransformerAnatomy, of the run's kind), with its increases.
    static Table tableOf(const TransformerResult &result);

    const TransformerConfig &config() const { return model_->config; }

private:
    std::shared_ptr<const TrainedTransformer> model_;
    std::unique_ptr<TransformerNet<float>> net_;
    std::unique_ptr<TransformerTasks> tasks_;
    PositionTables<float> tables_;
    std::unique_ptr<TransformerEvaluator> evaluator_;
    std::vector<std::vector<double>> means_;  // [layer] the heads' mean outputs, once asked for
};

} // namespace fb
