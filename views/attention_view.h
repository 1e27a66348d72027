#pragma once
// Lab: multi-head self-attention (218.4.1 - 218.4.4). One heatmap of softmax(QK^T / sqrt(d_k)) per
// head on a shared viridis scale, with each head's entropy against the uniform ln n, and a check
// that RoPE makes the pre-softmax logits of a repeated token Toeplitz (a function of j - i alone).
#include "core/labs/attention_lab.h"
#include "views/heatmap_grid.h"
#include "views/lab_view_for.h"

class QCheckBox;
class QLabel;

namespace fb {

// What the worker prepares for one result: the lab's figures and the heatmaps' images.
struct AttentionFrame {
    AttentionLabResult result;
    HeatmapGridData grid;
};

class AttentionView : public LabViewFor<AttentionLab, AttentionFrame> {
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
    void draw(const AttentionFrame &frame) override;

private:
    HeatmapGrid *grid_ = nullptr;
    QLabel *hoverLine_ = nullptr;
    double hoverPointSize_ = 10.0;  // at presentation scale 1
    QCheckBox *logScale_ = nullptr;
};

} // namespace fb
