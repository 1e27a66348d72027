// FullBand's labs in the chapter's order: one line each. See core/lab/lab.h.
#include "core/lab/lab.h"
#include "core/labs/accounting_lab.h"
#include "core/labs/attention_lab.h"
#include "core/labs/bayes_floor_lab.h"
#include "core/labs/capacity_lab.h"
#include "core/labs/context_extension_lab.h"
#include "core/labs/costs_lab.h"
#include "core/labs/decay_bound_lab.h"
#include "core/labs/depth_gradients_lab.h"
#include "core/labs/glu_fusion_lab.h"
#include "core/labs/kv_cache_lab.h"
#include "core/labs/length_cost_lab.h"
#include "core/labs/mha_lab.h"
#include "core/labs/residual_block_lab.h"
#include "core/labs/rnn_gradients_lab.h"
#include "core/labs/rope_invariance_lab.h"
#include "core/labs/training_lab.h"
#include "core/labs/transformer_lab.h"

namespace fb {

const std::vector<LabDefinition> &labDefinitions()
{
    static const std::vector<LabDefinition> labs {
        labDefinition<DepthGradientsLab>(),                          // 218.1, 218.2
        labDefinition<ResidualBlockLab>(Shown::CommandLineOnly),     // 218.1's cell
        labDefinition<RnnGradientsLab>(Shown::CommandLineOnly),      // 218.2
        labDefinition<AttentionLab>(),                               // 218.4.1 - 218.4.4
        labDefinition<RopeInvarianceLab>(),                          // Figure 218.1, left
        labDefinition<DecayBoundLab>(),                              // Figure 218.1, right
        labDefinition<ContextExtensionLab>(Shown::CommandLineOnly),  // 218.4.4
        labDefinition<MhaLab>(Shown::CommandLineOnly),               // 218.4.5's cell
        labDefinition<CapacityLab>(),                                // 218.6.1, Figure 218.2, left
        labDefinition<GluFusionLab>(),                               // 218.6.2
        labDefinition<TransformerLab>(),                             // 218.4, 218.6: a tiny transformer trained live
        labDefinition<TrainingLab>(),                                // 218.6.5, Figure 218.2, right
        labDefinition<BayesFloorLab>(Shown::CommandLineOnly),        // 218.6.5
        labDefinition<AccountingLab>(),                              // 218.6.4, Part C
        labDefinition<CostsLab>(),                                   // the encyclopedia page
        labDefinition<KvCacheLab>(Shown::CommandLineOnly),           // the encyclopedia page
        labDefinition<LengthCostLab>(),                              // the encyclopedia page: linear mixers against softmax
    };
    return labs;
}

const LabDefinition *findLab(std::string_view name)
{
    for (const LabDefinition &lab : labDefinitions())
        if (lab.name() == name) return &lab;
    return nullptr;
}

const LabSpec *windowLabSpec(std::string_view name)
{
    const LabDefinition *lab = findLab(name);
    return lab && lab->inWindow ? &lab->spec() : nullptr;
}

std::string labNameList(bool computableOnly)
{
    std::string out;
    for (const LabDefinition &lab : labDefinitions()) {
        if (computableOnly && !lab.computeJson) continue;
        if (!out.empty()) out += ", ";
        out += lab.name();
    }
    return out;
}

} // namespace fb
