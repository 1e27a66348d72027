// Linked into the tests/core executables of ThreadSanitizer builds only (FULLBAND_SANITIZE=thread):
// oneTBB runs each parallel loop on the thread that calls it, with no worker threads.
//
// Why: Debian's libtbb is not instrumented, so ThreadSanitizer cannot see the synchronization with
// which oneTBB hands tasks and their results between its workers. It then reports every hand-off as
// a race: inside oneTBB's own headers (auto_partitioner's check_being_stolen, blocked_range's
// splitting constructor) and in FullBand's loop bodies (trainAll's results written by a worker and
// read by the caller). A suppression cannot tell those apart from real races in the bodies, since
// ThreadSanitizer matches it against every frame of both stacks, and every body runs under
// parallel_for's frames. With one thread per arena, ThreadSanitizer still checks every thread of
// FullBand's own: the trainer and its controllers, the latest-wins runners, and several threads
// calling the oneTBB computations at once. Races between the chunks of one parallel loop are
// checked instead by the normal and AddressSanitizer suites (tst_concurrency compares every
// parallel result with a one-thread run).
#include <tbb/global_control.h>

namespace {
const tbb::global_control oneThreadPerArena(tbb::global_control::max_allowed_parallelism, 1);
} // namespace
