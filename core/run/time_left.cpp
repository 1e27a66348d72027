#include "core/run/time_left.h"

#include <algorithm>
#include <cmath>

namespace fb {

std::string timeLeftText(double elapsedSeconds, long long done, long long total)
{
    if (done <= 0 || done >= total || !(elapsedSeconds >= 0.5)) return {};
    const double left = elapsedSeconds * double(total - done) / double(done);
    if (!std::isfinite(left)) return {};
    if (left < 60.0) {
        // 5 s steps under a minute: a number that does not flicker with every step.
        const long long s = std::max(5LL, (static_cast<long long>(std::ceil(left)) + 4) / 5 * 5);
        return "about " + std::to_string(s) + " s left";
    }
    const long long minutes = static_cast<long long>(std::ceil(left / 60.0));
    if (minutes < 60) return "about " + std::to_string(minutes) + " min left";
    return "about " + std::to_string(minutes / 60) + " h " + std::to_string(minutes % 60) + " min left";
}

} // namespace fb
