#include "views/widgets/steady_button.h"

#include <QFontMetrics>
#include <QStyle>
#include <QStyleOptionButton>

#include <algorithm>

namespace fb {

SteadyButton::SteadyButton(const QStringList &texts, QWidget *parent)
    : QPushButton(texts.value(0), parent)
    , texts_(texts)
{
}

int SteadyButton::widest() const
{
    // as QPushButton sizes its text (no icon, no menu), through the style: its margins, and its
    // least width (which a short text alone gets)
    QStyleOptionButton option;
    initStyleOption(&option);
    int width = 0;
    for (const QString &t : texts_) {
        option.text = t;
        const QSize text = fontMetrics().size(Qt::TextShowMnemonic, t);
        width = std::max(width, style()->sizeFromContents(QStyle::CT_PushButton, &option, text, this).width());
    }
    return width;
}

QSize SteadyButton::sizeHint() const
{
    const QSize shown = QPushButton::sizeHint();
    return { std::max(shown.width(), widest()), shown.height() };
}

} // namespace fb
