#include "core/training/step_loop.h"

#include "core/lab/param_spec.h"

namespace fb {

bool pauseOrStop(const RunControl *control, std::chrono::steady_clock::duration &pausedFor)
{
    if (!control) return false;
    if (control->isPaused() && !control->stopRequested()) {
        const std::chrono::steady_clock::time_point pausedAt = std::chrono::steady_clock::now();
        control->waitWhilePaused();
        pausedFor += std::chrono::steady_clock::now() - pausedAt;
    }
    return control->stopRequested();
}

std::string cancelledMessage(int done, int steps)
{
    return "cancelled after " + std::to_string(done) + " of " + std::to_string(steps) + " steps";
}

std::string divergedMessage(int step, const std::string &why, double lr, std::size_t kept)
{
    return "diverged at step " + std::to_string(step) + ": " + why + " (lr " + formatNumber(lr) + "); kept "
           + (kept ? "the weights that gave the loss of step " + std::to_string(kept) : std::string("the initial weights"));
}

} // namespace fb
