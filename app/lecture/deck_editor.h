#pragma once
// The deck editor (Deck → Deck editor, Ctrl+D), docked beside the labs: the slides of the deck as a
// list, "Add current lab" (the current lab's whole state, under an editable slide title), remove,
// move up and down (or drag), the selected slide's title and notes, Show (applies the slide),
// Update (the slide takes the lab as it is now), Present (lecture mode from the slide), New,
// Save and Save as (written all or nothing). The deck edited here is what lecture mode presents
// (DeckActions::present); opening a deck file loads it here. Unsaved changes are asked about
// before they would be lost (New, opening another deck, closing the window).
#include "app/scene/scene.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace fb {

class MainWindow;

class DeckEditor : public QWidget {
    Q_OBJECT
public:
    explicit DeckEditor(MainWindow *window);

    const Deck &deck() const { return deck_; }
    QString path() const { return path_; }
    bool isModified() const { return modified_; }
    // The selected slide, or -1.
    int currentSlide() const;
    void selectSlide(int index);

    // Replaces the deck being edited (it is then unmodified). path may be empty.
    void setDeck(const Deck &deck, const QString &path);

    // The buttons' actions, also the Deck menu's.
    void addCurrentLab();
    // The selected slide takes the current lab's state; its title and notes stay.
    void updateFromCurrentLab();
    void removeSlide();
    void moveSlide(int delta);
    void showSlide();
    void newDeck();
    // Saves to the deck's file, or asks for one. Returns true when the deck was written.
    bool save();
    bool saveAs();
    // The folder Save as proposes: the deck's own when it can be written there (not the read-only
    // folder of the decks FullBand ships), else the last folder saved to, Documents or home.
    QString saveFolder() const;
    // Writes the deck to path (all or nothing). Returns an error message, or empty.
    QString saveTo(const QString &path);

    // If the deck has unsaved changes, asks to save, discard or cancel. True: go on.
    bool confirmDiscard();

Q_SIGNALS:
    // Any change of the deck (slides, order, titles, notes).
    void deckChanged();
    // Present the deck from this slide (the Present button).
    void presentRequested(int position);

private:
    void rebuildList(int select);
    void updateSelection();
    void updateCaption();
    void markModified();
    void titleEdited(const QString &text);
    void notesEdited();
    void listReordered();
    QString itemText(int index) const;

    MainWindow *window_;
    Deck deck_;
    QString path_;
    bool modified_ = false;
    bool updating_ = false;
    QLabel *caption_ = nullptr;
    QLineEdit *deckTitle_ = nullptr;
    QListWidget *list_ = nullptr;
    QPushButton *add_ = nullptr;
    QPushButton *remove_ = nullptr;
    QPushButton *up_ = nullptr;
    QPushButton *down_ = nullptr;
    QPushButton *show_ = nullptr;
    QPushButton *update_ = nullptr;
    QPushButton *present_ = nullptr;
    QLineEdit *slideTitle_ = nullptr;
    QPlainTextEdit *notes_ = nullptr;
};

} // namespace fb
