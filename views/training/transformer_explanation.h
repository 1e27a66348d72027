#pragma once
// The transformer lab's explanation (its panel beside the charts): what it shows, its tasks and
// figures, taking a model apart, the attention variants, Compare mode and the linear mixers.
#include <QString>

namespace fb {

QString transformerExplanation();

} // namespace fb
