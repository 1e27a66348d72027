#include "app/window/main_window.h"
#include "app/window/about_text.h"

#include "app/window/chart_export_actions.h"
#include "app/window/deck_actions.h"
#include "app/window/model_actions.h"
#include "app/window/scene_file_actions.h"
#include "views/training/transformer_view.h"
#include "app/lecture/deck_editor.h"
#include "app/export/lab_image.h"
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/screen_fit.h"
#include "app/window/start_page.h"
#include "app/window/toast.h"
#include "views/lab/explanation_panel.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"

#include <QAction>
#include <QUndoGroup>
#include <QUndoStack>
#include <QApplication>
#include <QCloseEvent>
#include <QResizeEvent>
#include <QScreen>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace fb {

namespace {
constexpr int kSidebarWidth = 200;        // icons and titles
constexpr int kCompactSidebarWidth = 58;  // icons only, titles in tooltips
// Below this window width the lab list shows icons only: at 1024 px the charts keep two thirds.
constexpr int kCompactBelow = 1200;
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("FullBand"));
    setAcceptDrops(true);
    sidebar_ = new QListWidget;
    sidebar_->setObjectName(QStringLiteral("labList"));
    sidebar_->setIconSize(QSize(28, 28));
    sidebar_->setSpacing(2);
    sidebar_->setFixedWidth(kSidebarWidth);
    // A long title takes two lines rather than a sideways scroll bar.
    sidebar_->setWordWrap(true);
    sidebar_->setTextElideMode(Qt::ElideNone);
    sidebar_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    QFont f = sidebar_->font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    sidebar_->setFont(f);
    stack_ = new QStackedWidget;
    for (const LabEntry &entry : labRegistry()) {
        auto *item = new QListWidgetItem(QIcon(entry.icon), entry.title);
        item->setToolTip(entry.title);
        sidebar_->addItem(item);
        stack_->addWidget(entry.create());
    }
    start_ = new StartPage;
    pages_ = new QStackedWidget;
    pages_->addWidget(stack_);
    pages_->addWidget(start_);
    auto *split = new QSplitter;
    split->addWidget(sidebar_);
    split->addWidget(pages_);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    lecture_ = new LectureMode(this);
    toast_ = new Toast(this);
    new ScreenFit(this);  // back onto the screen after a passing minimum pushed it past the edge
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(lecture_->header());
    layout->addWidget(split, 1);
    setCentralWidget(central);
    connect(sidebar_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    undo_ = new QUndoGroup(this);
    for (int i = 0; i < labCount(); ++i)
        if (LabView *l = lab(i)) undo_->addStack(l->undoStack());
    connect(stack_, &QStackedWidget::currentChanged, this, [this] {
        LabView *l = currentLab();
        undo_->setActiveStack(l ? l->undoStack() : nullptr);
    });
    if (LabView *l = currentLab()) undo_->setActiveStack(l->undoStack());

    deck_ = new DeckActions(this, lecture_);
    export_ = new ChartExportActions(this);
    // A lab chosen in the list (also the one already current) replaces the start page.
    connect(sidebar_, &QListWidget::currentRowChanged, this, [this] { pages_->setCurrentWidget(stack_); });
    connect(sidebar_, &QListWidget::itemClicked, this, [this] { pages_->setCurrentWidget(stack_); });
    connect(start_, &StartPage::labChosen, this, &MainWindow::showLab);
    for (int i = 0; i < labCount(); ++i)
        connect(lab(i)->explanation(), &ExplanationPanel::toggled, this, &MainWindow::setExplanationShown);
    buildMenus();
    // On a small screen the lab list starts narrow, so that the window fits the screen at all.
    if (const QScreen *s = screen(); s && s->availableGeometry().width() < kCompactBelow) updateSidebarWidth(true);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

LabView *MainWindow::currentLab() const { return qobject_cast<LabView *>(stack_->currentWidget()); }
LabView *MainWindow::lab(int index) const { return qobject_cast<LabView *>(stack_->widget(index)); }
int MainWindow::labCount() const { return stack_->count(); }

void MainWindow::showLab(int index)
{
    if (index < 0 || index >= stack_->count()) return;
    sidebar_->setCurrentRow(index);
    sidebar_->item(index)->setSelected(true);
    pages_->setCurrentWidget(stack_);
}

void MainWindow::showStartPage()
{
    pages_->setCurrentWidget(start_);
    sidebar_->clearSelection();
}

bool MainWindow::isStartPageShown() const
{
    return pages_->currentWidget() == start_;
}

void MainWindow::setExplanationShown(bool shown)
{
    if (!lecture_->isActive()) explanationPreference_ = shown;
    for (int i = 0; i < labCount(); ++i) {
        ExplanationPanel *panel = lab(i)->explanation();
        panel->setExpanded(shown);
        panel->setVisible(shown || !lecture_->isActive());  // a slide shows no collapsed strip
    }
    const QSignalBlocker block(explanationAction_);
    explanationAction_->setChecked(shown);
}

bool MainWindow::isExplanationShown() const
{
    return labCount() > 0 && lab(0)->explanation()->isExpanded();
}

void MainWindow::setSidebarVisible(bool visible)
{
    sidebar_->setVisible(visible);
}

bool MainWindow::isSidebarVisible() const
{
    return !sidebar_->isHidden();
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    updateSidebarWidth();
}

void MainWindow::updateSidebarWidth(std::optional<bool> force)
{
    const bool compact = force.value_or(width() < kCompactBelow);
    if (compact == compactSidebar_) return;
    compactSidebar_ = compact;
    sidebar_->setFixedWidth(compact ? kCompactSidebarWidth : kSidebarWidth);
    // The splitter's pane follows the list's width (else it keeps the pane of the list's size hint,
    // and a gap opens between the list and the labs).
    if (auto *split = qobject_cast<QSplitter *>(sidebar_->parentWidget()))
        split->setSizes({ sidebar_->width(), std::max(1, split->width() - sidebar_->width()) });
    const auto &labs = labRegistry();
    for (int i = 0; i < sidebar_->count() && i < labs.size(); ++i)
        sidebar_->item(i)->setText(compact ? QString() : labs[i].title);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    scenes_ = new SceneFileActions(this);
    scenes_->addTo(file);
    models_ = new ModelActions(this);
    models_->addTo(file);
    file->addSeparator();
    file->addAction(tr("&Export chart…"), export_, &ChartExportActions::exportChartDialog)->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addAction(tr("Export &all charts…"), export_, &ChartExportActions::exportAllDialog)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addAction(tr("Export a&nimation…"), export_, &ChartExportActions::exportAnimationDialog);
    QAction *caption = file->addAction(tr("Caption strip on exported charts"));
    caption->setCheckable(true);
    connect(caption, &QAction::toggled, this, &MainWindow::setCaptionStrip);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    // "Undo base 10000 → 500000": the current lab's last parameter change.
    QAction *undo = undo_->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = undo_->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({ QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y) });
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction *copy = edit->addAction(tr("&Copy chart"), export_, &ChartExportActions::copyChart);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WindowShortcut);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *full = view->addAction(tr("&Full screen"));
    full->setShortcut(QKeySequence(Qt::Key_F11));
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
    QAction *lecture = view->addAction(tr("&Lecture mode"), deck_, &DeckActions::toggleLecture);
    lecture->setShortcut(QKeySequence(Qt::Key_F5));
    QAction *side = view->addAction(tr("&Parameter panel"), this, [this] {
        if (LabView *l = currentLab()) {
            const bool show = !l->isSideVisible();
            if (lecture_->isActive()) lecture_->setParametersShown(show);
            else for (int i = 0; i < labCount(); ++i) lab(i)->setSideVisible(show);
        }
    });
    side->setShortcut(QKeySequence(Qt::Key_F6));
    QAction *list = view->addAction(tr("Lab &list"), this, [this] { setSidebarVisible(!isSidebarVisible()); });
    list->setShortcut(QKeySequence(Qt::Key_F9));
    explanationAction_ = view->addAction(tr("E&xplanation beside the charts"));
    explanationAction_->setCheckable(true);
    explanationAction_->setChecked(true);
    explanationAction_->setShortcut(QKeySequence(Qt::Key_F7));
    connect(explanationAction_, &QAction::toggled, this, &MainWindow::setExplanationShown);
    view->addSeparator();
    const auto &labs = labRegistry();
    for (int i = 0; i < labs.size(); ++i) {
        QAction *a = view->addAction(QIcon(labs[i].icon), labs[i].title, this, [this, i] { showLab(i); });
        // Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth, as the digits sit on the keyboard; Alt+1 ...
        // Alt+9 for the eleventh to the nineteenth.
        if (i < 10) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(i < 9 ? Qt::Key_1 + i : Qt::Key_0)));
        else if (i < 19) a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + (i - 10))));
    }

    deck_->buildMenu(menuBar());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Start page"), this, &MainWindow::showStartPage)->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&About FullBand"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    // Lecture mode hides the menu bar, and the shortcuts of a hidden menu do nothing: the window
    // holds every action with a shortcut too, so F5, F6, Ctrl+1 ... work in every mode.
    for (QMenu *menu : menuBar()->findChildren<QMenu *>())
        for (QAction *a : menu->actions())
            if (!a->shortcut().isEmpty()) addAction(a);
    // The deck editor floats in a window of its own on small screens: the shortcuts work there too.
    deck_->dock()->addActions(actions());
}

DeckEditor *MainWindow::deckEditor() const { return deck_->editor(); }
QDockWidget *MainWindow::deckDock() const { return deck_->dock(); }
void MainWindow::presentDeck(int position) { deck_->present(position); }
void MainWindow::showDeckEditor() { deck_->showEditor(); }

void MainWindow::about()
{
    QMessageBox::about(this, tr("About FullBand"), aboutHtml());
}

void MainWindow::report(const QString &title, const QString &error)
{
    if (error.isEmpty()) return;
    if (QApplication::platformName() == QLatin1String("offscreen")) {
        toast_->showText(error, 10000);  // no modal dialogs where nobody can click them
        return;
    }
    QMessageBox::warning(this, title, error);
}

// --- scenes ---------------------------------------------------------------------------------

Scene MainWindow::currentScene() const
{
    LabView *l = currentLab();
    if (!l) return {};
    Scene s = sceneOf(*l);
    // An opened model's run (not a comparison): the scene names the file, which brings its values
    // (its text file may be unknown) when the scene is opened.
    if (const auto *transformer = qobject_cast<const TransformerView *>(l);
        transformer && !transformer->compareMode())
        s.model = transformer->openedModel();
    return s;
}

QString MainWindow::applyScene(const Scene &scene)
{
    const int index = labIndex(scene.lab);
    if (index < 0) return tr("lab '%1' is not a FullBand lab").arg(scene.lab);
    LabView *target = lab(index);
    // A slide naming a saved model: the model brings its values when its read ends well (a bad file
    // changes none); the slide gives only its text file, which a model file does not keep.
    if (!scene.model.isEmpty()) {
        if (QString err = target->setExtraState(scene.extra); !err.isEmpty()) return err;
        showLab(index);
        return models_->applySlide(scene.modelPath(), scene.replayStep, QString::fromStdString(scene.values.text("text")));
    }
    const ParamValues before = target->values();
    if (QString err = target->setValues(scene.values, false); !err.isEmpty()) return err;
    if (QString err = target->setExtraState(scene.extra); !err.isEmpty()) {
        target->setValues(before, false);
        return err;
    }
    target->recordChange(before);  // one undo step for the whole scene
    showLab(index);
    if (scene.replayStep >= 0) return models_->applySlide(QString(), scene.replayStep);  // the run's replay held
    return {};
}

QString MainWindow::openPath(const QString &path)
{
    SceneParse parsed;
    if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        QString error;
        const QString text = embeddedSceneText(path, &error);
        if (!error.isEmpty()) return error;
        if (text.isEmpty()) return tr("'%1' carries no FullBand scene").arg(path);
        parsed = parseSceneOrDeck(text.toUtf8(), labSpec);
    } else {
        parsed = readSceneFile(path, labSpec);
    }
    // A file that could not be read names its path already ("'/dev/null' is a device, ...").
    if (!parsed.error.isEmpty())
        return parsed.error.contains(QLatin1Char('\'') + path + QLatin1Char('\''))
            ? parsed.error : QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), parsed.error);
    // A slide's model file is read from the folder of the file that names it.
    const QString folder = QFileInfo(path).absolutePath();
    parsed.scene.folder = folder;
    for (Scene &s : parsed.deck.scenes) s.folder = folder;
    if (parsed.isDeck) {
        if (!deck_->open(parsed.deck, path)) return {};  // the edited deck kept
    } else if (QString err = applyScene(parsed.scene); !err.isEmpty()) {
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), err);
    }
    rememberRecent(path);
    if (!parsed.warnings.isEmpty()) toast_->showText(parsed.warnings.join(QStringLiteral("; ")), 10000);
    return {};
}

QString MainWindow::saveScene(const QString &path)
{
    Scene s = currentScene();
    const LabSpec *spec = labSpec(s.lab);
    if (!spec) return tr("no lab is open");
    // The model named from the scene's folder: the two can move together.
    if (!s.model.isEmpty()) s.model = QDir(QFileInfo(path).absolutePath()).relativeFilePath(s.model);
    const QString err = writeFileAtomically(path, serializeScene(s, *spec));
    if (err.isEmpty()) rememberRecent(path);
    return err;
}

void MainWindow::rememberRecent(const QString &path)
{
    scenes_->rememberRecent(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile()) report(tr("Open dropped file"), openPath(url.toLocalFile()));
}

// --- export ---------------------------------------------------------------------------------

QImage MainWindow::chartImage(int chartIndex, QSize size, qreal scale)
{
    return export_->chartImage(chartIndex, size, scale);
}

QString MainWindow::exportChart(int chartIndex, const QString &path, QSize size, qreal scale)
{
    return export_->exportChart(chartIndex, path, size, scale);
}

QString MainWindow::exportAllCharts(const QString &folder, QSize size, qreal scale)
{
    return export_->exportAllCharts(folder, size, scale);
}

void MainWindow::setCaptionStrip(bool on)
{
    export_->setCaptionStrip(on);
}

// --- settings -------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    QSettings settings;
    // Every lab comes back as it was left; a stored state that no longer fits is ignored.
    for (int i = 0; i < labCount(); ++i) {
        const QByteArray stored = settings.value(QStringLiteral("labs/%1").arg(lab(i)->name())).toByteArray();
        if (stored.isEmpty()) continue;
        const SceneParse parsed = parseSceneOrDeck(stored, labSpec);
        if (parsed.error.isEmpty() && !parsed.isDeck && parsed.scene.lab == lab(i)->name()) {
            lab(i)->setValues(parsed.scene.values, false);  // where the last session ended: not a step
            lab(i)->setExtraState(parsed.scene.extra);
        }
    }
    // The first start fills at most the screen: 1600 x 1000, less on a 1024 x 768 projector.
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(QSize(1600, 1000).boundedTo(screen()->availableGeometry().size()));
    firstStart_ = !settings.contains(QStringLiteral("window/lab"));
    const int last = labIndex(settings.value(QStringLiteral("window/lab")).toString());
    sidebar_->setCurrentRow(last >= 0 ? last : 0);
    setExplanationShown(settings.value(QStringLiteral("window/explanation"), true).toBool());
}

void MainWindow::saveSettings()
{
    QSettings settings;
    if (!lecture_->isActive()) settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (LabView *l = currentLab()) settings.setValue(QStringLiteral("window/lab"), l->name());
    settings.setValue(QStringLiteral("window/explanation"), explanationPreference_);
    for (int i = 0; i < labCount(); ++i) {
        LabView *l = lab(i);
        const LabSpec *spec = labSpec(l->name());
        if (!spec) continue;
        Scene s { l->name(), l->title(), l->values(), l->extraState() };
        settings.setValue(QStringLiteral("labs/%1").arg(l->name()), serializeScene(s, *spec));
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!deck_->confirmDiscard()) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

} // namespace fb
