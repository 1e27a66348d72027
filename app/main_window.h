#pragma once
#include "app/scene.h"

#include <QMainWindow>

class QListWidget;
class QMenu;
class QStackedWidget;

namespace fb {

class LabView;
class LectureMode;

// FullBand's main window: the labs in a sidebar, one lab visible at a time, the File / Edit / View /
// Help menus, scenes and decks, lecture mode, chart export, and the window's state restored on the
// next start.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    LabView *currentLab() const;
    LabView *lab(int index) const;
    int labCount() const;
    void showLab(int index);
    void setSidebarVisible(bool visible);
    LectureMode *lecture() const { return lecture_; }

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
    void setCaptionStrip(bool on) { captionStrip_ = on; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void exportChartDialog();
    void exportAllDialog();
    void exportAnimationDialog();
    void openDialog();
    void saveDialog();
    void copyChart();
    void rememberRecent(const QString &path);
    void rebuildRecentMenu();
    void about();
    void restoreSettings();
    void saveSettings();
    void report(const QString &title, const QString &error);

    QListWidget *sidebar_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QMenu *recentMenu_ = nullptr;
    LectureMode *lecture_ = nullptr;
    bool captionStrip_ = false;
};

} // namespace fb
