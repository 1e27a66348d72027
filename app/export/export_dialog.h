#pragma once
#include <QDialog>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace fb {

class LabView;

// Export chart…: which chart of the lab, pixel size, 1× or 2×, and the file. Save writes the file
// through the saver and closes only when it was written: a file it cannot write is said in the
// dialog, which stays open with its settings for another path.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // saver: writes the file with the dialog's choices; returns an empty string or what went wrong.
    ExportDialog(LabView *lab, std::function<QString(const ExportDialog &)> saver, QWidget *parent = nullptr);
    int chartIndex() const;
    QSize size() const;
    qreal scale() const;
    QString path() const;
    // What the last Save could not do (empty when nothing went wrong).
    QString error() const;
    // Save, as if clicked.
    void save();

private:
    void browse();
    void suggestPath();

    LabView *lab_;
    std::function<QString(const ExportDialog &)> saver_;
    QLabel *error_ = nullptr;
    QComboBox *chart_ = nullptr;
    QSpinBox *width_ = nullptr;
    QSpinBox *height_ = nullptr;
    QComboBox *scale_ = nullptr;
    QLineEdit *path_ = nullptr;
};

} // namespace fb
