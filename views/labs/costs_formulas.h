#pragma once
// The Costs lab's formulas with today's values substituted, as rich text for a FormulaPanel.
#include "core/labs/costs_spec.h"

#include <QString>

namespace fb {

// "KV cache per token = 2 × layers × KV heads × head dim × bytes = 2 × 80 × 8 × 128 × 2 B ≈ 0.33 MB", ...
QString costsFormulaHtml(const CostsLabParams &p, const CostsLabFigures &f);

} // namespace fb
