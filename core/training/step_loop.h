#pragma once
// What a training does between its steps and when one goes wrong, the same for the toy trainer and
// the transformer trainer: a pause that does not count as training time, a stop before the next
// step, and the messages of a cancelled and of a diverged run.
#include "core/run/run_control.h"

#include <chrono>
#include <cstddef>
#include <string>

namespace fb {

// Before a step: waits while control is paused (adding the wait to pausedFor); true when a stop was
// requested and the step must not run. No control: false at once.
bool pauseOrStop(const RunControl *control, std::chrono::steady_clock::duration &pausedFor);

// "cancelled after 4 of 10 steps".
std::string cancelledMessage(int done, int steps);

// "diverged at step 12: <why> (lr 0.5); kept the weights that gave the loss of step 11": kept is the
// number of accepted steps (0: "the initial weights").
std::string divergedMessage(int step, const std::string &why, double lr, std::size_t kept);

} // namespace fb
