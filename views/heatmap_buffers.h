#pragma once
// Memory for the frames of a live heatmap lab, reused from one frame to the next. A frame's matrices
// and images are handed to the GUI thread, which drops them when the next frame arrives; the worker
// takes them back once nobody else holds them. At n = 512 with 8 heads a frame is 48 MB, and fresh
// memory costs a page fault every 4 KB: more than the attention itself. Used on the worker only.
#include <Eigen/Dense>

#include <QImage>
#include <QList>

#include <memory>
#include <mutex>
#include <vector>

namespace fb {

class HeatmapBuffers {
public:
    using Matrices = std::vector<Eigen::MatrixXd>;

    // A set of matrices no frame uses any more (with its memory), else a new empty one.
    std::shared_ptr<Matrices> takeMatrices();
    // Remembers a set handed out with a frame, to take it back when the frame is gone.
    void keepMatrices(const std::shared_ptr<Matrices> &matrices);

    // An image of the size no frame uses any more, else a null image.
    QImage takeImage(QSize size);
    // Remembers an image handed out with a frame.
    void keepImage(const QImage &image);

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<Matrices>> matrices_;
    QList<QImage> images_;
};

} // namespace fb
