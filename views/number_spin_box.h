#pragma once
#include <QDoubleSpinBox>

namespace fb {

// A spin box that shows numbers the way people write them (10000, 0.008, 1e+06) instead of a
// fixed number of decimals, and steps multiplicatively when logarithmic.
class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget *parent = nullptr);
    void setLogarithmic(bool on) { logarithmic_ = on; }
    void setIntegerMultiple(long long m) { integerMultiple_ = m; }  // 0: real numbers

    QString textFromValue(double value) const override;
    double valueFromText(const QString &text) const override;
    QValidator::State validate(QString &text, int &pos) const override;
    void stepBy(int steps) override;

private:
    bool logarithmic_ = false;
    long long integerMultiple_ = 0;
};

} // namespace fb
