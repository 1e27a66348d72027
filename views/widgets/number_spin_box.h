#pragma once
#include <QDoubleSpinBox>

#include <utility>
#include <vector>

namespace fb {

// A spin box that shows numbers the way people write them (10000, 0.008, 1e+06) instead of a
// fixed number of decimals, and steps along a ladder of round values when logarithmic
// (core/numeric/log_ladder.h: 4096 -> 8192, 0.002 -> 0.005).
class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget *parent = nullptr);
    // The values the arrows step through (ascending); empty: linear steps.
    void setLadder(std::vector<double> ladder) { ladder_ = std::move(ladder); }
    void setIntegerMultiple(long long m) { integerMultiple_ = m; }  // 0: real numbers

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    void stepBy(int steps) override;

protected:
    // Ctrl+Z and Ctrl+Shift+Z go to the window (the lab's undo of parameter changes), not to the
    // text field's own undo: one undo for every control.
    bool event(QEvent *event) override;

private:
    std::vector<double> ladder_;
    long long integerMultiple_ = 0;
};

} // namespace fb
