#pragma once
// Lecture mode: full screen with a projector theme (large fonts, thick lines), the deck's scene
// title in a small header, and presenter-clicker keys (Page Down / Page Up / arrows / space) that
// step through the deck. Esc leaves.
#include "app/scene.h"

#include <QFont>
#include <QObject>

class QLabel;

namespace fb {

class MainWindow;

class LectureMode : public QObject {
    Q_OBJECT
public:
    static constexpr double kFontScale = 1.6;

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

    // The header strip (scene title, position); the window places it above the labs.
    QLabel *header() const { return header_; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateHeader();

    MainWindow *window_;
    Deck deck_;
    int position_ = -1;
    bool active_ = false;
    bool wasFullScreen_ = false;
    QFont normalFont_;
    QLabel *header_ = nullptr;
};

} // namespace fb
