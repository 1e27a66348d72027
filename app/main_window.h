#pragma once
#include <QMainWindow>

class QListWidget;
class QStackedWidget;

namespace fb {

class LabView;

// FullBand's main window: the labs in a sidebar, one lab visible at a time, the File / View / Help
// menus, chart export, and the window's state restored on the next start.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    LabView *currentLab() const;
    LabView *lab(int index) const;
    int labCount() const;
    void showLab(int index);

    // Export actions without dialogs (the dialogs call these). Return an error message or empty.
    QString exportChart(int chartIndex, const QString &path, QSize size, qreal scale);
    QString exportAllCharts(const QString &folder, QSize size, qreal scale);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void exportChartDialog();
    void exportAllDialog();
    void about();
    void restoreState();

    QListWidget *sidebar_ = nullptr;
    QStackedWidget *stack_ = nullptr;
};

} // namespace fb
