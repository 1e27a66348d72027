#pragma once
// File → Save model… / Open model…: the tiny transformer's trained model as a model file
// (core/model/model_file.h). The file is written and read on core's background run, never on the
// GUI thread; a timer collects the outcome. Opening a file restores the transformer lab as the run
// ended (losses, maps, length table), ready to write; a damaged, truncated or foreign file gets one
// line naming what is wrong and changes nothing.
#include "core/model/model_file.h"
#include "core/run/background_run.h"

#include <QObject>
#include <QString>

#include <memory>

class QMenu;
class QTimer;

namespace fb {

class MainWindow;
class TransformerView;

class ModelActions : public QObject {
    Q_OBJECT
public:
    explicit ModelActions(MainWindow *window);
    ~ModelActions() override;

    // The two actions, added to the File menu.
    void addTo(QMenu *file);

    // Without dialogs (tests): "" when the work started (its outcome comes as finished), or why it
    // cannot start (nothing trained, a save or an open under way).
    QString saveModel(const QString &path);
    // replayStep >= 0: once restored, the replay holds the frame at or before that step (a slide's).
    // textPath: the text the model learnt, if known (a slide's; else the one the lab has).
    QString openModel(const QString &path, int replayStep = -1, const QString &textPath = QString());
    bool busy() const { return save_ || open_; }
    // A slide of the transformer lab: opens its model file (replay held at its step), or holds the
    // replay of the run on screen at its step. "" or why it cannot start.
    QString applySlide(const QString &modelPath, int replayStep, const QString &textPath = QString());

Q_SIGNALS:
    // The outcome of a save or an open: "" or the one line that says what is wrong.
    void finished(const QString &error);

private:
    void saveDialog();
    void openDialog();
    void poll();
    void done(const QString &error);
    TransformerView *transformer() const;

    using SaveRun = BackgroundRun<int, int>;
    using OpenRun = BackgroundRun<int, std::shared_ptr<SavedModel>>;
    MainWindow *window_;
    std::unique_ptr<SaveRun> save_;
    std::unique_ptr<OpenRun> open_;
    QString path_;
    int replayStep_ = -1;  // of the open under way
    QString textPath_;     // of the open under way
    QTimer *timer_ = nullptr;
};

} // namespace fb
