#include "app/window/chart_export_actions.h"

#include "app/animation/animation_dialog.h"
#include "app/export/export_dialog.h"
#include "app/export/image_export.h"
#include "app/export/lab_image.h"
#include "app/window/main_window.h"
#include "app/window/toast.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QSettings>
#include <QStandardPaths>

namespace fb {

ChartExportActions::ChartExportActions(MainWindow *window)
    : QObject(window)
    , window_(window)
{
}

QImage ChartExportActions::chartImage(int chartIndex, QSize size, qreal scale)
{
    LabView *l = window_->currentLab();
    return l ? fb::chartImage(*l, chartIndex, size, scale, captionStrip_) : QImage();
}

QString ChartExportActions::exportChart(int chartIndex, const QString &path, QSize size, qreal scale)
{
    LabView *l = window_->currentLab();
    if (!l) return tr("no lab is open");
    const auto charts = l->exportables();
    if (chartIndex < 0 || chartIndex >= charts.size())
        return tr("chart must be in [1, %1], got %2").arg(charts.size()).arg(chartIndex + 1);
    switch (exportFormat(path)) {
    case ExportFormat::Png: return writePng(chartImage(chartIndex, size, scale), path);
    // What the window shows now, at once: a running training goes on, an idle one stays idle.
    case ExportFormat::Svg: return writeSvg(*charts[chartIndex], path, size);
    case ExportFormat::Csv: return writeCsv(*charts[chartIndex], path);
    case ExportFormat::Unknown: break;
    }
    return tr("the file must end in .png, .svg or .csv, got '%1'").arg(path);
}

QString ChartExportActions::exportAllCharts(const QString &folder, QSize size, qreal scale)
{
    LabView *l = window_->currentLab();
    if (!l) return tr("no lab is open");
    if (!QDir(folder).exists()) return tr("folder '%1' does not exist").arg(folder);
    const auto charts = l->exportables();
    for (int i = 0; i < charts.size(); ++i) {
        const QString path = QDir(folder).filePath(QStringLiteral("%1-%2-%3.png")
            .arg(l->name()).arg(i + 1).arg(fileSlug(charts[i]->exportTitle())));
        if (QString err = writePng(chartImage(i, size, scale), path); !err.isEmpty()) return err;
    }
    window_->toast()->showText(tr("Wrote %1 charts to %2").arg(charts.size()).arg(folder), 5000);
    return {};
}

void ChartExportActions::exportChartDialog()
{
    LabView *l = window_->currentLab();
    if (!l || l->exportables().isEmpty()) return;
    // A file that cannot be written is said in the dialog, which stays open with its settings.
    ExportDialog dialog(l, [this](const ExportDialog &d) {
        return exportChart(d.chartIndex(), d.path(), d.size(), d.scale());
    }, window_);
    if (dialog.exec() != QDialog::Accepted) return;
    window_->toast()->showText(tr("Wrote %1").arg(dialog.path()), 5000);
}

void ChartExportActions::exportAnimationDialog()
{
    LabView *l = window_->currentLab();
    if (!l || l->exportables().isEmpty()) return;
    // Modal, but the window keeps painting: frames render one per event-loop turn, encoding runs on
    // a worker (AnimationRun).
    AnimationDialog dialog(l, window_);
    connect(&dialog, &AnimationDialog::exportFinished, this, [this](const QString &err) {
        if (err.isEmpty()) window_->toast()->showText(tr("Animation written"), 5000);
    });
    dialog.exec();
}

void ChartExportActions::exportAllDialog()
{
    QSettings settings;
    const QString start = settings.value(QStringLiteral("export/folder"),
        QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    const QString folder = QFileDialog::getExistingDirectory(window_, tr("Export all charts to"), start);
    if (folder.isEmpty()) return;
    settings.setValue(QStringLiteral("export/folder"), folder);
    window_->report(tr("Export all charts"), exportAllCharts(folder, QSize(1600, 1000), 1.0));
}

void ChartExportActions::copyChart()
{
    LabView *l = window_->currentLab();
    if (!l || l->exportables().isEmpty()) return;
    // The chart under the mouse if there is one, otherwise the lab's first chart.
    int index = 0;
    const auto charts = l->exportables();
    for (int i = 0; i < charts.size(); ++i)
        if (auto *w = dynamic_cast<QWidget *>(charts[i]); w && w->underMouse()) index = i;
    QApplication::clipboard()->setImage(chartImage(index, QSize(1600, 1000), 1.0));
    window_->toast()->showText(tr("Copied “%1” to the clipboard").arg(charts[index]->exportTitle()), 4000);
}

} // namespace fb
