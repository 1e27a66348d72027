#include "app/window/toast.h"

#include <QEvent>
#include <QTimer>

#include <algorithm>

namespace fb {

Toast::Toast(QWidget *window)
    : QLabel(window)
{
    setObjectName(QStringLiteral("toast"));
    setStyleSheet(QStringLiteral("QLabel { background: rgba(31,42,68,230); color: white; padding: 8px 16px; "
                                 "border-radius: 6px; }"));
    setWordWrap(true);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    hide();
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &QWidget::hide);
    window->installEventFilter(this);
}

void Toast::showText(const QString &text, int ms)
{
    setText(text);
    place();
    show();
    raise();
    timer_->start(ms);
}

void Toast::place()
{
    const QWidget *w = parentWidget();
    const int width = std::min(w->width() - 40, std::max(200, sizeHint().width()));
    const int height = heightForWidth(width) > 0 ? heightForWidth(width) : sizeHint().height();
    setGeometry((w->width() - width) / 2, w->height() - height - 24, width, height);
}

bool Toast::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible()) place();
    return QLabel::eventFilter(watched, event);
}

} // namespace fb
