#pragma once
// Lecture mode: full screen with a projector theme (large fonts, thick lines), the deck's scene
// title and slide counter in a header at least 4% of the screen high, and presenter-clicker keys:
// Page Down / Page Up / arrows / space step through the deck, B or . blacks the screen out (again,
// or any other key, brings it back), Esc leaves. The window's own shortcuts (F5, F6, Ctrl+1 ...)
// work here too: they are the window's actions, not only the hidden menu bar's. A slide with an
// animation (app/scene/scene_animation.h) plays it live in its lab while it is shown in lecture mode
// (app/lecture/slide_player.h); there space pauses and resumes it instead of stepping the deck.
// With a second screen the presenter view shows the notes there (app/lecture/presenter_view.h).
#include "app/scene/scene.h"

#include <QFont>
#include <QObject>

class QLabel;

namespace fb {

class TrainingLabView;

class MainWindow;
class SlidePlayer;
class PresenterView;

class LectureMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kFontScale = 1.6;
    // Between the header's parts: no-break spaces before the dot, so that a line the header wraps
    // ends with it and none starts with it
    static inline const QString kSeparator = QStringLiteral("\u00a0\u00a0\u00a0·   ");
    // The charts' text beside the parameter column (F6): the charts have less room then.
    static constexpr double kFontScaleBesideParameters = 1.3;

    explicit LectureMode(MainWindow *window);

    void setDeck(const Deck &deck, int position = 0);
    const Deck &deck() const { return deck_; }
    int position() const { return position_; }
    bool isActive() const { return active_; }

    void enter();
    void leave();
    void toggle() { active_ ? leave() : enter(); }

    // Shows the scene delta steps away (clamped to the deck). Returns an error message or empty.
    QString step(int delta);
    QString show(int position);

    // F6 in lecture mode: every lab's parameter column shown or hidden, its charts' text set to
    // kFontScaleBesideParameters or kFontScale.
    void setParametersShown(bool shown);

    // Plays the current slide's animation (active only in lecture mode, on an animation slide).
    SlidePlayer *player() const { return player_; }

    // The header strip (scene title, position); the window places it above the labs.
    QLabel *header() const { return header_; }
    // What space does on a training slide, in the header's words: "space trains", "space pauses",
    // "space resumes", "space retrains" (and "stopping", when it does nothing), each one unbreakable
    // unit padded with no-break spaces to the width of the longest in font, so that a header keeps
    // its lines when the state changes.
    static QStringList spaceWords(const QFont &font);

    // The black screen (B or . on a clicker).
    bool isBlack() const;
    void setBlack(bool on);

    // The slide title's letter height (font pixel size) as a fraction of the screen height.
    static constexpr double kTitleFraction = 0.04;

    // The notes window on a second screen (shown only while active, and only with two screens).
    PresenterView *presenter() const { return presenter_; }

Q_SIGNALS:
    void positionChanged(int position);
    void activeChanged(bool active);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The lab of the current slide if it trains (space starts, pauses and resumes it), else nullptr.
    TrainingLabView *currentTrainer() const;
    void refreshHeader();  // updateHeader while lecturing
    void updateHeader();
    void sizeHeader();
    void playCurrent();

    MainWindow *window_;
    Deck deck_;
    int position_ = -1;
    bool active_ = false;
    bool wasFullScreen_ = false;
    QFont normalFont_;
    QLabel *header_ = nullptr;
    QWidget *black_ = nullptr;
    SlidePlayer *player_ = nullptr;
    PresenterView *presenter_ = nullptr;
};

} // namespace fb
