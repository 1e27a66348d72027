#pragma once
// The presenter view: in lecture mode, on a second screen (the lecturer's laptop), a window with the
// current slide's notes, the slide number, the next slide's title and the time since lecture mode
// began. It is never shown on the projector's screen: with only one screen it stays hidden (tests
// force it on with setForced).
#include "app/scene/scene.h"

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QScreen;
class QTimer;

namespace fb {

class PresenterView : public QWidget {
    Q_OBJECT
public:
    explicit PresenterView(QWidget *parent = nullptr);

    // Lecture mode began (or the screens changed) with the projector on `projector`: shows the view
    // on another screen if there is one (or anywhere if forced), hides it otherwise; starts the
    // clock unless it runs.
    void start(const QScreen *projector);
    void stop();
    // The deck and the slide shown; position -1: no slide.
    void follow(const Deck &deck, int position);
    void setBlack(bool black);

    // Shows the view even with one screen (tests; a lecturer rehearsing on one screen).
    void setForced(bool forced) { forced_ = forced; }

    // The screen for the view: any screen but the projector's; nullptr if there is none.
    static QScreen *otherScreen(const QScreen *projector);

    QString notesText() const;
    QString counterText() const;
    QString titleText() const;
    QString nextText() const;
    QString clockText() const;

private:
    void tick();

    QLabel *counter_ = nullptr;
    QLabel *clock_ = nullptr;
    QLabel *title_ = nullptr;
    QPlainTextEdit *notes_ = nullptr;
    QLabel *next_ = nullptr;
    QTimer *timer_ = nullptr;
    QElapsedTimer elapsed_;
    QString counterBase_;
    bool black_ = false;
    bool forced_ = false;
};

} // namespace fb
