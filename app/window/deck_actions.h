#pragma once
// The deck side of the main window: the deck editor in its dock, the Deck menu, and lecture mode
// presenting the deck edited there (F5 goes on where it was unless the deck was edited since;
// Shift+F5 and the editor's Show start at a slide). Lecture mode hides the dock and brings it
// back afterwards, on the slide it stopped at.
#include "app/scene/scene.h"

#include <QObject>

class QDockWidget;
class QMenuBar;

namespace fb {

class DeckEditor;
class LectureMode;
class MainWindow;

class DeckActions : public QObject {
    Q_OBJECT
public:
    DeckActions(MainWindow *window, LectureMode *lecture);

    DeckEditor *editor() const { return editor_; }
    QDockWidget *dock() const { return dock_; }

    // The Deck menu, added to bar.
    void buildMenu(QMenuBar *bar);
    // Docked beside the lab where the window has room for both, otherwise (1024 x 768) floating
    // over the right of the window, so that the window does not grow.
    void showEditor();
    // Lecture mode on the editor's deck from slide position.
    void present(int position);
    // F5: lecture mode on or off (on the edited deck, from its first slide, if it changed).
    void toggleLecture();
    // A deck opened from a file goes to the editor and to lecture mode. False: the user kept the
    // deck being edited (its unsaved changes were asked about).
    bool open(const Deck &deck, const QString &path);
    // Asks about unsaved changes; false: keep the window open.
    bool confirmDiscard();

private:
    MainWindow *window_;
    LectureMode *lecture_;
    DeckEditor *editor_ = nullptr;
    QDockWidget *dock_ = nullptr;
    bool edited_ = false;          // the editor's deck changed since lecture mode got it
    bool dockWasVisible_ = false;  // before lecture mode hid it
};

} // namespace fb
