#include "views/widgets/scrolled_text.h"

#include "views/widgets/selectable_text.h"

#include <QResizeEvent>
#include <QScreen>
#include <QScrollBar>

#include <algorithm>

namespace fb {

ScrolledText::ScrolledText(SelectableText *text, QWidget *parent)
    : QScrollArea(parent)
    , text_(text)
{
    setObjectName(text->objectName() + QStringLiteral("Scroll"));
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setWidgetResizable(true);
    setWidget(text);
}

int ScrolledText::chromeWidth() const
{
    const QMargins m = contentsMargins();
    return m.left() + m.right();
}

int ScrolledText::heightForWidth(int width) const
{
    const QMargins m = contentsMargins();
    return text_->heightForWidth(std::max(1, width - chromeWidth())) + m.top() + m.bottom();
}

QSize ScrolledText::sizeHint() const
{
    const int preferred = text_->sizeHint().width() + chromeWidth();
    return QSize(preferred, heightForWidth(testAttribute(Qt::WA_Resized) || isVisible() ? width() : preferred));
}

QSize ScrolledText::minimumSizeHint() const
{
    const int width = text_->minimumSizeHint().width() + chromeWidth() + verticalScrollBar()->sizeHint().width();
    const int whole = sizeHint().height();
    int keep = text_->fontMetrics().lineSpacing() * kMinimumLines;
    if (const QScreen *s = screen()) keep = std::max(keep, int(s->availableGeometry().height() * kMinimumShare));
    return QSize(width, std::min(whole, keep));
}

void ScrolledText::resizeEvent(QResizeEvent *event)
{
    QScrollArea::resizeEvent(event);
    // The whole text's height, and with it the size hint and the minimum, follows the width.
    if (event->size().width() != event->oldSize().width()) updateGeometry();
}

} // namespace fb
