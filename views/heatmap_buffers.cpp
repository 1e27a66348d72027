#include "views/heatmap_buffers.h"

#include <atomic>

namespace fb {

namespace {

// Frames alive at once: one on screen, one on its way, one being computed (and a spare).
constexpr std::size_t kMaxSets = 4;
constexpr qsizetype kMaxImages = 4 * 2 * 16;  // four frames of two images per head, up to 16 heads

} // namespace

std::shared_ptr<HeatmapBuffers::Matrices> HeatmapBuffers::takeMatrices()
{
    const std::lock_guard lock(mutex_);
    for (auto it = matrices_.begin(); it != matrices_.end(); ++it) {
        if (it->use_count() != 1) continue;  // a frame still shows it
        // The GUI thread let go of it (its release is ordered): see its last reads before writing.
        std::atomic_thread_fence(std::memory_order_acquire);
        std::shared_ptr<Matrices> set = std::move(*it);
        matrices_.erase(it);
        return set;
    }
    return std::make_shared<Matrices>();
}

void HeatmapBuffers::keepMatrices(const std::shared_ptr<Matrices> &matrices)
{
    const std::lock_guard lock(mutex_);
    matrices_.push_back(matrices);
    // Too many kept (sizes changed, frames piled up): drop the oldest free ones.
    for (auto it = matrices_.begin(); matrices_.size() > kMaxSets && it != matrices_.end();) {
        if (it->use_count() == 1) it = matrices_.erase(it);
        else ++it;
    }
}

QImage HeatmapBuffers::takeImage(QSize size)
{
    const std::lock_guard lock(mutex_);
    for (qsizetype i = 0; i < images_.size(); ++i) {
        if (images_[i].size() != size || !images_[i].isDetached()) continue;
        std::atomic_thread_fence(std::memory_order_acquire);
        return images_.takeAt(i);
    }
    return QImage();
}

void HeatmapBuffers::keepImage(const QImage &image)
{
    const std::lock_guard lock(mutex_);
    images_.append(image);
    // Free images of another size are of no more use (n changed); too many free ones neither.
    for (qsizetype i = 0; i < images_.size();) {
        const bool spare = images_[i].isDetached() && (images_[i].size() != image.size() || images_.size() > kMaxImages);
        if (spare) images_.removeAt(i);
        else ++i;
    }
}

} // namespace fb
