#pragma once
// Images for the frames of a live heatmap lab, reused from one frame to the next. A frame's images are
// handed to the GUI thread, which drops them when the next frame arrives; the worker takes them back
// once nobody else holds them (at n = 512 with 8 heads a frame's images are 16 MB, and fresh memory
// costs a page fault every 4 KB). The matrices behind them come from core's MatrixPool. Used on the
// worker only.
#include <QImage>
#include <QList>

#include <mutex>

namespace fb {

class HeatmapBuffers {
public:
    // An image of the size no frame uses any more, else a null image.
    QImage takeImage(QSize size);
    // Remembers an image handed out with a frame.
    void keepImage(const QImage &image);

private:
    std::mutex mutex_;
    QList<QImage> images_;
};

} // namespace fb
