#include "core/run/time_left.h"

#include <algorithm>
#include <cmath>

namespace fb {

std::string aboutText(double seconds)
{
    if (!std::isfinite(seconds) || !(seconds > 0.0)) return {};
    if (seconds < 60.0) {
        // 5 s steps under a minute: a number that does not flicker with every step.
        const long long s = std::max(5LL, (static_cast<long long>(std::ceil(seconds)) + 4) / 5 * 5);
        return "about " + std::to_string(s) + " s";
    }
    const long long minutes = static_cast<long long>(std::ceil(seconds / 60.0));
    if (minutes < 60) return "about " + std::to_string(minutes) + " min";
    return "about " + std::to_string(minutes / 60) + " h " + std::to_string(minutes % 60) + " min";
}

std::string timeLeftText(double elapsedSeconds, long long done, long long total)
{
    if (done <= 0 || done >= total || !(elapsedSeconds >= 0.5)) return {};
    const double left = elapsedSeconds * double(total - done) / double(done);
    const std::string about = aboutText(left);
    return about.empty() ? about : about + " left";
}

} // namespace fb
