// A lab's explanation strip (views/lab/explanation_panel.h): its text whole where it fits, the limit
// and a scroll bar where it does not, and, with less room than two lines, no empty strip under an
// open toggle: the toggle says there is no room, and the text comes back with the room.
#include "views/lab/explanation_panel.h"

#include <QScrollArea>
#include <QTest>
#include <QToolButton>

using namespace fb;

class TestExplanationPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noRoomSaysSo()
    {
        ExplanationPanel panel(QStringLiteral("<p>What it shows. A long enough sentence to take a few lines when "
                                              "the strip is narrow, as it is beside a slide's parameters.</p>"));
        panel.resize(300, 200);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *body = panel.findChild<QScrollArea *>(QStringLiteral("explanationBody"));
        QVERIFY(body);
        panel.setBodyLimit(120);
        QVERIFY(body->isVisible());
        QCOMPARE(panel.toggleButton()->text(), QStringLiteral("Explanation"));
        panel.setBodyLimit(6);  // less than two lines
        QVERIFY(!body->isVisible());
        QCOMPARE(panel.toggleButton()->text(), QStringLiteral("Explanation: no room at this size"));
        QVERIFY(panel.isExpanded());  // the reader's choice is kept
        panel.setExpanded(false);
        QCOMPARE(panel.toggleButton()->text(), QStringLiteral("Explanation"));
        panel.setExpanded(true);
        QVERIFY(!body->isVisible());
        panel.setBodyLimit(120);  // room again
        QVERIFY(body->isVisible());
        QCOMPARE(panel.toggleButton()->text(), QStringLiteral("Explanation"));
        panel.setBodyLimit(-1);  // beside the charts: no limit
        QVERIFY(body->isVisible());
    }
};

QTEST_MAIN(TestExplanationPanel)
#include "tst_explanation_panel.moc"
