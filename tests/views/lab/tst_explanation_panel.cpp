// A lab's explanation strip (views/lab/explanation_panel.h): its text whole where it fits, the limit
// and a scroll bar where it does not, and, with less room than two lines, no empty strip under an
// open toggle: the toggle says there is no room, and the text comes back with the room.
#include "views/lab/explanation_panel.h"
#include "views/widgets/selectable_text.h"

#include <QCoreApplication>
#include <QScrollArea>
#include <QScrollBar>
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

    // Where the text does not fit, the strip ends below its last whole line, never across one (at
    // 1024 x 768 a slide's strip showed a line and a half): its height is one the text itself gives as
    // whole lines, at the width beside the scroll bar, within the limit.
    void endsBelowAWholeLine()
    {
        ExplanationPanel panel(QStringLiteral("<p>218.6.1 Two axes, two very different bandwidths</p><p><b>What it "
                                              "shows.</b> What crosses one decoding-step boundary: a sampled token "
                                              "carries at most log2 V bits, the top-layer state far more.</p>"));
        panel.resize(420, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *body = panel.findChild<QScrollArea *>(QStringLiteral("explanationBody"));
        auto *text = panel.findChild<SelectableText *>(QStringLiteral("explanationText"));
        QVERIFY(body && text);
        const int line = text->fontMetrics().lineSpacing();
        int shorter = 0;
        // widths at which a paragraph wraps once more beside the scroll bar than without it, and
        // limits that fall inside a line
        for (int width = 300; width <= 480; width += 9) {
            panel.resize(width, 300);
            for (int limit = 2 * line + 8; limit < 5 * line; limit += 3) {
                panel.setBodyLimit(limit);
                QCoreApplication::processEvents();  // the scroll bar shows through a queued signal
                QVERIFY(body->isVisible());
                if (body->verticalScrollBarPolicy() == Qt::ScrollBarAlwaysOff) continue;  // all of it fits
                QVERIFY(body->verticalScrollBar()->isVisible());
                const int h = body->height();
                QVERIFY2(h <= limit, qPrintable(QStringLiteral("limit %1, strip %2").arg(limit).arg(h)));
                QVERIFY2(h > limit - 2 * line, qPrintable(QStringLiteral("limit %1, strip %2").arg(limit).arg(h)));
                QVERIFY2(text->wholeLinesHeight(body->viewport()->width(), h) == h,
                         qPrintable(QStringLiteral("width %1, limit %2: the strip (%3) cuts a line").arg(width).arg(limit).arg(h)));
                shorter += h < limit;
            }
        }
        QVERIFY2(shorter > 20, qPrintable(QStringLiteral("%1 limits inside a line").arg(shorter)));
    }
};

QTEST_MAIN(TestExplanationPanel)
#include "tst_explanation_panel.moc"
