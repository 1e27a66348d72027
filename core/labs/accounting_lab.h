#pragma once
// Lab: what the wider channel costs (218.6.4 and Part C of the cell in 218.6.5 of
// 000_031aadcae6604a46.txt): parameter and decode overheads, k-pass multipliers, the whole-run
// multiplier and the compute saved against a baseline that needs more data, swept over L or phi.
#include "core/channel/accounting.h"
#include "core/lab/lab.h"

#include <vector>

namespace fb {

enum class AccountingSweep { Layers, Phi };

struct AccountingLabResult {
    AccountingParams params;
    AccountingSweep sweep = AccountingSweep::Layers;
    AccountingResult figures;        // the chapter's six printed figures
    double passK = 0, passDeep = 0;  // M_k and M_k'
    double nominalSaving = 0;        // 1 - 1 / data ratio: the saving with no overhead at all
    std::vector<double> sweepX;      // L = 1..max(128, L) or phi = 0..1 (201 values)
    std::vector<double> sweepSaving; // the saving at each, as a fraction
};

class AccountingLab {
public:
    using Result = AccountingLabResult;
    // layers, phi, rho, data_ratio, passes, deep_passes, sweep (layers|phi)
    static const LabSpec &spec();
    static std::string check(const ParamValues &values);
    static AccountingParams params(const ParamValues &values);  // checked values
    Result compute(const ParamValues &values, const RunControl &stop);
};

void writeJson(JsonWriter &json, const AccountingLabResult &r);

} // namespace fb
