#pragma once
// The Compute accounting lab's parameters: accountingSpec()'s L, phi, rho, data ratio, k, k'
// (section 218.6.4, Part C) plus which of L or phi the saving chart sweeps.
#include "core/accounting.h"
#include "core/param_spec.h"

#include <string>

namespace fb {

enum class AccountingSweep { Layers, Phi };

struct AccountingLabParams {
    AccountingParams accounting;
    AccountingSweep sweep = AccountingSweep::Layers;
};

// layers, phi, rho, data_ratio, passes, deep_passes (from accountingSpec()), sweep (layers|phi).
const LabSpec &accountingLabSpec();

// Checks every value and accountingSpec()'s cross-key rules. Returns an empty string and fills
// out on success; otherwise a message naming the key and its valid range, out left unchanged.
std::string accountingLabFrom(const ParamValues &v, AccountingLabParams &out);

} // namespace fb
