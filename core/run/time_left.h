#pragma once
// The time a long run has left, estimated from its pace so far, for progress lines in the window
// and on the command line: "about 3 min left", "about 40 s left", "about 1 h 5 min left".
#include <string>

namespace fb {

// Empty while there is nothing to go on yet (no step done, or under half a second of work), and
// once done reaches total.
std::string timeLeftText(double elapsedSeconds, long long done, long long total);

// A duration as those lines say it, without "left": "about 40 s", "about 3 min", "about 1 h 5 min".
// Empty for a duration that is not finite or not positive.
std::string aboutText(double seconds);

} // namespace fb
