#pragma once
// Keeps the mouse wheel from changing a control the user did not pick. Over a slider, spin box or
// combo box that does not have the keyboard focus, the wheel scrolls the panel around it instead
// (the nearest scroll area); once the user clicks or tabs into the control, the wheel changes it.
// Focus the window hands out by itself (the first control when it opens) does not count.
#include <QObject>

class QWidget;

namespace fb {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Watches every slider, spin box and combo box under root that exists now (call it once the
    // panel is built; calling it again picks up controls added since) and gives them tab and click focus, so that the wheel never focuses them.
    // Scroll bars are left alone: the wheel over one scrolls as always.
    static void install(QWidget *root);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit WheelGuard(QObject *parent);
    bool forwarding_ = false;
    QObject *picked_ = nullptr;  // the control the user clicked or tabbed into, while it has focus
};

} // namespace fb
