#include "views/widgets/heatmap_buffers.h"

#include <atomic>

namespace fb {

namespace {

constexpr qsizetype kMaxImages = 4 * 2 * 16;  // four frames of two images per head, up to 16 heads

} // namespace

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
