#pragma once
// The window's scene files: File → Open scene or deck… / Save scene… and the Open recent menu (the
// last eight files opened or saved, kept in the settings). The dialogs start in the folder of the
// last scene; what a file opens and how a scene is written are the window's (MainWindow::openPath,
// MainWindow::saveScene).
#include <QObject>
#include <QString>

class QMenu;

namespace fb {

class MainWindow;

class SceneFileActions : public QObject {
    Q_OBJECT
public:
    explicit SceneFileActions(MainWindow *window);

    // Open scene or deck…, Open recent and Save scene…, added to the File menu.
    void addTo(QMenu *file);
    // A file opened or saved goes to the top of Open recent.
    void rememberRecent(const QString &path);

private:
    void openDialog();
    void saveDialog();
    void rebuildRecentMenu();

    MainWindow *window_;
    QMenu *recentMenu_ = nullptr;
};

} // namespace fb
