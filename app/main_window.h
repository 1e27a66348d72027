#pragma once
#include <QMainWindow>

class QListWidget;
class QStackedWidget;

namespace fb {

// FullBand's main window: the labs in a sidebar, one lab visible at a time.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

private:
    QListWidget *sidebar_ = nullptr;
    QStackedWidget *stack_ = nullptr;
};

} // namespace fb
