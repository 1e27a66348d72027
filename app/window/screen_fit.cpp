#include "app/window/screen_fit.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLayout>
#include <QResizeEvent>
#include <QScreen>
#include <QSplitter>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace fb {

ScreenFit::ScreenFit(QWidget *window)
    : QObject(window)
    , window_(window)
{
    window->installEventFilter(this);
}

bool ScreenFit::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != window_ || window_->isFullScreen() || window_->isMaximized()) return false;
    if (event->type() == QEvent::Resize) {
        const QSize size = static_cast<QResizeEvent *>(event)->size();
        const bool heldAtMinimum = size.width() == window_->minimumWidth() || size.height() == window_->minimumHeight();
        if (heldAtMinimum && !onScreen()) {
            overgrown_ = true;
            attempts_ = 0;
            queueFit();
        }
    } else if (event->type() == QEvent::LayoutRequest && overgrown_) {
        queueFit();  // the window's minimum is recomputed: perhaps it fits again now
    }
    return false;
}

bool ScreenFit::onScreen() const
{
    const QScreen *s = window_->screen();
    return !s || s->availableGeometry().contains(window_->frameGeometry());
}

void ScreenFit::queueFit()
{
    if (queued_ || ++attempts_ > kAttempts) return;
    queued_ = true;
    QTimer::singleShot(0, this, [this] {
        queued_ = false;
        fit();
    });
}

void ScreenFit::fit()
{
    const QScreen *s = window_->screen();
    if (!s || window_->isFullScreen() || window_->isMaximized()) return;
    // A splitter does not pass on its panes' smaller minimum: the layout around it keeps the one it
    // had when the window grew. The layouts then take in what changed since.
    for (QSplitter *split : window_->findChildren<QSplitter *>()) split->updateGeometry();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (QLayout *l = window_->layout()) {
        l->invalidate();
        l->activate();  // the window's minimum size follows
    }
    // The tries count while the minimum stays as it was: a lab still settling (a result on its way)
    // gets more of them.
    const QSize least = window_->minimumSizeHint();
    if (least != lastMinimum_) {
        lastMinimum_ = least;
        attempts_ = 0;
    }
    const QRect area = s->availableGeometry();
    const QSize frame = window_->frameGeometry().size() - window_->size();
    const QSize fitted = window_->size().boundedTo(area.size() - frame).expandedTo(least);
    if (fitted != window_->size()) window_->resize(fitted);
    const QRect now = window_->frameGeometry();
    if (now.size().boundedTo(area.size()) != now.size()) return;  // still too large: the next try
    overgrown_ = false;
    if (!area.contains(now))
        window_->move(std::clamp(now.x(), area.left(), area.right() + 1 - now.width()),
                      std::clamp(now.y(), area.top(), area.bottom() + 1 - now.height()));
}

} // namespace fb
