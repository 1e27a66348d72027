#pragma once
// Help > About FullBand: what it is, its two sources, lecture mode and every key, as rich text.
#include <QString>

namespace fb {

QString aboutHtml();

} // namespace fb
