// FullBand's labs in the chapter's order: one line each. See core/lab.h.
#include "core/lab.h"
#include "core/labs/accounting_lab.h"
#include "core/labs/capacity_lab.h"
#include "core/labs/costs_lab.h"
#include "core/labs/decay_bound_lab.h"
#include "core/labs/rope_invariance_lab.h"

namespace fb {

const std::vector<LabDefinition> &labDefinitions()
{
    static const std::vector<LabDefinition> labs {
        labDefinition<RopeInvarianceLab>(),
        labDefinition<DecayBoundLab>(),
        labDefinition<CapacityLab>(),
        labDefinition<AccountingLab>(),
        labDefinition<CostsLab>(),
    };
    return labs;
}

const LabDefinition *findLab(std::string_view name)
{
    for (const LabDefinition &lab : labDefinitions())
        if (lab.name() == name) return &lab;
    return nullptr;
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
