#include "app/main_window.h"

#include "app/export_dialog.h"
#include "app/image_export.h"
#include "app/lab_registry.h"
#include "views/exportable.h"
#include "views/lab_view.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QIcon>
#include <QKeySequence>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>

namespace fb {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("FullBand"));
    sidebar_ = new QListWidget;
    sidebar_->setObjectName(QStringLiteral("labList"));
    sidebar_->setIconSize(QSize(28, 28));
    sidebar_->setSpacing(2);
    sidebar_->setFixedWidth(230);
    QFont f = sidebar_->font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    sidebar_->setFont(f);
    stack_ = new QStackedWidget;
    for (const LabEntry &entry : labRegistry()) {
        sidebar_->addItem(new QListWidgetItem(QIcon(entry.icon), entry.title));
        stack_->addWidget(entry.create());
    }
    auto *split = new QSplitter;
    split->addWidget(sidebar_);
    split->addWidget(stack_);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    setCentralWidget(split);
    connect(sidebar_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    buildMenus();
    restoreState();
}

LabView *MainWindow::currentLab() const
{
    return qobject_cast<LabView *>(stack_->currentWidget());
}

LabView *MainWindow::lab(int index) const
{
    return qobject_cast<LabView *>(stack_->widget(index));
}

int MainWindow::labCount() const
{
    return stack_->count();
}

void MainWindow::showLab(int index)
{
    if (index >= 0 && index < stack_->count()) sidebar_->setCurrentRow(index);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *exportOne = file->addAction(tr("&Export chart…"), this, &MainWindow::exportChartDialog);
    exportOne->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &all charts…"), this, &MainWindow::exportAllDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *full = view->addAction(tr("&Full screen"));
    full->setShortcut(QKeySequence(Qt::Key_F11));
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
    view->addSeparator();
    const auto &labs = labRegistry();
    for (int i = 0; i < labs.size(); ++i) {
        QAction *a = view->addAction(QIcon(labs[i].icon), labs[i].title, this, [this, i] { showLab(i); });
        if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About FullBand"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About FullBand"), tr(
        "<h3>FullBand %1</h3>"
        "<p>Live labs for the ideas behind the transformer and its newest correction, latent feedback.</p>"
        "<p><b>Sources</b><br>"
        "“The Road to Transformers”, a textbook chapter (000_031aadcae6604a46.txt): sections 218.1–218.6, "
        "Figures 218.1 and 218.2.<br>"
        "An encyclopedia page on transformers (004_21534ea083b6ce9c.txt): the cost formulas of the Costs lab.</p>"
        "<p>Built with Qt %2, Eigen and oneTBB.</p>").arg(QStringLiteral(FULLBAND_VERSION), QString::fromLatin1(qVersion())));
}

QString MainWindow::exportChart(int chartIndex, const QString &path, QSize size, qreal scale)
{
    LabView *lab = currentLab();
    if (!lab) return tr("no lab is open");
    const auto charts = lab->exportables();
    if (chartIndex < 0 || chartIndex >= charts.size())
        return tr("chart must be in [1, %1], got %2").arg(charts.size()).arg(chartIndex + 1);
    lab->waitForResult();
    return writePng(renderChart(*charts[chartIndex], { size, scale }), path);
}

QString MainWindow::exportAllCharts(const QString &folder, QSize size, qreal scale)
{
    LabView *lab = currentLab();
    if (!lab) return tr("no lab is open");
    if (!QDir(folder).exists()) return tr("folder '%1' does not exist").arg(folder);
    lab->waitForResult();
    const auto charts = lab->exportables();
    for (int i = 0; i < charts.size(); ++i) {
        const QString path = QDir(folder).filePath(QStringLiteral("%1-%2-%3.png")
            .arg(lab->name()).arg(i + 1).arg(fileSlug(charts[i]->exportTitle())));
        if (QString err = writePng(renderChart(*charts[i], { size, scale }), path); !err.isEmpty()) return err;
    }
    statusBar()->showMessage(tr("Wrote %1 charts to %2").arg(charts.size()).arg(folder), 5000);
    return {};
}

void MainWindow::exportChartDialog()
{
    LabView *lab = currentLab();
    if (!lab || lab->exportables().isEmpty()) return;
    ExportDialog dialog(lab, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString err = exportChart(dialog.chartIndex(), dialog.path(), dialog.size(), dialog.scale());
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Export chart"), err);
    else statusBar()->showMessage(tr("Wrote %1").arg(dialog.path()), 5000);
}

void MainWindow::exportAllDialog()
{
    QSettings settings;
    const QString start = settings.value(QStringLiteral("export/folder"),
        QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Export all charts to"), start);
    if (folder.isEmpty()) return;
    settings.setValue(QStringLiteral("export/folder"), folder);
    const QString err = exportAllCharts(folder, QSize(1600, 1000), 1.0);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Export all charts"), err);
}

void MainWindow::restoreState()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1600, 1000);
    const int last = labIndex(settings.value(QStringLiteral("window/lab")).toString());
    sidebar_->setCurrentRow(last >= 0 ? last : 0);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (LabView *lab = currentLab()) settings.setValue(QStringLiteral("window/lab"), lab->name());
    event->accept();
}

} // namespace fb
