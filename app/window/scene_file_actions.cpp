#include "app/window/scene_file_actions.h"

#include "app/window/main_window.h"
#include "app/window/toast.h"
#include "views/lab/lab_view.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>

namespace fb {

namespace {
constexpr int kMaxRecent = 8;
} // namespace

SceneFileActions::SceneFileActions(MainWindow *window)
    : QObject(window)
    , window_(window)
{
}

void SceneFileActions::addTo(QMenu *file)
{
    file->addAction(tr("&Open scene or deck…"), this, &SceneFileActions::openDialog)->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save scene…"), this, &SceneFileActions::saveDialog)->setShortcut(QKeySequence::Save);
    rebuildRecentMenu();
}

void SceneFileActions::openDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open scene or deck"),
        settings.value(QStringLiteral("scenes/folder")).toString(),
        tr("FullBand scenes and decks (*.fullband *.json *.png);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("scenes/folder"), QFileInfo(path).absolutePath());
    window_->report(tr("Open scene"), window_->openPath(path));
}

void SceneFileActions::saveDialog()
{
    QSettings settings;
    const QString start = QDir(settings.value(QStringLiteral("scenes/folder"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString())
        .filePath((window_->currentLab() ? window_->currentLab()->name() : QStringLiteral("scene")) + QStringLiteral(".fullband"));
    QString path = QFileDialog::getSaveFileName(window_, tr("Save scene"), start, tr("FullBand scenes (*.fullband)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1String(".fullband"))) path += QStringLiteral(".fullband");
    settings.setValue(QStringLiteral("scenes/folder"), QFileInfo(path).absolutePath());
    const QString err = window_->saveScene(path);
    if (err.isEmpty()) window_->toast()->showText(tr("Saved %1").arg(path), 5000);
    window_->report(tr("Save scene"), err.isEmpty() ? QString() : err + tr("\nThe previous file, if any, is unchanged."));
}

void SceneFileActions::rememberRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("scenes/recent")).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QStringLiteral("scenes/recent"), recent);
    rebuildRecentMenu();
}

void SceneFileActions::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("scenes/recent")).toStringList();
    for (const QString &path : recent)
        recentMenu_->addAction(QFileInfo(path).fileName(), this,
                               [this, path] { window_->report(tr("Open scene"), window_->openPath(path)); })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
}

} // namespace fb
