#include "app/lecture/presenter_view.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScreen>
#include <QTimer>
#include <QVBoxLayout>

namespace fb {

PresenterView::PresenterView(QWidget *parent)
    : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("presenterView"));
    setWindowTitle(tr("FullBand presenter view"));
    // Showing it must not take the keyboard from the projector's window (the clicker's keys).
    setAttribute(Qt::WA_ShowWithoutActivating);
    setAttribute(Qt::WA_StyledBackground);
    setStyleSheet(QStringLiteral("#presenterView { background:#10141f; } QLabel { color:white; }"
                                 "QPlainTextEdit { background:#1b2233; color:white; border:none; }"));
    counter_ = new QLabel;
    counter_->setObjectName(QStringLiteral("presenterCounter"));
    clock_ = new QLabel;
    clock_->setObjectName(QStringLiteral("presenterClock"));
    clock_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    title_ = new QLabel;
    title_->setObjectName(QStringLiteral("presenterTitle"));
    title_->setWordWrap(true);
    notes_ = new QPlainTextEdit;
    notes_->setObjectName(QStringLiteral("presenterNotes"));
    notes_->setReadOnly(true);
    notes_->setFocusPolicy(Qt::NoFocus);
    notes_->setPlaceholderText(tr("No notes for this slide"));
    next_ = new QLabel;
    next_->setObjectName(QStringLiteral("presenterNext"));
    next_->setWordWrap(true);
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    counter_->setFont(big);
    clock_->setFont(big);
    QFont mid = font();
    mid.setPointSizeF(mid.pointSizeF() * 1.4);
    title_->setFont(mid);
    next_->setFont(mid);
    QFont text = font();
    text.setPointSizeF(text.pointSizeF() * 1.6);
    notes_->setFont(text);

    auto *top = new QHBoxLayout;
    top->addWidget(counter_, 1);
    top->addWidget(clock_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 18, 24, 18);
    layout->addLayout(top);
    layout->addWidget(title_);
    layout->addWidget(notes_, 1);
    layout->addWidget(next_);
    timer_ = new QTimer(this);
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, &PresenterView::tick);
    follow(Deck {}, -1);
    tick();
    resize(800, 600);
}

QScreen *PresenterView::otherScreen(const QScreen *projector)
{
    for (QScreen *s : QGuiApplication::screens())
        if (s != projector) return s;
    return nullptr;
}

void PresenterView::start(const QScreen *projector)
{
    // The clock runs from the start of the lecture (a screen plugged in later only moves the view).
    if (!timer_->isActive()) elapsed_.start();
    tick();
    timer_->start();
    QScreen *screen = otherScreen(projector);
    if (!screen && !forced_) {
        hide();
        return;
    }
    if (screen) {
        setScreen(screen);
        setGeometry(screen->availableGeometry());
        showMaximized();
    } else {
        show();
    }
}

void PresenterView::stop()
{
    timer_->stop();
    hide();
}

void PresenterView::follow(const Deck &deck, int position)
{
    if (position < 0 || position >= deck.scenes.size()) {
        counterBase_ = deck.scenes.isEmpty() ? tr("No deck") : tr("Slide – / %1").arg(deck.scenes.size());
        title_->setText(deck.scenes.isEmpty() ? tr("Lecture mode on the current lab (open or build a deck: Ctrl+D)")
                                              : QString());
        notes_->setPlainText(QString());
        next_->setText(QString());
    } else {
        const Scene &s = deck.scenes[position];
        counterBase_ = tr("Slide %1 / %2").arg(position + 1).arg(deck.scenes.size());
        title_->setText(s.title.isEmpty() ? s.lab : s.title);
        notes_->setPlainText(s.notes);
        if (position + 1 < deck.scenes.size()) {
            const Scene &n = deck.scenes[position + 1];
            next_->setText(tr("Next: %1").arg(n.title.isEmpty() ? n.lab : n.title));
        } else {
            next_->setText(tr("Next: end of the deck"));
        }
    }
    counter_->setText(black_ ? tr("%1   ·   screen black (B)").arg(counterBase_) : counterBase_);
}

void PresenterView::setBlack(bool black)
{
    black_ = black;
    counter_->setText(black_ ? tr("%1   ·   screen black (B)").arg(counterBase_) : counterBase_);
}

void PresenterView::tick()
{
    const qint64 s = elapsed_.isValid() ? elapsed_.elapsed() / 1000 : 0;
    clock_->setText(QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
                        .arg(s % 60, 2, 10, QLatin1Char('0')));
}

QString PresenterView::notesText() const { return notes_->toPlainText(); }
QString PresenterView::counterText() const { return counter_->text(); }
QString PresenterView::titleText() const { return title_->text(); }
QString PresenterView::nextText() const { return next_->text(); }
QString PresenterView::clockText() const { return clock_->text(); }

} // namespace fb
