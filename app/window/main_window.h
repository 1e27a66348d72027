#pragma once
#include "app/scene/scene.h"

#include <QMainWindow>

#include <optional>

class QDockWidget;
class QListWidget;
class QMenu;
class QStackedWidget;
class QUndoGroup;

namespace fb {

class ChartExportActions;
class DeckActions;
class ModelActions;
class SceneFileActions;
class DeckEditor;
class LabView;
class LectureMode;
class StartPage;
class Toast;

// FullBand's main window: the labs in a sidebar, one lab visible at a time, the File / Edit / View /
// Deck / Help menus, scenes and decks, the deck editor, lecture mode, chart export, and the window's
// state restored on the next start.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    LabView *currentLab() const;
    LabView *lab(int index) const;
    int labCount() const;
    void showLab(int index);
    // The lab list (F9). Below 1200 px of width it shows the labs' icons only.
    void setSidebarVisible(bool visible);
    bool isSidebarVisible() const;
    LectureMode *lecture() const { return lecture_; }
    // The deck editor (Ctrl+D) in its dock; lecture mode presents the deck edited there.
    DeckEditor *deckEditor() const;
    QDockWidget *deckDock() const;
    // Lecture mode on the editor's deck from slide position (F5 continues where it was, unless the
    // deck was edited since).
    void presentDeck(int position);
    // Shows the deck editor: docked beside the lab where the window has room for both, otherwise
    // (1024 x 768) floating over the right of the window, so that the window does not grow.
    void showDeckEditor();

    // The start page (F1): every lab, the section it follows, where to begin. A lab chosen there,
    // in the lab list or by showLab replaces it. main() shows it on the first start.
    void showStartPage();
    bool isStartPageShown() const;
    StartPage *startPage() const { return start_; }
    // No settings were saved before this window (the very first start).
    bool isFirstStart() const { return firstStart_; }
    // Every lab's explanation expanded or collapsed (F7). Remembered, except in lecture mode, where
    // it starts collapsed and hidden.
    void setExplanationShown(bool shown);
    bool isExplanationShown() const;
    bool explanationPreference() const { return explanationPreference_; }
    // Short messages ("Wrote …") float over the window for a few seconds; no status bar.
    Toast *toast() const { return toast_; }
    // Undo and redo (Edit menu, Ctrl+Z / Ctrl+Shift+Z) act on the current lab's parameter changes.
    QUndoGroup *undoGroup() const { return undo_; }

    // Scenes: the current lab's whole state, and switching to a saved one. A refused scene keeps
    // the current state and returns the message.
    Scene currentScene() const;
    QString applyScene(const Scene &scene);
    // Opens a scene, a deck, or a PNG exported by FullBand (its embedded scene).
    QString openPath(const QString &path);
    QString saveScene(const QString &path);

    // Export without dialogs (the dialogs call these). Return an error message or empty.
    QString exportChart(int chartIndex, const QString &path, QSize size, qreal scale);
    QString exportAllCharts(const QString &folder, QSize size, qreal scale);
    // The chart image as exported: the current scene embedded as PNG text, optional caption strip.
    QImage chartImage(int chartIndex, QSize size, qreal scale);
    void setCaptionStrip(bool on);

    // An error in a message box (a toast on the offscreen platform); nothing for an empty error.
    void report(const QString &title, const QString &error);
    void rememberRecent(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    // Icons only below 1200 px of window width (or as forced).
    void updateSidebarWidth(std::optional<bool> force = std::nullopt);
    void about();
    void restoreSettings();
    void saveSettings();

    QListWidget *sidebar_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QStackedWidget *pages_ = nullptr;  // the labs' stack or the start page
    StartPage *start_ = nullptr;
    QAction *explanationAction_ = nullptr;
    bool explanationPreference_ = true;
    bool firstStart_ = false;
    LectureMode *lecture_ = nullptr;
    SceneFileActions *scenes_ = nullptr;  // File -> Open scene or deck, Open recent, Save scene
    ModelActions *models_ = nullptr;  // File -> Open/Save model, and the slides that name a model
    DeckActions *deck_ = nullptr;  // the deck editor, its dock and menu, presenting
    Toast *toast_ = nullptr;
    QUndoGroup *undo_ = nullptr;
    ChartExportActions *export_ = nullptr;  // the File menu's exports and Copy chart
    std::optional<bool> compactSidebar_;  // unset until the first layout: then the pane is fitted too
};

} // namespace fb
