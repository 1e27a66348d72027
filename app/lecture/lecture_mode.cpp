#include "app/lecture/lecture_mode.h"

#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "app/lecture/slide_player.h"
#include "app/lecture/presenter_view.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"
#include "views/training/training_lab_view.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFontMetricsF>
#include <QLineEdit>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>

#include <algorithm>
#include <cmath>

namespace fb {

LectureMode::LectureMode(MainWindow *window)
    : QObject(window)
    , window_(window)
{
    header_ = new QLabel;
    header_->setObjectName(QStringLiteral("lectureHeader"));
    // A long slide title takes a second line: unwrapped, it would make the window wider than a
    // 1024 x 768 projector.
    header_->setWordWrap(true);
    header_->hide();
    sizeHeader();
    black_ = new QWidget(window_);
    black_->setObjectName(QStringLiteral("lectureBlack"));
    black_->setStyleSheet(QStringLiteral("background:black;"));
    black_->setAttribute(Qt::WA_StyledBackground);
    black_->hide();
    player_ = new SlidePlayer(this);
    presenter_ = new PresenterView(window_);
    // A screen plugged in or out during the lecture: the presenter view moves or hides.
    auto replace = [this] { if (active_) presenter_->start(window_->screen()); };
    connect(qApp, &QGuiApplication::screenAdded, this, replace);
    connect(qApp, &QGuiApplication::screenRemoved, this, replace);
    qApp->installEventFilter(this);
}

void LectureMode::setDeck(const Deck &deck, int position)
{
    deck_ = deck;
    position_ = -1;
    if (!deck_.scenes.isEmpty()) show(qBound(0, position, int(deck_.scenes.size()) - 1));
    updateHeader();
}

void LectureMode::enter()
{
    if (active_) return;
    active_ = true;
    wasFullScreen_ = window_->isFullScreen();
    normalFont_ = QApplication::font();
    QFont big = normalFont_;
    big.setPointSizeF(normalFont_.pointSizeF() * kFontScale);
    QApplication::setFont(big);
    // The charts fill the screen; F6 brings the parameter panel back.
    for (int i = 0; i < window_->labCount(); ++i) {
        window_->lab(i)->setPresentationScale(kFontScale);
        window_->lab(i)->setSideVisible(false);
        // A training that starts, pauses or ends (by key, button or itself) changes what space does
        // next: the header says so.
        // So does a text file chosen for an opened model (its values then pass the rules).
        if (auto *trainer = qobject_cast<TrainingLabView *>(window_->lab(i))) {
            connect(trainer, &TrainingLabView::stateChanged, this, &LectureMode::refreshHeader, Qt::UniqueConnection);
            connect(trainer->panel(), &ParamPanel::valuesChanged, this, &LectureMode::refreshHeader, Qt::UniqueConnection);
        }
    }
    window_->setSidebarVisible(false);
    window_->setExplanationShown(false);  // the slide is for the charts; F7 brings the text back
    window_->menuBar()->hide();
    sizeHeader();
    header_->show();
    updateHeader();
    window_->showFullScreen();
    playCurrent();
    presenter_->start(window_->screen());
    if (presenter_->isVisible()) window_->activateWindow();  // the clicker's keys stay here
    Q_EMIT activeChanged(true);
}

void LectureMode::setParametersShown(bool shown)
{
    for (int i = 0; i < window_->labCount(); ++i) {
        window_->lab(i)->setPresentationScale(shown ? kFontScaleBesideParameters : kFontScale);
        window_->lab(i)->setSideVisible(shown);
    }
}

void LectureMode::leave()
{
    if (!active_) return;
    active_ = false;
    player_->stop();
    QApplication::setFont(normalFont_);
    for (int i = 0; i < window_->labCount(); ++i) {
        window_->lab(i)->setPresentationScale(1.0);
        window_->lab(i)->setSideVisible(true);
    }
    window_->setSidebarVisible(true);
    window_->setExplanationShown(window_->explanationPreference());
    window_->menuBar()->show();
    header_->hide();
    setBlack(false);
    if (!wasFullScreen_) window_->showNormal();
    presenter_->stop();
    Q_EMIT activeChanged(false);
}

QString LectureMode::step(int delta)
{
    if (deck_.scenes.isEmpty()) return tr("no deck is open");
    return show(qBound(0, position_ + delta, int(deck_.scenes.size()) - 1));
}

QString LectureMode::show(int position)
{
    if (position < 0 || position >= deck_.scenes.size()) return tr("no scene %1 in this deck").arg(position + 1);
    if (position == position_) return {};
    player_->stop();  // leaving an animation slide stops it
    const QString err = window_->applyScene(deck_.scenes[position]);
    if (err.isEmpty()) position_ = position;
    updateHeader();
    if (err.isEmpty()) {
        playCurrent();
        Q_EMIT positionChanged(position_);
    }
    return err;
}

void LectureMode::playCurrent()
{
    if (!active_ || position_ < 0 || position_ >= deck_.scenes.size()) return;
    const Scene &s = deck_.scenes[position_];
    const int index = labIndex(s.lab);
    if (index < 0) return;
    if (s.animation.isSet()) player_->play(window_->lab(index), s.animation);
    // A slide that asks for it starts its training on entering (a clicker has no Start key).
    auto *trainer = qobject_cast<TrainingLabView *>(window_->lab(index));
    if (s.trainOnEnter && trainer && trainer->state() == TrainingLabView::State::Idle) trainer->start();
    updateHeader();
}

void LectureMode::refreshHeader()
{
    if (active_) updateHeader();
}

TrainingLabView *LectureMode::currentTrainer() const
{
    if (position_ < 0 || position_ >= deck_.scenes.size()) return nullptr;
    const int index = labIndex(deck_.scenes[position_].lab);
    return index >= 0 ? qobject_cast<TrainingLabView *>(window_->lab(index)) : nullptr;
}

bool LectureMode::isBlack() const
{
    return !black_->isHidden();
}

void LectureMode::setBlack(bool on)
{
    if (on) {
        black_->setGeometry(window_->rect());
        black_->raise();
    }
    black_->setVisible(on);
    presenter_->setBlack(on);
}

void LectureMode::sizeHeader()
{
    // The slide title is read from the back of the room: letters 4% of the screen's height.
    const QScreen *screen = window_->screen() ? window_->screen() : QGuiApplication::primaryScreen();
    const int screenHeight = screen ? screen->geometry().height() : 768;
    const int px = std::max(16, int(std::ceil(screenHeight * kTitleFraction)));
    const int pad = std::max(4, int(std::lround(screenHeight * 0.008)));
    header_->setStyleSheet(QStringLiteral("QLabel { background:#1f2a44; color:white; padding:%1px 18px; "
                                          "font-weight:bold; font-size:%2px; }").arg(pad).arg(px));
}

QStringList LectureMode::spaceWords(const QFont &font)
{
    QStringList words { tr("space trains"), tr("space pauses"), tr("space resumes"), tr("space retrains"), tr("stopping") };
    const QFontMetricsF fm(font);
    qreal widest = 0;
    for (QString &w : words) {
        w.replace(QLatin1Char(' '), QChar(0x00a0));
        widest = std::max(widest, fm.horizontalAdvance(w));
    }
    for (QString &w : words)
        while (fm.horizontalAdvance(w + QChar(0x00a0)) <= widest + 0.5 * fm.horizontalAdvance(QChar(0x00a0)))
            w += QChar(0x00a0);
    return words;
}

void LectureMode::updateHeader()
{
    presenter_->follow(deck_, position_);
    if (deck_.scenes.isEmpty() || position_ < 0) {
        header_->setText(tr("FullBand lecture mode — Esc leaves, F6 shows the parameters, B blacks out"));
        return;
    }
    const Scene &s = deck_.scenes[position_];
    // The counter "7 / 11" never breaks across the header's two lines, and no line starts with the
    // separator: no-break spaces before each "·" keep it at the end of the line before (kSeparator).
    QString text = s.title.isEmpty() ? s.lab : s.title;
    text += kSeparator + QStringLiteral("%1\u00a0/\u00a0%2").arg(position_ + 1).arg(deck_.scenes.size());
    // The deck's title too, unless the slide's own is long: the header stays one or two lines.
    if (!deck_.title.isEmpty() && text.size() + deck_.title.size() <= 70)
        text += kSeparator + deck_.title;
    // What space does now, in words of about one length ("space pauses", "space resumes"): a header
    // of two lines stays two lines when the state changes, and the slide below does not jump. (A
    // header held at its tallest state's height cost slides 12 and 13 their charts' height.)
    QString state;
    if (player_->isActive()) {  // an animation: space drives it, not a training
        if (player_->isPaused()) state = tr("paused (space plays)");
    } else if (const TrainingLabView *trainer = currentTrainer()) {
        // an opened text model, its text file not chosen (its values shown without the rules)
        const bool textUnknown = trainer->panel()->rulesSkipped() && trainer->values().text("task") == "text";
        header_->ensurePolished();  // the style sheet's font
        const QStringList words = spaceWords(header_->font());
        switch (trainer->state()) {
        case TrainingLabView::State::Idle: state = textUnknown ? tr("F6: choose its text file to train") : words[0]; break;
        case TrainingLabView::State::Running: state = words[1]; break;
        case TrainingLabView::State::Paused: state = words[2]; break;
        case TrainingLabView::State::Stopping: state = words[4]; break;
        case TrainingLabView::State::Done: state = textUnknown ? tr("F6: choose its text file to train again") : words[3]; break;
        }
    }
    header_->setText(state.isEmpty() ? text : text + kSeparator + state);
}

bool LectureMode::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == window_ && event->type() == QEvent::Resize && isBlack()) black_->setGeometry(window_->rect());
    if (!active_ || event->type() != QEvent::KeyPress) return QObject::eventFilter(watched, event);
    auto *w = qobject_cast<QWidget *>(watched);
    // Only keys aimed at this window or the presenter view (not at an open dialog).
    if (!w || (w->window() != window_ && w->window() != presenter_)) return QObject::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent *>(event)->key();
    // A black screen: B or . again (or Esc) brings the slide back; any other key brings it back
    // and does what it does.
    if (isBlack()) {
        setBlack(false);
        if (key == Qt::Key_B || key == Qt::Key_Period || key == Qt::Key_Escape) return true;
    }
    // Arrows and space still move a focused slider or edit a field; Page Up / Down always step.
    const bool editing = qobject_cast<QAbstractSlider *>(w) || qobject_cast<QAbstractSpinBox *>(w)
        || qobject_cast<QLineEdit *>(w) || qobject_cast<QComboBox *>(w);
    if (editing && key != Qt::Key_PageDown && key != Qt::Key_PageUp && key != Qt::Key_Escape)
        return QObject::eventFilter(watched, event);
    switch (key) {
    case Qt::Key_Space:
        // On an animation slide space pauses and resumes it; the other keys still step the deck.
        if (player_->isActive()) {
            player_->togglePause();
            updateHeader();  // the header says "paused"
            return true;
        }
        // On a training slide space starts, pauses and resumes the training.
        if (TrainingLabView *trainer = currentTrainer()) {
            trainer->toggleTraining();
            updateHeader();
            return true;
        }
        step(+1);
        return true;
    case Qt::Key_PageDown:
    case Qt::Key_Right:
    case Qt::Key_Down:
        step(+1);
        return true;
    case Qt::Key_PageUp:
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_Backspace:
        step(-1);
        return true;
    case Qt::Key_Escape:
        leave();
        return true;
    case Qt::Key_B:
    case Qt::Key_Period:
        setBlack(true);
        return true;
    default:
        return QObject::eventFilter(watched, event);
    }
}

} // namespace fb
