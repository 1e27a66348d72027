#pragma once
// The transformer lab's length-generalisation table, filled after a training: one row per
// positional scheme and RoPE rescaling, the held-out loss at T, 2T and 4T tokens (for the
// induction tasks the loss on the repeat, which is what an induction head should keep low).
#include <QTableWidget>

#include <vector>

namespace fb {

struct LengthRow;

class LengthTable : public QTableWidget {
    Q_OBJECT
public:
    explicit LengthTable(QWidget *parent = nullptr);
    // rows of TransformerResult::lengths; repeat: show the repeat's loss (induction tasks). Rows
    // without losses (transformerLengthRows, while a run trains) show "…" in their cells, so the
    // table takes its place when the run starts, not when its numbers come.
    void setRows(const std::vector<LengthRow> &rows, bool repeat);
    void clearRows();
    // Filled, as wide as its columns' contents and headers: the loss curves beside give way, no
    // cell is cut ("3.…") and no scroll bar appears (a slide with the parameter column shown).
    QSize minimumSizeHint() const override;
};

} // namespace fb
