#include "app/lecture/deck_editor.h"

#include "app/export/image_export.h"
#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "app/window/toast.h"

#include <QAbstractItemModel>
#include <QDir>
#include <QFileInfo>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTextCursor>
#include <QVBoxLayout>

namespace fb {

namespace {
constexpr int kMaxTitleChars = 200;  // what a deck file keeps (app/scene/scene.cpp)

QPushButton *button(const QString &text, const QString &name, const QString &tip)
{
    auto *b = new QPushButton(text);
    b->setObjectName(name);
    b->setToolTip(tip);
    return b;
}
} // namespace

DeckEditor::DeckEditor(MainWindow *window)
    : window_(window)
{
    setObjectName(QStringLiteral("deckEditor"));
    caption_ = new QLabel;
    caption_->setObjectName(QStringLiteral("deckCaption"));
    caption_->setWordWrap(true);
    deckTitle_ = new QLineEdit;
    deckTitle_->setObjectName(QStringLiteral("deckTitle"));
    deckTitle_->setMaxLength(kMaxTitleChars);
    deckTitle_->setPlaceholderText(tr("Shown in lecture mode's header"));
    list_ = new QListWidget;
    list_->setObjectName(QStringLiteral("deckSlides"));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setWordWrap(true);
    list_->setTextElideMode(Qt::ElideRight);
    add_ = button(tr("Add current lab"), QStringLiteral("deckAdd"),
                  tr("A new slide after the selected one: the current lab as it is now (Ctrl+Shift+D)"));
    up_ = button(tr("Up"), QStringLiteral("deckUp"), tr("Move the selected slide up (or drag it)"));
    down_ = button(tr("Down"), QStringLiteral("deckDown"), tr("Move the selected slide down (or drag it)"));
    remove_ = button(tr("Remove"), QStringLiteral("deckRemove"), tr("Remove the selected slide from the deck"));
    show_ = button(tr("Show"), QStringLiteral("deckShow"), tr("Show the selected slide in the window (or double-click it)"));
    update_ = button(tr("Update"), QStringLiteral("deckUpdate"),
                     tr("The selected slide takes the current lab as it is now (its title and notes stay)"));
    present_ = button(tr("Present"), QStringLiteral("deckPresent"), tr("Lecture mode from the selected slide (Shift+F5)"));
    slideTitle_ = new QLineEdit;
    slideTitle_->setObjectName(QStringLiteral("slideTitle"));
    slideTitle_->setMaxLength(kMaxTitleChars);
    slideTitle_->setPlaceholderText(tr("The slide's title"));
    notes_ = new QPlainTextEdit;
    notes_->setObjectName(QStringLiteral("slideNotes"));
    notes_->setPlaceholderText(tr("What to say on this slide: shown in the presenter view on a second screen"));
    notes_->setTabChangesFocus(true);
    auto *newDeckButton = button(tr("New"), QStringLiteral("deckNew"), tr("Start a new, empty deck"));
    auto *saveButton = button(tr("Save"), QStringLiteral("deckSave"), tr("Save the deck to its file"));
    auto *saveAsButton = button(tr("Save as…"), QStringLiteral("deckSaveAs"), tr("Save the deck to a new file"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addWidget(caption_);
    layout->addWidget(new QLabel(tr("Deck title")));
    layout->addWidget(deckTitle_);
    layout->addWidget(list_, 3);
    layout->addWidget(add_);
    auto *grid = new QGridLayout;
    grid->addWidget(up_, 0, 0);
    grid->addWidget(down_, 0, 1);
    grid->addWidget(remove_, 0, 2);
    grid->addWidget(show_, 1, 0);
    grid->addWidget(update_, 1, 1);
    grid->addWidget(present_, 1, 2);
    layout->addLayout(grid);
    layout->addWidget(new QLabel(tr("Slide title")));
    layout->addWidget(slideTitle_);
    layout->addWidget(new QLabel(tr("Notes")));
    layout->addWidget(notes_, 2);
    auto *files = new QHBoxLayout;
    files->addWidget(newDeckButton);
    files->addWidget(saveButton);
    files->addWidget(saveAsButton);
    layout->addLayout(files);

    connect(add_, &QPushButton::clicked, this, &DeckEditor::addCurrentLab);
    connect(remove_, &QPushButton::clicked, this, &DeckEditor::removeSlide);
    connect(up_, &QPushButton::clicked, this, [this] { moveSlide(-1); });
    connect(down_, &QPushButton::clicked, this, [this] { moveSlide(+1); });
    connect(show_, &QPushButton::clicked, this, &DeckEditor::showSlide);
    connect(update_, &QPushButton::clicked, this, &DeckEditor::updateFromCurrentLab);
    connect(present_, &QPushButton::clicked, this, [this] {
        if (!deck_.scenes.isEmpty()) Q_EMIT presentRequested(qMax(0, currentSlide()));
    });
    connect(newDeckButton, &QPushButton::clicked, this, &DeckEditor::newDeck);
    connect(saveButton, &QPushButton::clicked, this, &DeckEditor::save);
    connect(saveAsButton, &QPushButton::clicked, this, &DeckEditor::saveAs);
    connect(list_, &QListWidget::currentRowChanged, this, &DeckEditor::updateSelection);
    connect(list_, &QListWidget::itemDoubleClicked, this, &DeckEditor::showSlide);
    // A slide dragged to a new place: the deck takes the list's order once the list is done.
    auto reordered = [this] { QMetaObject::invokeMethod(this, &DeckEditor::listReordered, Qt::QueuedConnection); };
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this, reordered);
    connect(list_->model(), &QAbstractItemModel::rowsInserted, this, reordered);
    connect(deckTitle_, &QLineEdit::textEdited, this, [this](const QString &text) {
        deck_.title = text;
        markModified();
    });
    connect(slideTitle_, &QLineEdit::textEdited, this, &DeckEditor::titleEdited);
    connect(notes_, &QPlainTextEdit::textChanged, this, &DeckEditor::notesEdited);
    rebuildList(-1);
}

int DeckEditor::currentSlide() const
{
    const int row = list_->currentRow();
    return row >= 0 && row < deck_.scenes.size() ? row : -1;
}

void DeckEditor::selectSlide(int index)
{
    if (index >= 0 && index < deck_.scenes.size()) list_->setCurrentRow(index);
}

void DeckEditor::setDeck(const Deck &deck, const QString &path)
{
    deck_ = deck;
    path_ = path;
    modified_ = false;
    updating_ = true;
    deckTitle_->setText(deck_.title);
    updating_ = false;
    rebuildList(deck_.scenes.isEmpty() ? -1 : 0);
    Q_EMIT deckChanged();
}

QString DeckEditor::itemText(int index) const
{
    const Scene &s = deck_.scenes[index];
    const int lab = labIndex(s.lab);
    const QString labTitle = lab >= 0 ? labRegistry()[lab].title : s.lab;
    return QStringLiteral("%1. %2\n     %3%4").arg(index + 1).arg(s.title.isEmpty() ? labTitle : s.title, labTitle,
                                                   s.notes.isEmpty() ? QString() : tr(" · notes"));
}

void DeckEditor::rebuildList(int select)
{
    updating_ = true;
    list_->clear();
    for (int i = 0; i < deck_.scenes.size(); ++i) {
        auto *item = new QListWidgetItem(itemText(i));
        item->setToolTip(deck_.scenes[i].title);
        item->setData(Qt::UserRole, i);
        list_->addItem(item);
    }
    updating_ = false;
    if (select >= 0 && select < deck_.scenes.size()) list_->setCurrentRow(select);
    updateSelection();
    updateCaption();
}

void DeckEditor::updateSelection()
{
    if (updating_) return;
    const int i = currentSlide();
    const bool on = i >= 0;
    updating_ = true;
    slideTitle_->setText(on ? deck_.scenes[i].title : QString());
    notes_->setPlainText(on ? deck_.scenes[i].notes : QString());
    updating_ = false;
    slideTitle_->setEnabled(on);
    notes_->setEnabled(on);
    remove_->setEnabled(on);
    show_->setEnabled(on);
    update_->setEnabled(on);
    up_->setEnabled(on && i > 0);
    down_->setEnabled(on && i + 1 < deck_.scenes.size());
    present_->setEnabled(!deck_.scenes.isEmpty());
}

void DeckEditor::updateCaption()
{
    const QString name = path_.isEmpty() ? tr("New deck") : QFileInfo(path_).fileName();
    caption_->setText(tr("<b>%1</b>%2 — %n slide(s)", nullptr, int(deck_.scenes.size()))
                          .arg(name.toHtmlEscaped(), modified_ ? tr(" (modified)") : QString()));
}

void DeckEditor::markModified()
{
    if (updating_) return;
    modified_ = true;
    updateCaption();
    Q_EMIT deckChanged();
}

void DeckEditor::titleEdited(const QString &text)
{
    const int i = currentSlide();
    if (updating_ || i < 0) return;
    deck_.scenes[i].title = text;
    list_->item(i)->setText(itemText(i));
    list_->item(i)->setToolTip(text);
    markModified();
}

void DeckEditor::notesEdited()
{
    const int i = currentSlide();
    if (updating_ || i < 0) return;
    QString text = notes_->toPlainText();
    if (characterCount(text) > kMaxNotesChars) {
        // A deck file keeps at most kMaxNotesChars characters of notes per slide.
        text = firstCharacters(text, kMaxNotesChars);
        updating_ = true;
        notes_->setPlainText(text);
        notes_->moveCursor(QTextCursor::End);
        updating_ = false;
    }
    const bool hadNotes = !deck_.scenes[i].notes.isEmpty();
    deck_.scenes[i].notes = text;
    if (hadNotes != !text.isEmpty()) list_->item(i)->setText(itemText(i));
    markModified();
}

void DeckEditor::listReordered()
{
    // Every item holds the index of its slide as the list was last built.
    if (updating_ || list_->count() != deck_.scenes.size()) return;
    QList<Scene> scenes;
    bool moved = false;
    for (int row = 0; row < list_->count(); ++row) {
        const int from = list_->item(row)->data(Qt::UserRole).toInt();
        if (from < 0 || from >= deck_.scenes.size()) return;
        moved = moved || from != row;
        scenes << deck_.scenes[from];
    }
    if (!moved) return;
    deck_.scenes = scenes;
    markModified();
    rebuildList(currentSlide());
}

void DeckEditor::addCurrentLab()
{
    Scene s = window_->currentScene();
    if (s.lab.isEmpty()) return;
    const int at = currentSlide() >= 0 ? currentSlide() + 1 : int(deck_.scenes.size());
    deck_.scenes.insert(at, s);
    markModified();
    rebuildList(at);
    // The lab's title is only a start: type the slide's own (in the editor's window, which is
    // a window of its own when the editor floats).
    if (isVisible()) window()->activateWindow();
    slideTitle_->setFocus();
    slideTitle_->selectAll();
}

void DeckEditor::updateFromCurrentLab()
{
    const int i = currentSlide();
    Scene s = window_->currentScene();
    if (i < 0 || s.lab.isEmpty()) return;
    s.title = deck_.scenes[i].title;
    s.notes = deck_.scenes[i].notes;
    // What the slide does in a lecture stays with it while it shows the same lab: its animation and
    // whether it starts training on entering.
    if (s.lab == deck_.scenes[i].lab) {
        s.animation = deck_.scenes[i].animation;
        s.trainOnEnter = deck_.scenes[i].trainOnEnter;
        // The slide's model, still the one shown: named as the slide named it, its replay kept.
        const Scene &old = deck_.scenes[i];
        if (!old.model.isEmpty() && !s.model.isEmpty()
            && QFileInfo(old.modelPath()).absoluteFilePath() == QFileInfo(s.model).absoluteFilePath()) {
            s.model = old.model;
            s.folder = old.folder;
            s.replayStep = old.replayStep;
        }
    }
    deck_.scenes[i] = s;
    markModified();
    rebuildList(i);
}

void DeckEditor::removeSlide()
{
    const int i = currentSlide();
    if (i < 0) return;
    deck_.scenes.removeAt(i);
    markModified();
    rebuildList(qMin(i, int(deck_.scenes.size()) - 1));
}

void DeckEditor::moveSlide(int delta)
{
    const int i = currentSlide();
    const int to = i + delta;
    if (i < 0 || to < 0 || to >= deck_.scenes.size()) return;
    deck_.scenes.move(i, to);
    markModified();
    rebuildList(to);
}

void DeckEditor::showSlide()
{
    const int i = currentSlide();
    if (i < 0) return;
    window_->report(tr("Show slide"), window_->applyScene(deck_.scenes[i]));
}

void DeckEditor::newDeck()
{
    if (!confirmDiscard()) return;
    setDeck(Deck {}, QString());
}

QString DeckEditor::saveTo(const QString &path)
{
    if (deck_.scenes.isEmpty()) return tr("the deck has no slides: add the current lab first");
    // A model a slide took from the window (an absolute path) is named from the deck's folder: the
    // two can move together.
    Deck out = deck_;
    for (Scene &s : out.scenes)
        if (!s.model.isEmpty() && QDir::isAbsolutePath(s.model))
            s.model = QDir(QFileInfo(path).absolutePath()).relativeFilePath(s.model);
    const QString err = writeFileAtomically(path, serializeDeck(out, labSpec));
    if (!err.isEmpty()) return err;
    path_ = path;
    modified_ = false;
    updateCaption();
    window_->rememberRecent(path);
    return {};
}

bool DeckEditor::save()
{
    if (path_.isEmpty()) return saveAs();
    const QString err = saveTo(path_);
    window_->report(tr("Save deck"), err.isEmpty() ? QString() : err + tr("\nThe previous file, if any, is unchanged."));
    if (err.isEmpty()) window_->toast()->showText(tr("Saved %1").arg(path_), 5000);
    return err.isEmpty();
}

namespace {
// A folder Save as can offer: one that exists and that its owner may write. The write bit is read
// rather than asked of the system, which lets root write anywhere: the decks FullBand ships are
// installed read-only, and a copy of them belongs with the user's files.
bool writableFolder(const QString &folder)
{
    const QFileInfo info(folder);
    return !folder.isEmpty() && info.isDir() && info.isWritable() && (info.permissions() & QFileDevice::WriteOwner);
}
} // namespace

QString DeckEditor::saveFolder() const
{
    if (!path_.isEmpty() && writableFolder(QFileInfo(path_).absolutePath())) return QFileInfo(path_).absolutePath();
    const QString last = QSettings().value(QStringLiteral("scenes/folder")).toString();
    if (writableFolder(last)) return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (writableFolder(documents)) return documents;
    return QDir::homePath();
}

bool DeckEditor::saveAs()
{
    if (deck_.scenes.isEmpty()) {
        window_->report(tr("Save deck"), tr("The deck has no slides: add the current lab first."));
        return false;
    }
    QSettings settings;
    const QString slug = fileSlug(deck_.title.isEmpty() ? tr("deck") : deck_.title);
    QString path = QFileDialog::getSaveFileName(this, tr("Save deck"), QDir(saveFolder()).filePath(slug + QStringLiteral(".fullband")),
                                                tr("FullBand decks (*.fullband)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".fullband"))) path += QStringLiteral(".fullband");
    settings.setValue(QStringLiteral("scenes/folder"), QFileInfo(path).absolutePath());
    const QString err = saveTo(path);
    window_->report(tr("Save deck"), err.isEmpty() ? QString() : err + tr("\nThe previous file, if any, is unchanged."));
    if (err.isEmpty()) window_->toast()->showText(tr("Saved %1").arg(path), 5000);
    return err.isEmpty();
}

bool DeckEditor::confirmDiscard()
{
    if (!modified_) return true;
    QMessageBox box(QMessageBox::Question, tr("Unsaved deck"),
                    tr("The deck “%1” has unsaved changes. Save them?")
                        .arg(deck_.title.isEmpty() ? tr("New deck") : deck_.title),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("deckUnsaved"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

} // namespace fb
