#pragma once
// Lab: multi-head self-attention (218.4.1 - 218.4.4). One heatmap of softmax(QK^T / sqrt(d_k)) per
// head on a shared viridis scale, with each head's entropy against the uniform ln n, and a check
// that RoPE makes the pre-softmax logits of a repeated token Toeplitz (a function of j - i alone).
// With sinusoidal positions the table PE(pos, i) the lab adds is shown under the heads, with each
// pair's wavelength; the chapter's cell (218.4.5) runs at the lab's sizes and seed beside it: its
// positional-encoding range and output norm against the printed ones, and its own heads on request.
#include "core/labs/attention_lab.h"
#include "views/widgets/heatmap_grid.h"
#include "views/lab/lab_view_for.h"
#include "views/labs/positional_table.h"

class QCheckBox;
class QLabel;

namespace fb {

// What the worker prepares for one result: the lab's figures and the heatmaps' images.
struct AttentionFrame {
    AttentionLabResult result;
    HeatmapGridData grid;
    HeatmapGridData cellGrid;   // the chapter's cell's heads (empty when the cell did not run)
    PositionalTableData table;  // the sinusoidal table (empty unless positional = sinusoidal)
};

class AttentionView : public LabViewFor<AttentionLab, AttentionFrame> {
    Q_OBJECT
public:
    // What the lab shows, the formula it draws and what to try: rich text for its explanation panel.
    static QString explanationText();

    explicit AttentionView(QWidget *parent = nullptr);

    // For tests: the heatmaps and the hover line under them.
    HeatmapGrid *grid() const { return grid_; }
    QLabel *hoverLine() const { return hoverLine_; }
    QCheckBox *logScaleBox() const { return logScale_; }
    PositionalTable *positionalTable() const { return table_; }
    // Shows the chapter's cell's heads (218.4.5) in the heatmaps instead of the lab's.
    QCheckBox *cellHeadsBox() const { return cellHeads_; }

    // Lecture mode: the heatmaps' fonts scale with the charts'.
    void setPresentationScale(double scale) override;
    // The log colour scale and cell-heads choices, kept in scenes.
    QJsonObject extraState() const override;
    QString setExtraState(const QJsonObject &state) override;

protected:
    void draw(const AttentionFrame &frame) override;

private:
    void showGrid();

    HeatmapGrid *grid_ = nullptr;
    QLabel *hoverLine_ = nullptr;
    double hoverPointSize_ = 10.0;  // at presentation scale 1
    bool presenting_ = false;       // lecture mode's scale: no hint for the mouse
    QCheckBox *logScale_ = nullptr;
    QCheckBox *cellHeads_ = nullptr;
    PositionalTable *table_ = nullptr;
    HeatmapGridData labGrid_, cellGrid_;  // the last frame's: the check box switches between them
    bool causal_ = false;
    QStringList tokens_;
};

} // namespace fb
