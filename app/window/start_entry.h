#pragma once
// One lab on the start page: its icon, title, the section of the chapter it follows and what it
// shows, from core's list of labs. Clicking it (or Enter, or space, when it has the focus) opens the lab.
#include <QFrame>

namespace fb {

struct LabEntry;

class StartEntry : public QFrame {
    Q_OBJECT
public:
    // beginHere marks the lab a first session starts with.
    StartEntry(const LabEntry &lab, bool beginHere, QWidget *parent = nullptr);

    QString name() const { return name_; }

Q_SIGNALS:
    void clicked();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    QString name_;
};

} // namespace fb
