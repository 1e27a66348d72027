#pragma once
// Section 218.6.4 (and Part C of the cell in 218.6.5): what the wider channel costs.
namespace fb {

struct AccountingParams {
    int layers = 32;         // L
    double phi = 0.20;       // fraction of pretraining with latent feedback on
    double rho = 0.10;       // fraction of latent-phase batches using the deeper pass
    double dataRatio = 1.5;  // how many times more tokens the baseline needs
    int passes = 2;          // k of most latent-phase batches
    int deepPasses = 3;      // k' of the rho fraction
};

struct AccountingResult {
    double paramOverhead = 0.0;    // 4 d^2 / (12 d^2 L) = 4 / (12 L)
    double decodeOverhead = 0.0;   // 8 d^2 / (24 d^2 L) = 1 / (3 L)
    double phaseMultiplier = 0.0;  // (1 - rho) M_k + rho M_k'
    double runMultiplier = 0.0;    // (1 - phi) + phi * phase
    double totalMultiplier = 0.0;  // run * (1 + paramOverhead)
    double saving = 0.0;           // 1 - total / dataRatio
};

// M_k = (k + 2) / 3: cost of a k-pass training step against an ordinary one.
double passMultiplier(int k);

// The whole Part C: overheads 4/(12L) and 1/(3L), phase (1-rho) M_k + rho M_k', run (1-phi) + phi phase,
// total run (1 + param overhead), saving 1 - total / dataRatio. All dimensionless ratios.
AccountingResult accounting(const AccountingParams &p);

} // namespace fb
