#pragma once
// The comparison's table (issue 29): a row per configuration, its colour the charts' colour for it:
// parameters, FLOPs per step, KV-cache bytes per token at inference, ms per step, held-out loss,
// accuracy (— when the task has no exact answers), sink share and status. Draws what it is given.
#include "core/transformer/transformer_report.h"

#include <QTableWidget>

#include <vector>

namespace fb {

struct CompareRow;

class CompareTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { ConfigColumn, ParamsColumn, FlopsColumn, KvColumn, MsColumn, LossColumn, RepeatColumn,
                  AccuracyColumn, SinkColumn, StatusColumn, ColumnCount };

    explicit CompareTable(QWidget *parent = nullptr);

    // The rows of a comparison: sizes known before training, the trained figures once present
    // (status "training" until then).
    // colours: each row's colour index (its line in the panel); empty: 0, 1, 2 ...
    void setRows(const std::vector<CompareRow> &rows, bool trained, const std::vector<int> &colours = {});
    QString cell(int row, Column column) const;
    // A configuration's status while the comparison runs ("evaluating" once its steps are done).
    void setStatus(int row, const QString &status);
    // While the comparison runs: a configuration's latest held-out figures (loss, repeat loss,
    // accuracy) at `step`, in grey until the final ones replace them ("…" before the first).
    void showHeldout(int row, const TransformerResult::HeldoutPoint &point);

    // Tall enough for the header and every row (up to five, wrapped labels too), no taller.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;  // wrapped rows change the height asked

private:
    // The sink share gives way (to its tooltip-free absence) when the variants' longest word
    // ("deltanet" of "mixer=gated-deltanet") would not fit their column beside it.
    void fitColumns();
};

} // namespace fb
