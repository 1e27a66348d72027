// The presenter view with two screens (the offscreen platform configured with two): lecture mode
// shows the notes window on the screen the main window is not on, never on the projector's, and
// it follows the clicker.
#include "app/lecture/deck_editor.h"
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "app/lecture/presenter_view.h"
#include "support/offscreen_screens.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScreen>
#include <QStandardPaths>
#include <QTest>

using namespace fb;

class TestPresenterView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandPresenterTest"));
        QCOMPARE(QGuiApplication::screens().size(), 2);
    }

    void notesGoToTheOtherScreen()
    {
        Deck deck;
        deck.title = QStringLiteral("Two screens");
        for (const char *name : { "decay-bound", "capacity" })
            deck.scenes << Scene { QString::fromLatin1(name), QString::fromLatin1(name).toUpper(),
                                   labSpec(QString::fromLatin1(name))->defaults(), {},
                                   QStringLiteral("About %1").arg(QString::fromLatin1(name)) };
        const QList<QScreen *> screens = QGuiApplication::screens();
        for (QScreen *projector : screens) {
            MainWindow w;
            w.setScreen(projector);
            w.move(projector->geometry().topLeft() + QPoint(20, 20));
            w.resize(800, 600);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.screen(), projector);
            w.deckEditor()->setDeck(deck, QString());
            PresenterView *p = w.lecture()->presenter();
            QTest::keyClick(&w, Qt::Key_F5);
            QVERIFY(w.lecture()->isActive());
            QVERIFY(p->isVisible());
            QVERIFY(p->screen() != projector);
            QVERIFY(p->screen()->geometry().intersects(p->geometry()));
            QVERIFY(!projector->geometry().intersects(p->geometry()));
            QCOMPARE(p->notesText(), QStringLiteral("About decay-bound"));
            QCOMPARE(p->nextText(), QStringLiteral("Next: CAPACITY"));
            QTest::keyClick(&w, Qt::Key_PageDown);
            QCOMPARE(p->notesText(), QStringLiteral("About capacity"));
            QCOMPARE(p->counterText(), QStringLiteral("Slide 2 / 2"));
            QTest::keyClick(&w, Qt::Key_Escape);
            QVERIFY(!p->isVisible());
        }
    }
};

// Two offscreen screens side by side: the projector (1024 x 768) and the laptop (1280 x 800).
int main(int argc, char **argv)
{
    return fb::test::execOnScreens<TestPresenterView>(argc, argv, { { QStringLiteral("projector"), QSize(1024, 768) },
                                                                    { QStringLiteral("laptop"), QSize(1280, 800) } });
}

#include "tst_presenter_view.moc"
