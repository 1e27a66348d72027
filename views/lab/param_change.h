#pragma once
// One parameter change of a lab, for its undo stack (Ctrl+Z, Ctrl+Shift+Z): the values before and
// after. The changes of one drag (the same parameter moved again within a second) merge into one
// step, and a step that ends where it began disappears.
#include "core/lab/param_spec.h"

#include <QElapsedTimer>
#include <QUndoCommand>

#include <functional>

namespace fb {

class ParamChange : public QUndoCommand {
public:
    // apply sets the lab's values without recording them again. The change has already happened
    // when the command is pushed: the first redo() does nothing.
    ParamChange(const LabSpec &spec, ParamValues before, ParamValues after,
                std::function<void(const ParamValues &)> apply);

    void undo() override;
    void redo() override;
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand *other) override;

    // "base 10000 → 500000" (labels and the lab's own number format).
    static QString describe(const LabSpec &spec, const ParamValues &before, const ParamValues &after);
    static constexpr qint64 kMergeMs = 1000;

private:
    const LabSpec &spec_;
    ParamValues before_, after_;
    std::function<void(const ParamValues &)> apply_;
    QElapsedTimer sinceLast_;
    bool applied_ = true;
};

} // namespace fb
