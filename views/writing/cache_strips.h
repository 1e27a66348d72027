#pragma once
// The KV cache at work, drawn: one strip per attention head (rows "L1 H1", "L1 H2", ...), each the
// newest character's attention over the positions the cache holds, left to right from position 0;
// the strip is as wide as the cache's capacity (the trained length T) and filled up to the
// positions held, so it grows while the model writes and halves when the context is full. The
// image comes coloured from the writing's worker (views/writing/writing_run.h); this widget paints.
#include <QImage>
#include <QWidget>

namespace fb {

class CacheStrips : public QWidget {
    Q_OBJECT
public:
    explicit CacheStrips(QWidget *parent = nullptr);

    // image: (layers * heads) rows of t pixels; context: T, the width of a full strip.
    void setStrips(const QImage &image, int layers, int heads, int context);
    void clear();
    void setFontScale(double scale);

    int layers() const { return layers_; }
    int heads() const { return heads_; }
    int positions() const { return image_.width(); }
    // The caption on the first line at the present width and font: the longest wording that fits
    // ("Each head over the KV cache", "Heads over the KV cache", "KV cache"), the shortest elided.
    QString caption() const;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QFont labelFont() const;

    QImage image_;
    int layers_ = 0, heads_ = 0, context_ = 0;
    double fontScale_ = 1.0;
};

} // namespace fb
