#pragma once
// Lab: multi-head self-attention (218.4.1 - 218.4.4). One heatmap of softmax(QK^T / sqrt(d_k)) per
// head on a shared viridis scale, with each head's entropy against the uniform ln n, and a check
// that RoPE makes the pre-softmax logits of a repeated token Toeplitz (a function of j - i alone).
#include "views/lab_view.h"

class QCheckBox;
class QLabel;

namespace fb {

class HeatmapGrid;

class AttentionView : public LabView {
    Q_OBJECT
public:
    explicit AttentionView(QWidget *parent = nullptr);

    // For tests: the heatmaps and the hover line under them.
    HeatmapGrid *grid() const { return grid_; }
    QLabel *hoverLine() const { return hoverLine_; }
    QCheckBox *logScaleBox() const { return logScale_; }

    // Lecture mode: the heatmaps' fonts scale with the charts'.
    void setPresentationScale(double scale) override;
    // The log colour scale choice, kept in scenes.
    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;

protected:
    void showResult(const std::any &result) override;

private:
    HeatmapGrid *grid_ = nullptr;
    QLabel *hoverLine_ = nullptr;
    QCheckBox *logScale_ = nullptr;
};

} // namespace fb
