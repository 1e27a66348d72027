#include "views/widgets/number_spin_box.h"

#include "core/numeric/log_ladder.h"
#include "core/lab/param_spec.h"

#include <QKeyEvent>

#include <algorithm>
#include <cmath>

namespace fb {

NumberSpinBox::NumberSpinBox(QWidget *parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(12);  // precision is in textFromValue; this only keeps QDoubleSpinBox from rounding
    setKeyboardTracking(false);
    setAccelerated(true);
}

bool NumberSpinBox::event(QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)
            || key->keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z)) {
            event->ignore();
            return true;
        }
    }
    return QDoubleSpinBox::event(event);
}

QString NumberSpinBox::textFromValue(double value) const
{
    if (integerMultiple_ > 0) return QString::number(static_cast<long long>(std::llround(value)));
    // Six significant digits read well and are what the sliders produce.
    QString text = QString::number(value, 'g', 6);
    return text;
}

double NumberSpinBox::valueFromText(const QString &text) const
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? v : value();
}

QValidator::State NumberSpinBox::validate(QString &text, int &) const
{
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("-") || t.endsWith(QLatin1Char('e')) || t.endsWith(QLatin1String("e-"))
        || t.endsWith(QLatin1String("e+")) || t.endsWith(QLatin1Char('.')))
        return QValidator::Intermediate;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok) return QValidator::Invalid;
    if (v < minimum() || v > maximum()) return QValidator::Intermediate;
    return QValidator::Acceptable;
}

void NumberSpinBox::stepBy(int steps)
{
    double v = value();
    if (!ladder_.empty()) {
        setValue(stepAlongLadder(ladder_, v, steps));
        return;
    }
    if (integerMultiple_ > 0) {
        v += double(steps * integerMultiple_);
    } else {
        const double mag = v == 0 ? 1.0 : std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 1);
        v += steps * mag;
    }
    if (integerMultiple_ > 0) v = std::round(v / double(integerMultiple_)) * double(integerMultiple_);
    setValue(std::clamp(v, minimum(), maximum()));
}

} // namespace fb
