#pragma once
// The window's chart export: File → Export chart… / Export all charts… / Export animation…, Edit →
// Copy chart, and the same without dialogs (tests, scripts). Every PNG goes through chartImage
// (app/export/lab_image.h), so it carries the current scene. Export chart, Export all charts and
// Copy chart draw what the window shows at that moment and return at once: they never wait for a
// computation or a training (only the command line trains to the end first). Export animation
// still renders its frames on the GUI thread and waits for each frame's result (AnimationRun).
#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>

namespace fb {

class MainWindow;

class ChartExportActions : public QObject {
    Q_OBJECT
public:
    explicit ChartExportActions(MainWindow *window);

    // The current lab's chart as exported, with the optional caption strip.
    QImage chartImage(int chartIndex, QSize size, qreal scale);
    // Return an error message or empty.
    QString exportChart(int chartIndex, const QString &path, QSize size, qreal scale);
    QString exportAllCharts(const QString &folder, QSize size, qreal scale);
    void setCaptionStrip(bool on) { captionStrip_ = on; }

    void exportChartDialog();
    void exportAllDialog();
    void exportAnimationDialog();
    // The chart under the mouse (else the lab's first) to the clipboard.
    void copyChart();

private:
    MainWindow *window_;
    bool captionStrip_ = false;
};

} // namespace fb
