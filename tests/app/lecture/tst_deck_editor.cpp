// The deck editor and the presenter view: a lecturer builds a three-slide deck with notes by the
// editor's own buttons, reorders and removes slides, saves it (the file reads back identical),
// and lecture mode presents it; the presenter view follows the clicker with the notes and the
// next slide's title; unsaved changes are asked about; a failed save changes nothing; the editor
// fits a 1024 x 768 window.
#include "app/lecture/deck_editor.h"
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "app/lecture/presenter_view.h"
#include "views/lab/lab_view.h"

#include <QAbstractButton>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace fb;

namespace {

// Answers the next modal dialog (a file dialog, a question) as soon as it is open.
void answerModal(std::function<void(QWidget *)> answer)
{
    auto *timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, answer] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal) return;
        timer->stop();
        timer->deleteLater();
        answer(modal);
    });
    timer->start();
}

void clickButton(QWidget *modal, QMessageBox::StandardButton which)
{
    auto *box = qobject_cast<QMessageBox *>(modal);
    QVERIFY(box);
    box->button(which)->click();
}

QPushButton *buttonOf(const DeckEditor *e, const char *name)
{
    auto *b = e->findChild<QPushButton *>(QString::fromLatin1(name));
    if (!b) qFatal("no button %s", name);
    return b;
}

void setParam(MainWindow &w, const char *lab, const char *key, double value)
{
    w.showLab(labIndex(QString::fromLatin1(lab)));
    ParamValues v = w.currentLab()->values();
    v.numbers[key] = value;
    QCOMPARE(w.currentLab()->setValues(v), QString());
}

// Adds the current lab by the editor's button, types its title and notes.
void addSlide(DeckEditor *e, const QString &title, const QString &notes)
{
    QTest::mouseClick(buttonOf(e, "deckAdd"), Qt::LeftButton);
    // The new slide's title field holds the lab's title, selected: typing replaces it.
    auto *titleEdit = e->findChild<QLineEdit *>(QStringLiteral("slideTitle"));
    QVERIFY(titleEdit->hasSelectedText());
    QTest::keyClicks(titleEdit, title);
    QCOMPARE(e->deck().scenes[e->currentSlide()].title, title);
    auto *notesEdit = e->findChild<QPlainTextEdit *>(QStringLiteral("slideNotes"));
    QTest::mouseClick(notesEdit->viewport(), Qt::LeftButton);
    QTest::keyClicks(notesEdit, notes);
}

QStringList titles(const Deck &d)
{
    QStringList t;
    for (const Scene &s : d.scenes) t << s.title;
    return t;
}

Deck threeSlides()
{
    Deck d;
    d.title = QStringLiteral("Three");
    for (const char *name : { "decay-bound", "capacity", "costs" })
        d.scenes << Scene { QString::fromLatin1(name), QStringLiteral("Slide %1").arg(d.scenes.size() + 1),
                            labSpec(QString::fromLatin1(name))->defaults(), {},
                            QStringLiteral("Notes %1").arg(d.scenes.size() + 1) };
    d.scenes[1].notes.clear();
    return d;
}

} // namespace

class TestDeckEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandDeckTest"));
    }

    void buildsSavesAndPresentsAThreeSlideDeck()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier);
        QVERIFY(w.deckDock()->isVisible());
        DeckEditor *e = w.deckEditor();

        setParam(w, "decay-bound", "base", 500000);
        addSlide(e, QStringLiteral("The decay bound"), QStringLiteral("Point at the envelope."));
        setParam(w, "capacity", "snr", 30);
        addSlide(e, QStringLiteral("Capacity"), QStringLiteral("Bits per step."));
        w.showLab(labIndex(QStringLiteral("attention")));
        addSlide(e, QStringLiteral("A slide to drop"), QStringLiteral("Never shown."));
        w.showLab(labIndex(QStringLiteral("costs")));
        addSlide(e, QStringLiteral("KV cache"), QStringLiteral("70B: MHA against GQA."));
        QCOMPARE(titles(e->deck()), QStringList({ QStringLiteral("The decay bound"), QStringLiteral("Capacity"),
                                                  QStringLiteral("A slide to drop"), QStringLiteral("KV cache") }));
        QCOMPARE(e->deck().scenes[0].values.number("base"), 500000.0);
        QCOMPARE(e->deck().scenes[1].values.number("snr"), 30.0);

        // Remove the third, move "KV cache" up to second place.
        e->selectSlide(2);
        QTest::mouseClick(buttonOf(e, "deckRemove"), Qt::LeftButton);
        QCOMPARE(e->deck().scenes.size(), 3);
        QCOMPARE(e->currentSlide(), 2);
        QTest::mouseClick(buttonOf(e, "deckUp"), Qt::LeftButton);
        QCOMPARE(titles(e->deck()), QStringList({ QStringLiteral("The decay bound"), QStringLiteral("KV cache"),
                                                  QStringLiteral("Capacity") }));
        QCOMPARE(e->currentSlide(), 1);
        QTest::mouseClick(buttonOf(e, "deckDown"), Qt::LeftButton);
        QTest::mouseClick(buttonOf(e, "deckUp"), Qt::LeftButton);
        QCOMPARE(e->deck().scenes[1].notes, QStringLiteral("70B: MHA against GQA."));
        QCOMPARE(e->findChild<QListWidget *>(QStringLiteral("deckSlides"))->count(), 3);

        auto *deckTitle = e->findChild<QLineEdit *>(QStringLiteral("deckTitle"));
        QTest::mouseClick(deckTitle, Qt::LeftButton);
        QTest::keyClicks(deckTitle, QStringLiteral("My lecture"));
        QCOMPARE(e->deck().title, QStringLiteral("My lecture"));
        QVERIFY(e->isModified());

        // Save: the file dialog gets a new file's name.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("my-lecture.fullband"));
        answerModal([path](QWidget *modal) {
            auto *dialog = qobject_cast<QFileDialog *>(modal);
            QVERIFY(dialog);
            dialog->selectFile(path);
            static_cast<QDialog *>(dialog)->accept();  // QFileDialog::accept, protected there
        });
        QTest::mouseClick(buttonOf(e, "deckSave"), Qt::LeftButton);
        QVERIFY(!e->isModified());
        QCOMPARE(e->path(), path);
        const SceneParse back = readSceneFile(path, labSpec);
        QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
        QVERIFY(back.isDeck && back.warnings.isEmpty());
        QCOMPARE(back.deck.title, e->deck().title);
        QCOMPARE(back.deck.scenes.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(back.deck.scenes[i].lab, e->deck().scenes[i].lab);
            QCOMPARE(back.deck.scenes[i].title, e->deck().scenes[i].title);
            QCOMPARE(back.deck.scenes[i].notes, e->deck().scenes[i].notes);
            QVERIFY(back.deck.scenes[i].values == e->deck().scenes[i].values);
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(serializeDeck(back.deck, labSpec), file.readAll());

        // Save again goes to the same file without a dialog.
        e->selectSlide(2);
        auto *notes = e->findChild<QPlainTextEdit *>(QStringLiteral("slideNotes"));
        QTest::mouseClick(notes->viewport(), Qt::LeftButton);
        QTest::keyClick(notes, Qt::Key_End, Qt::ControlModifier);
        QTest::keyClicks(notes, QStringLiteral(" More."));
        QVERIFY(e->isModified());
        QTest::mouseClick(buttonOf(e, "deckSave"), Qt::LeftButton);
        QVERIFY(!e->isModified());
        QCOMPARE(readSceneFile(path, labSpec).deck.scenes[2].notes, QStringLiteral("Bits per step. More."));

        // F5 presents the edited deck from its first slide; the clicker steps through it.
        w.showLab(0);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_F5);
        LectureMode *lecture = w.lecture();
        QVERIFY(lecture->isActive());
        QVERIFY(!w.deckDock()->isVisible());
        QCOMPARE(lecture->deck().scenes.size(), 3);
        QCOMPARE(lecture->position(), 0);
        QCOMPARE(w.currentLab()->name(), QStringLiteral("decay-bound"));
        QCOMPARE(w.currentLab()->values().number("base"), 500000.0);
        QVERIFY(lecture->header()->text().contains(QStringLiteral("1\u00a0/\u00a03")));
        QVERIFY(lecture->header()->text().contains(QStringLiteral("My lecture")));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lecture->position(), 1);
        QCOMPARE(w.currentLab()->name(), QStringLiteral("costs"));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.currentLab()->name(), QStringLiteral("capacity"));
        QCOMPARE(w.currentLab()->values().number("snr"), 30.0);
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(lecture->position(), 2);
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(lecture->position(), 1);
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!lecture->isActive());
        // The editor comes back on the slide lecture mode stopped at.
        QVERIFY(w.deckDock()->isVisible());
        QCOMPARE(e->currentSlide(), 1);
        // Present starts from the selected slide.
        QTest::mouseClick(buttonOf(e, "deckPresent"), Qt::LeftButton);
        QVERIFY(lecture->isActive());
        QCOMPARE(lecture->position(), 1);
        lecture->leave();
    }

    void presenterViewFollowsTheDeck()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Deck deck = threeSlides();
        w.deckEditor()->setDeck(deck, QString());
        PresenterView *p = w.lecture()->presenter();

        // One screen (the projector): no presenter view.
        if (QGuiApplication::screens().size() == 1) {
            w.presentDeck(0);
            QVERIFY(w.lecture()->isActive());
            QVERIFY(!p->isVisible());
            w.lecture()->leave();
        }

        p->setForced(true);
        w.presentDeck(0);
        QVERIFY(p->isVisible());
        QVERIFY(p->isWindow());
        QCOMPARE(p->counterText(), QStringLiteral("Slide 1 / 3"));
        QCOMPARE(p->titleText(), QStringLiteral("Slide 1"));
        QCOMPARE(p->notesText(), QStringLiteral("Notes 1"));
        QCOMPARE(p->nextText(), QStringLiteral("Next: Slide 2"));
        QCOMPARE(p->clockText(), QStringLiteral("0:00:00"));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(p->counterText(), QStringLiteral("Slide 2 / 3"));
        QCOMPARE(p->notesText(), QString());
        QCOMPARE(p->nextText(), QStringLiteral("Next: Slide 3"));
        // The clicker's keys work with the presenter view focused too.
        QTest::keyClick(p, Qt::Key_PageDown);
        QCOMPARE(w.lecture()->position(), 2);
        QCOMPARE(p->notesText(), QStringLiteral("Notes 3"));
        QCOMPARE(p->nextText(), QStringLiteral("Next: end of the deck"));
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(p->counterText().contains(QStringLiteral("black")));
        QTest::keyClick(&w, Qt::Key_B);
        QCOMPARE(p->counterText(), QStringLiteral("Slide 3 / 3"));
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(p->notesText(), QString());
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.lecture()->isActive());
        QVERIFY(!p->isVisible());
    }

    void unsavedChangesAreAsked()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        DeckEditor *e = w.deckEditor();
        e->setDeck(threeSlides(), QString());
        QVERIFY(!e->isModified());
        e->selectSlide(0);
        QTest::mouseClick(buttonOf(e, "deckRemove"), Qt::LeftButton);
        QVERIFY(e->isModified());
        // New: Cancel keeps the deck, Discard empties it.
        answerModal([](QWidget *m) { clickButton(m, QMessageBox::Cancel); });
        e->newDeck();
        QCOMPARE(e->deck().scenes.size(), 2);
        QVERIFY(e->isModified());
        // Opening another deck asks too; Cancel keeps this one.
        QTemporaryDir dir;
        const QString other = dir.filePath(QStringLiteral("other.fullband"));
        QCOMPARE(writeFileAtomically(other, serializeDeck(threeSlides(), labSpec)), QString());
        answerModal([](QWidget *m) { clickButton(m, QMessageBox::Cancel); });
        QCOMPARE(w.openPath(other), QString());
        QCOMPARE(e->deck().scenes.size(), 2);
        // Closing the window: Cancel keeps it open.
        answerModal([](QWidget *m) { clickButton(m, QMessageBox::Cancel); });
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        answerModal([](QWidget *m) { clickButton(m, QMessageBox::Discard); });
        e->newDeck();
        QCOMPARE(e->deck().scenes.size(), 0);
        QVERIFY(!e->isModified());
        QVERIFY(w.close());
    }

    // Update: the slide takes the lab as it is now, keeps its title and notes; Show brings it back.
    void updateTakesTheLabAndKeepsTheWords()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.deckDock()->show();
        DeckEditor *e = w.deckEditor();
        e->setDeck(threeSlides(), QString());
        setParam(w, "decay-bound", "base", 123456);
        e->selectSlide(0);
        QTest::mouseClick(buttonOf(e, "deckUpdate"), Qt::LeftButton);
        QCOMPARE(e->deck().scenes[0].values.number("base"), 123456.0);
        QCOMPARE(e->deck().scenes[0].title, QStringLiteral("Slide 1"));
        QCOMPARE(e->deck().scenes[0].notes, QStringLiteral("Notes 1"));
        QVERIFY(e->isModified());
        e->selectSlide(2);
        QTest::mouseClick(buttonOf(e, "deckShow"), Qt::LeftButton);
        QCOMPARE(w.currentLab()->name(), QStringLiteral("costs"));
    }

    // A slide dragged to a new place in the list (the list moves its item): the deck follows.
    void draggedOrderIsTheDeckOrder()
    {
        MainWindow w;
        DeckEditor *e = w.deckEditor();
        e->setDeck(threeSlides(), QString());
        auto *list = e->findChild<QListWidget *>(QStringLiteral("deckSlides"));
        QListWidgetItem *item = list->takeItem(0);
        list->insertItem(2, item);
        QTRY_COMPARE(titles(e->deck()), QStringList({ QStringLiteral("Slide 2"), QStringLiteral("Slide 3"),
                                                      QStringLiteral("Slide 1") }));
        QVERIFY(e->isModified());
        QVERIFY(list->item(2)->text().startsWith(QStringLiteral("3. Slide 1")));
        QCOMPARE(e->deck().scenes[2].notes, QStringLiteral("Notes 1"));
    }

    void failedSaveChangesNothing()
    {
        MainWindow w;
        DeckEditor *e = w.deckEditor();
        QVERIFY(!e->saveTo(QDir::temp().filePath(QStringLiteral("empty.fullband"))).isEmpty());  // no slides
        e->setDeck(threeSlides(), QString());
        e->selectSlide(1);
        e->removeSlide();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain"));
        QCOMPARE(writeFileAtomically(file, "keep"), QString());
        const QString impossible = file + QStringLiteral("/deck.fullband");
        const QString err = e->saveTo(impossible);
        QVERIFY2(err.contains(impossible), qPrintable(err));
        QVERIFY(e->isModified());
        QCOMPARE(e->path(), QString());
        QCOMPARE(e->deck().scenes.size(), 2);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep"));
    }

    // Save as proposes the deck's own folder when it can be written, never the read-only folder of
    // the shipped decks (root included: the write bit decides), else the last folder saved to.
    void saveAsProposesAWritableFolder()
    {
        MainWindow w;
        DeckEditor *e = w.deckEditor();
        QTemporaryDir shipped, mine, last;
        e->setDeck(threeSlides(), QDir(mine.path()).filePath(QStringLiteral("talk.fullband")));
        QCOMPARE(e->saveFolder(), QDir(mine.path()).absolutePath());
        QSettings().setValue(QStringLiteral("scenes/folder"), last.path());
        QVERIFY(QFile::setPermissions(shipped.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner
                                                          | QFileDevice::ReadOther | QFileDevice::ExeOther));
        e->setDeck(threeSlides(), QDir(shipped.path()).filePath(QStringLiteral("road-to-transformers.fullband")));
        QCOMPARE(e->saveFolder(), last.path());
        QSettings().setValue(QStringLiteral("scenes/folder"), shipped.path());
        QVERIFY(e->saveFolder() != shipped.path());
        QVERIFY(QFileInfo(e->saveFolder()).isDir());
        QFile::setPermissions(shipped.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // With the editor open the window does not grow: at 1024 x 768 the editor floats over the lab
    // list and the parameters (the charts stay in sight), at 1920 x 1080 it is docked beside the
    // lab, which keeps half the width.
    // No button or label of the editor is cut, no two of its widgets overlap.
    void editorFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("docked");
        QTest::newRow("1024x768") << QSize(1024, 768) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << true;
    }
    void editorFits()
    {
        QFETCH(QSize, size);
        QFETCH(bool, docked);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.deckEditor()->setDeck(threeSlides(), QStringLiteral("/a/rather/long/path/to/a-deck-with-a-long-file-name.fullband"));
        w.deckEditor()->selectSlide(1);
        w.showDeckEditor();
        QVERIFY(w.deckDock()->isVisible());
        QCoreApplication::processEvents();
        QCOMPARE(w.size(), size);
        QCOMPARE(!w.deckDock()->isFloating(), docked);
        if (!docked) {
            QVERIFY(w.geometry().contains(w.deckDock()->geometry()));
            // Floating, it lies over the lab list and the parameters, not over the charts.
            const QWidget *charts = w.currentLab()->findChild<QWidget *>(QStringLiteral("labCharts"));
            QVERIFY(charts);
            const int chartsLeft = charts->mapToGlobal(QPoint(0, 0)).x();
            QVERIFY2(w.deckDock()->geometry().right() <= chartsLeft + 2,
                     qPrintable(QStringLiteral("editor to x = %1, charts from x = %2").arg(w.deckDock()->geometry().right()).arg(chartsLeft)));
        }
        QStringList problems;
        const QWidget *editor = w.deckEditor();
        QList<const QWidget *> shown;
        for (const QWidget *c : editor->findChildren<const QWidget *>(Qt::FindDirectChildrenOnly))
            if (c->isVisible()) shown << c;
        for (const QWidget *c : shown) {
            if (!editor->rect().contains(c->geometry())) problems << QStringLiteral("outside: %1").arg(c->objectName());
            if (auto *b = qobject_cast<const QAbstractButton *>(c); b && b->sizeHint().width() > b->width() + 1)
                problems << QStringLiteral("button cut: %1").arg(b->text());
            if (auto *l = qobject_cast<const QLabel *>(c); l && !l->wordWrap() && l->sizeHint().width() > l->width() + 1)
                problems << QStringLiteral("label cut: %1").arg(l->text());
            if (auto *l = qobject_cast<const QLabel *>(c); l && l->wordWrap() && l->heightForWidth(l->width()) > l->height() + 1)
                problems << QStringLiteral("label cut: %1").arg(l->text());
            if (c->height() < c->minimumSizeHint().height()) problems << QStringLiteral("squeezed: %1").arg(c->objectName());
        }
        for (int i = 0; i < shown.size(); ++i)
            for (int j = i + 1; j < shown.size(); ++j)
                if (shown[i]->geometry().intersects(shown[j]->geometry()))
                    problems << QStringLiteral("overlap: %1 and %2").arg(shown[i]->objectName(), shown[j]->objectName());
        // Docked, the lab keeps at least half the window.
        if (docked && w.currentLab()->width() < size.width() / 2) problems << QStringLiteral("the lab is %1 px wide").arg(w.currentLab()->width());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestDeckEditor)
#include "tst_deck_editor.moc"
