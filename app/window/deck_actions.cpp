#include "app/window/deck_actions.h"

#include "app/lecture/deck_editor.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>

#include <algorithm>

namespace fb {

DeckActions::DeckActions(MainWindow *window, LectureMode *lecture)
    : QObject(window)
    , window_(window)
    , lecture_(lecture)
{
    editor_ = new DeckEditor(window);
    dock_ = new QDockWidget(tr("Deck"), window);
    dock_->setObjectName(QStringLiteral("deckDock"));
    dock_->setWidget(editor_);
    dock_->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    connect(editor_, &DeckEditor::deckChanged, this, [this] { edited_ = true; });
    connect(editor_, &DeckEditor::presentRequested, this, &DeckActions::present);
    // Lecture mode gives the screen to the slide; the editor comes back afterwards, on the slide
    // lecture mode stopped at.
    connect(lecture_, &LectureMode::activeChanged, this, [this](bool on) {
        if (on) {
            dockWasVisible_ = dock_->isVisible();
            dock_->hide();
            return;
        }
        if (!edited_) editor_->selectSlide(lecture_->position());
        if (dockWasVisible_) showEditor();
    });
}

void DeckActions::buildMenu(QMenuBar *bar)
{
    QMenu *deck = bar->addMenu(tr("&Deck"));
    QAction *editor = deck->addAction(tr("Deck &editor"));
    editor->setCheckable(true);
    editor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    connect(editor, &QAction::triggered, this, [this](bool on) { on ? showEditor() : dock_->hide(); });
    // The signal's own value, not the window: the dock is also hidden while the window is destroyed.
    connect(dock_, &QDockWidget::visibilityChanged, editor, &QAction::setChecked);
    deck->addAction(tr("&Add current lab as a slide"), this, [this] {
        showEditor();
        editor_->addCurrentLab();
    })->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    deck->addSeparator();
    deck->addAction(tr("&New deck"), this, [this] {
        showEditor();
        editor_->newDeck();
    });
    deck->addAction(tr("&Save deck"), editor_, &DeckEditor::save);
    deck->addAction(tr("Save deck &as…"), editor_, &DeckEditor::saveAs);
    deck->addSeparator();
    deck->addAction(tr("&Present from the selected slide"), this, [this] {
        present(std::max(0, editor_->currentSlide()));
    })->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
}

void DeckActions::showEditor()
{
    // Docked, the editor takes its width from the lab; a lab at its narrowest and the editor must
    // both fit the window as it is.
    const int editorWidth = dock_->minimumSizeHint().width();
    const bool fits = window_->centralWidget()->minimumSizeHint().width() + editorWidth + 8 <= window_->width();
    if (!fits && !dock_->isFloating()) {
        dock_->setFloating(true);
        // Over the lab list and the parameter column, on the left: the charts (what a slide shows)
        // stay in sight while titles and notes are written.
        const QRect r = window_->geometry();
        const int w = std::max(editorWidth, 300);
        const int h = std::max(dock_->minimumSizeHint().height(), r.height() - 72);
        dock_->setGeometry(QRect(r.left() + 8, r.top() + 40, w, h));
    }
    dock_->show();
    dock_->raise();
    // Floating, the editor is a window of its own: the keyboard goes there, to its list.
    if (dock_->isFloating()) dock_->activateWindow();
}

void DeckActions::toggleLecture()
{
    if (lecture_->isActive()) {
        lecture_->leave();
        return;
    }
    // The deck as edited since lecture mode last had it, from its first slide.
    if (edited_) {
        lecture_->setDeck(editor_->deck(), 0);
        edited_ = false;
    }
    lecture_->enter();
}

void DeckActions::present(int position)
{
    if (editor_->deck().scenes.isEmpty()) return;
    lecture_->setDeck(editor_->deck(), position);
    edited_ = false;
    lecture_->enter();
}

bool DeckActions::open(const Deck &deck, const QString &path)
{
    // The deck being edited is not replaced without asking.
    if (!editor_->confirmDiscard()) return false;
    editor_->setDeck(deck, path);
    lecture_->setDeck(deck, 0);
    edited_ = false;
    return true;
}

bool DeckActions::confirmDiscard()
{
    return editor_->confirmDiscard();
}

} // namespace fb
