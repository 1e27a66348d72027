#include "core/accounting_lab_spec.h"

#include "core/lab_specs.h"

namespace fb {

namespace {

LabSpec makeSpec()
{
    LabSpec spec = accountingSpec();
    spec.name = "accounting";
    spec.title = "Compute accounting";
    spec.params.push_back(choiceParam("sweep", "chart: saving against", { "layers", "phi" }, "layers",
                                      "Sweep the number of layers L (1 to 128) or the latent-phase fraction phi (0 to 1)"));
    return spec;
}

} // namespace

const LabSpec &accountingLabSpec()
{
    static const LabSpec spec = makeSpec();
    return spec;
}

std::string accountingLabFrom(const ParamValues &v, AccountingLabParams &out)
{
    if (std::string err = checkAll(accountingLabSpec(), v); !err.empty()) return err;
    AccountingParams p;
    if (std::string err = accountingFrom(v, p); !err.empty()) return err;
    out.accounting = p;
    out.sweep = v.text("sweep") == "phi" ? AccountingSweep::Phi : AccountingSweep::Layers;
    return {};
}

} // namespace fb
