#include "core/numeric/matrix_pool.h"

#include <atomic>

namespace fb {

namespace {
// Results alive at once: one on screen, one on its way, one being computed (and a spare).
constexpr std::size_t kMaxSets = 4;
} // namespace

std::shared_ptr<MatrixPool::Matrices> MatrixPool::take()
{
    const std::lock_guard lock(mutex_);
    std::shared_ptr<Matrices> set;
    for (auto it = sets_.begin(); it != sets_.end(); ++it) {
        if (it->use_count() != 1) continue;  // a result still shows it
        // The other thread let go of it (its release is ordered): see its last reads before writing.
        std::atomic_thread_fence(std::memory_order_acquire);
        set = *it;
        sets_.erase(it);
        break;
    }
    if (!set) set = std::make_shared<Matrices>();
    sets_.push_back(set);
    // Too many kept (sizes changed, results piled up): drop the oldest free ones.
    for (auto it = sets_.begin(); sets_.size() > kMaxSets && it != sets_.end();) {
        if (it->use_count() == 1) it = sets_.erase(it);
        else ++it;
    }
    return set;
}

} // namespace fb
