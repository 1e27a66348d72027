#pragma once
// Round numbers for axes and tick steps.

namespace fb {

// Heckbert's "nice numbers" (Graphics Gems I), as Qt Charts uses them: x > 0 rounded to 1, 2 or 5
// times a power of ten, up (ceiling) or to the nearest.
double niceNumber(double x, bool ceiling);

} // namespace fb
