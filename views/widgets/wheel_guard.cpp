#include "views/widgets/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFocusEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>

namespace fb {

WheelGuard::WheelGuard(QObject *parent)
    : QObject(parent)
{
}

void WheelGuard::install(QWidget *root)
{
    auto *guard = new WheelGuard(root);
    const auto watch = [guard](QWidget *w) {
        if (w->property("fbWheelGuarded").toBool()) return;  // installed twice: one guard is enough
        w->setProperty("fbWheelGuarded", true);
        w->setFocusPolicy(Qt::StrongFocus);  // focus by click or tab, never by the wheel
        w->installEventFilter(guard);
    };
    for (QAbstractSlider *s : root->findChildren<QAbstractSlider *>())
        if (!qobject_cast<QScrollBar *>(s)) watch(s);
    for (QAbstractSpinBox *s : root->findChildren<QAbstractSpinBox *>()) watch(s);
    for (QComboBox *c : root->findChildren<QComboBox *>()) watch(c);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    auto *w = qobject_cast<QWidget *>(watched);
    // Picked: focused by a click, Tab or a shortcut, not by the window handing out focus on start.
    if (event->type() == QEvent::FocusIn) {
        const Qt::FocusReason reason = static_cast<QFocusEvent *>(event)->reason();
        if (reason == Qt::MouseFocusReason || reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason
            || reason == Qt::ShortcutFocusReason)
            picked_ = w;
    } else if (event->type() == QEvent::FocusOut && picked_ == w) {
        picked_ = nullptr;
    }
    if (event->type() != QEvent::Wheel || forwarding_) return QObject::eventFilter(watched, event);
    if (!w || (w == picked_ && w->hasFocus())) return QObject::eventFilter(watched, event);
    // Not the focused control: the wheel scrolls the panel (when it can), the control stays as it is.
    for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (auto *area = qobject_cast<QScrollArea *>(p)) {
            forwarding_ = true;
            QApplication::sendEvent(area->verticalScrollBar(), event);
            forwarding_ = false;
            break;
        }
    }
    return true;
}

} // namespace fb
