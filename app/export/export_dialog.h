#pragma once
#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace fb {

class LabView;

// Export chart…: which chart of the lab, pixel size, 1× or 2×, and the file.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(LabView *lab, QWidget *parent = nullptr);
    int chartIndex() const;
    QSize size() const;
    qreal scale() const;
    QString path() const;

private:
    void browse();
    void suggestPath();

    LabView *lab_;
    QComboBox *chart_ = nullptr;
    QSpinBox *width_ = nullptr;
    QSpinBox *height_ = nullptr;
    QComboBox *scale_ = nullptr;
    QLineEdit *path_ = nullptr;
};

} // namespace fb
