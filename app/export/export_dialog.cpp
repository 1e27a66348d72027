#include "app/export/export_dialog.h"

#include "app/export/image_export.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

#include <algorithm>

namespace fb {

ExportDialog::ExportDialog(LabView *lab, std::function<QString(const ExportDialog &)> saver, QWidget *parent)
    : QDialog(parent)
    , lab_(lab)
    , saver_(std::move(saver))
{
    setWindowTitle(tr("Export chart"));
    auto *form = new QFormLayout(this);
    chart_ = new QComboBox;
    for (Exportable *e : lab->exportables()) chart_->addItem(e->exportTitle());
    chart_->setCurrentIndex(std::clamp(lab->preferredExportable(), 0, std::max(0, chart_->count() - 1)));
    form->addRow(tr("Chart"), chart_);

    QSettings settings;
    width_ = new QSpinBox;
    width_->setRange(16, 8192);
    width_->setValue(settings.value(QStringLiteral("export/width"), 1600).toInt());
    width_->setSuffix(tr(" px"));
    height_ = new QSpinBox;
    height_->setRange(16, 8192);
    height_->setValue(settings.value(QStringLiteral("export/height"), 1000).toInt());
    height_->setSuffix(tr(" px"));
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(width_);
    sizeRow->addWidget(height_);
    form->addRow(tr("Size"), sizeRow);

    scale_ = new QComboBox;
    scale_->addItem(tr("1× (screen)"), 1.0);
    scale_->addItem(tr("2× (slides, twice the pixels)"), 2.0);
    scale_->setCurrentIndex(settings.value(QStringLiteral("export/scale"), 1.0).toDouble() > 1.5 ? 1 : 0);
    form->addRow(tr("Resolution"), scale_);

    path_ = new QLineEdit;
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File"), pathRow);
    connect(chart_, &QComboBox::currentIndexChanged, this, &ExportDialog::suggestPath);
    suggestPath();

    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("exportError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color:#b00020;"));
    error_->hide();
    form->addRow(error_);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::save);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void ExportDialog::save()
{
    const QString err = saver_ ? saver_(*this) : QString();
    error_->setText(err);
    error_->setVisible(!err.isEmpty());
    if (!err.isEmpty()) return;  // stays open: the settings are kept for another path
    QSettings s;
    s.setValue(QStringLiteral("export/width"), width_->value());
    s.setValue(QStringLiteral("export/height"), height_->value());
    s.setValue(QStringLiteral("export/scale"), scale());
    s.setValue(QStringLiteral("export/folder"), QFileInfo(path()).absolutePath());
    accept();
}

QString ExportDialog::error() const { return error_->text(); }

int ExportDialog::chartIndex() const { return chart_->currentIndex(); }
QSize ExportDialog::size() const { return QSize(width_->value(), height_->value()); }
qreal ExportDialog::scale() const { return scale_->currentData().toDouble(); }
QString ExportDialog::path() const { return path_->text(); }

void ExportDialog::suggestPath()
{
    QSettings settings;
    // The last folder used; else Pictures where it exists, else the home folder (a fresh account
    // may have no Pictures folder, and the suggestion must be a path Save can write).
    QString folder = settings.value(QStringLiteral("export/folder")).toString();
    if (folder.isEmpty() || !QDir(folder).exists()) {
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        if (!QDir(folder).exists()) folder = QDir::homePath();
    }
    // "transformer-attention-maps.png", not "transformer-transformer-attention-maps.png".
    const QString slug = fileSlug(chart_->currentText());
    const QString file = (slug.startsWith(lab_->name() + QLatin1Char('-')) ? slug : lab_->name() + QLatin1Char('-') + slug)
                         + QStringLiteral(".png");
    path_->setText(QDir(folder).filePath(file));
}

void ExportDialog::browse()
{
    const QString file = QFileDialog::getSaveFileName(this, tr("Export chart"), path(), tr("PNG images (*.png);;SVG drawings (*.svg);;CSV data (*.csv)"));
    if (file.isEmpty()) return;
    const bool known = file.endsWith(QLatin1String(".png"), Qt::CaseInsensitive) || file.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)
        || file.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    path_->setText(known ? file : file + QStringLiteral(".png"));
}

} // namespace fb
