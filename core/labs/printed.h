#pragma once
// Numbers as the chapter's Python cells print them: f"{v:.4f}" and f"{v:.1e}", in every locale
// ("37.9606", "0.0e+00"; never "37,9606"). For the lines the cell labs print beside their figures.
#include <string>

namespace fb {

// f"{v:.<decimals>f}"
std::string printedFixed(double v, int decimals);
// f"{v:.<decimals>e}": mantissa, "e", sign and at least two exponent digits
std::string printedScientific(double v, int decimals);

} // namespace fb
