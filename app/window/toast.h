#pragma once
// A short message floating over the bottom of the window ("Wrote 3 charts to …"), gone after a few
// seconds. It takes no layout space: nothing moves or shrinks when it appears (a status bar would
// stay for good and squeeze the charts).
#include <QLabel>

class QTimer;

namespace fb {

class Toast : public QLabel {
    Q_OBJECT
public:
    explicit Toast(QWidget *window);

    // Shows text for ms milliseconds (replacing any message shown).
    void showText(const QString &text, int ms = 4000);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QTimer *timer_ = nullptr;
};

} // namespace fb
