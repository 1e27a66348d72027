#include "views/lab/explanation_panel.h"

#include "views/widgets/selectable_text.h"

#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fb {

ExplanationPanel::ExplanationPanel(const QString &html, QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("labExplanation"));
    setStyleSheet(QStringLiteral("QFrame#labExplanation { background:#f4f6fa; border:1px solid #d9dfea; "
                                 "border-radius:4px; }"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 4);
    layout->setSpacing(0);

    toggle_ = new QToolButton;
    toggle_->setObjectName(QStringLiteral("explanationToggle"));
    toggle_->setText(tr("Explanation"));
    toggle_->setToolTip(tr("Show or hide the explanation of what this lab shows (F7)"));
    toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle_->setAutoRaise(true);
    toggle_->setCheckable(true);
    toggle_->setChecked(true);
    toggle_->setArrowType(Qt::DownArrow);
    QFont bold = toggle_->font();
    bold.setBold(true);
    toggle_->setFont(bold);
    layout->addWidget(toggle_, 0, Qt::AlignLeft);

    text_ = new SelectableText;
    text_->setBreakLongWords(true);  // a column beside the charts on a slide is narrow for its formulas
    text_->setObjectName(QStringLiteral("explanationText"));
    text_->setTextFormat(Qt::RichText);
    text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    text_->setMargin(4);
    text_->setText(html);
    body_ = new QScrollArea;
    body_->setObjectName(QStringLiteral("explanationBody"));
    body_->setWidget(text_);
    body_->setWidgetResizable(true);
    body_->setFrameShape(QFrame::NoFrame);
    body_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    body_->setStyleSheet(QStringLiteral("QScrollArea { background:transparent; }"));
    body_->viewport()->setAutoFillBackground(false);
    layout->addWidget(body_, 1);

    textPt_ = text_->font().pointSizeF();
    togglePt_ = toggle_->font().pointSizeF();

    connect(toggle_, &QToolButton::clicked, this, [this](bool on) {
        setExpanded(on);
        Q_EMIT toggled(on);
    });
}

void ExplanationPanel::setFontScale(double scale)
{
    scale_ = scale;
    QFont f = text_->font();
    f.setPointSizeF(textPt_ * scale);
    text_->setFont(f);
    QFont t = toggle_->font();
    t.setPointSizeF(togglePt_ * scale);
    toggle_->setFont(t);
    fitBody();
}

QString ExplanationPanel::text() const
{
    return text_->text();
}

void ExplanationPanel::setText(const QString &html)
{
    text_->setText(html);
    fitBody();
}

void ExplanationPanel::setExpanded(bool expanded)
{
    toggle_->setChecked(expanded);
    if (expanded == expanded_) return;
    expanded_ = expanded;
    toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    fitBody();  // shows the body, where it has room
    Q_EMIT expandedChanged(expanded);
}

QSize ExplanationPanel::sizeHint() const
{
    const QSize natural = QFrame::sizeHint();
    return QSize(std::min(natural.width(), 320), natural.height());
}

void ExplanationPanel::setBodyLimit(int maxHeight)
{
    limit_ = maxHeight;
    fitBody();
}

void ExplanationPanel::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    if (event->size().width() != event->oldSize().width()) fitBody();
}

void ExplanationPanel::fitBody()
{
    // Less room than two lines of text (a slide at 1024 x 768 with its parameters and explanation
    // both shown): no empty strip under an open toggle, the toggle says why instead.
    const bool room = limit_ < 0 || limit_ >= 2 * text_->fontMetrics().lineSpacing() + 8;
    body_->setVisible(expanded_ && room);
    const QString title = room || !expanded_ ? tr("Explanation") : tr("Explanation: no room at this size");
    if (toggle_->text() != title) toggle_->setText(title);
    if (limit_ < 0) {
        body_->setMinimumHeight(0);
        body_->setMaximumHeight(QWIDGETSIZE_MAX);
        body_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        return;
    }
    if (!room) return;
    // The text's height at the body's width: all of it when it fits, else its whole lines within the
    // limit and a scroll bar.
    const QMargins m = layout()->contentsMargins();
    const int width = std::max(1, contentsRect().width() - m.left() - m.right());
    const int need = text_->heightForWidth(width);
    const bool fits = need <= limit_;
    body_->setVerticalScrollBarPolicy(fits ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    if (fits) {
        body_->setFixedHeight(need);
        return;
    }
    // The lines that fit whole, beside the scroll bar: no line cut in half at the strip's foot (at
    // 1024 x 768 a slide's strip showed a line and a half).
    // (a transient scroll bar lies over the text and takes none of its width)
    const bool over = body_->style()->styleHint(QStyle::SH_ScrollBar_Transient, nullptr, body_->verticalScrollBar());
    const int bar = over ? 0 : body_->verticalScrollBar()->sizeHint().width();
    const int whole = text_->wholeLinesHeight(std::max(1, width - bar), limit_);
    body_->setFixedHeight(whole > 0 ? whole : limit_);
}

} // namespace fb
