#pragma once
// File → Export animation…: a numeric parameter of the current lab swept over a range (linear or
// logarithmic, the slider's own scale by default), frames, frames per second, size, caption strip and
// the file (.mp4 or .gif). Export runs an AnimationRun with a progress bar; Cancel stops it and
// leaves no file. For a lab that trains (views/lab/replayable.h) the dialog offers "Record the training
// run" (the sweep is listed greyed out: it would show one run in every frame): the run is trained on
// a hidden copy of the lab with the same values and ghosts, then rendered step by step.
#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace fb {

class AnimationRun;
class LabView;

class AnimationDialog : public QDialog {
    Q_OBJECT
public:
    AnimationDialog(LabView *lab, QWidget *parent = nullptr);
    ~AnimationDialog() override;

    // The sweep as the command line writes it ("base=100:1e6:log"), for tests and messages.
    QString sweepText() const;
    // True when "Record the training run" is chosen (only offered for labs that train, and chosen).
    bool isRecording() const;
    void setRecording(bool on);
    // Starts the export (as the Export button does); the result arrives in finished().
    void startExport();
    QString lastError() const { return lastError_; }

Q_SIGNALS:
    void exportFinished(const QString &error);

protected:
    void reject() override;

private:
    void parameterChanged();
    void modeChanged();
    void browse();
    void setRunning(bool running);

    LabView *lab_;
    QComboBox *mode_ = nullptr;  // null unless the lab trains
    QComboBox *param_ = nullptr;
    QLineEdit *from_ = nullptr;
    QLineEdit *to_ = nullptr;
    QComboBox *scale_ = nullptr;
    QSpinBox *frames_ = nullptr;
    QSpinBox *fps_ = nullptr;
    QSpinBox *width_ = nullptr;
    QSpinBox *height_ = nullptr;
    QCheckBox *caption_ = nullptr;
    QCheckBox *freeAxes_ = nullptr;
    QLineEdit *path_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *status_ = nullptr;
    QPushButton *export_ = nullptr;
    QPushButton *cancel_ = nullptr;
    AnimationRun *run_ = nullptr;
    QString lastError_;
};

} // namespace fb
