// Help in the window: every lab has a summary, a section and an explanation; the start page lists
// every lab and opens the one clicked; the first start is known; the explanation beside the charts
// collapses and expands (F7 and its toggle, for every lab), the charts get the room, the state is
// remembered, and lecture mode starts with it hidden.
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "app/window/start_entry.h"
#include "app/window/start_page.h"
#include "core/lab/lab.h"
#include "views/lab/explained_charts.h"
#include "views/lab/explanation_panel.h"
#include "views/lab/lab_view.h"
#include "support/test_settings.h"

#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextDocument>
#include <QToolButton>

using namespace fb;

namespace {

QString plain(const QString &html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

QWidget *chartsOf(LabView *lab)
{
    return lab->findChild<QWidget *>(QStringLiteral("labCharts"));
}

void settle()
{
    for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
}

} // namespace

class TestHelp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        fb::test::useFreshTestSettings(QStringLiteral("FullBandHelpTest"));
    }

    void everyLabIsDescribed()
    {
        for (const LabDefinition &def : labDefinitions()) {
            const LabSpec &spec = def.spec();
            QVERIFY2(!spec.summary.empty(), spec.name.c_str());
            QVERIFY2(!spec.section.empty(), spec.name.c_str());
            const bool chapter = spec.section.rfind("218.", 0) == 0;
            const bool page = spec.section.find("encyclopedia page") != std::string::npos;
            QVERIFY2(chapter || page, spec.section.c_str());  // a section of the chapter, or the page
        }
        // Every lab of the window in core's list (not the registry's own list): its explanation.
        for (const LabDefinition &def : labDefinitions()) {
            if (!def.inWindow) continue;
            const QString name = QString::fromStdString(def.name());
            const int index = labIndex(name);
            QVERIFY2(index >= 0, qPrintable(name + QStringLiteral(" is not in the window")));
            const QString text = plain(labRegistry()[index].explanation());
            // A few sentences: what it shows, what to try.
            QVERIFY2(text.size() > 300, qPrintable(name));
            QVERIFY2(text.contains(QStringLiteral("Try")), qPrintable(name));
        }
    }

    void everyViewShowsItsExplanation()
    {
        MainWindow w;
        int windowLabs = 0;
        for (const LabDefinition &def : labDefinitions()) windowLabs += def.inWindow ? 1 : 0;
        QCOMPARE(w.labCount(), windowLabs);
        for (int i = 0; i < w.labCount(); ++i) {
            LabView *lab = w.lab(i);
            const QString text = plain(lab->explanation()->text());
            const int index = labIndex(lab->name());
            QVERIFY2(index >= 0, qPrintable(lab->name()));
            QVERIFY2(text.contains(plain(labRegistry()[index].explanation())), qPrintable(lab->name()));
            QVERIFY2(text.startsWith(QString::fromStdString(labSpec(lab->name())->section)), qPrintable(lab->name()));
            // Beside the charts, not at the bottom of the parameter column.
            QVERIFY(!lab->findChild<QWidget *>(QStringLiteral("labSide"))->isAncestorOf(lab->explanation()));
            QCOMPARE(lab->explanation()->parentWidget(), chartsOf(lab)->parentWidget());
        }
    }

    void startPageListsAndOpensEveryLab()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.isStartPageShown());
        w.showStartPage();
        QVERIFY(w.isStartPageShown());
        StartPage *page = w.startPage();
        QVERIFY(page->isVisible());
        const auto &entries = page->entries();
        QCOMPARE(entries.size(), labRegistry().size());
        for (int i = 0; i < entries.size(); ++i) {
            const LabEntry &lab = labRegistry()[i];
            QCOMPARE(entries[i]->name(), lab.name);
            QStringList texts;
            for (const QLabel *l : entries[i]->findChildren<QLabel *>()) texts << l->text();
            QVERIFY2(texts.contains(lab.title), qPrintable(lab.name));
            QVERIFY2(texts.contains(QString::fromStdString(lab.spec().summary)), qPrintable(lab.name));
            QVERIFY2(texts.contains(QString::fromStdString(lab.spec().section)), qPrintable(lab.name));
        }
        // Where to begin: every lab of the first session is a lab, named in order.
        const QString begin = plain(page->beginLine()->text());
        int at = 0;
        for (const QString &name : StartPage::firstSession()) {
            const int index = labIndex(name);
            QVERIFY2(index >= 0, qPrintable(name));
            at = int(begin.indexOf(labRegistry()[index].title, at));
            QVERIFY2(at >= 0, qPrintable(name));
        }

        // A click on an entry opens its lab; the start page comes back with showStartPage (F1).
        for (int i = 0; i < entries.size(); ++i) {
            w.showStartPage();
            QVERIFY(entries[i]->isVisible());
            QTest::mouseClick(entries[i], Qt::LeftButton, {}, entries[i]->rect().center());
            QVERIFY(!w.isStartPageShown());
            QCOMPARE(w.currentLab(), w.lab(i));
            QVERIFY(w.currentLab()->isVisible());
        }
        // The keyboard too, and the lab list (even its current lab).
        w.showStartPage();
        entries[1]->setFocus();
        QTest::keyClick(entries[1], Qt::Key_Return);
        QCOMPARE(w.currentLab(), w.lab(1));
        w.showStartPage();
        auto *list = w.findChild<QListWidget *>(QStringLiteral("labList"));
        const QRect item = list->visualItemRect(list->item(1));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, item.center());
        QVERIFY(!w.isStartPageShown());
        QCOMPARE(w.currentLab(), w.lab(1));
    }

    // Ctrl+1 ... Ctrl+9 and Ctrl+0 open the first ten labs, Alt+1 ... Alt+9 the next, in the list's
    // order (a twentieth lab would need another key: this fails then).
    void everyLabHasADigitShortcut()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(labRegistry().size() <= 19);
        for (int i = labRegistry().size() - 1; i >= 0; --i) {
            const Qt::Key key = i < 9 ? Qt::Key(Qt::Key_1 + i) : i == 9 ? Qt::Key_0 : Qt::Key(Qt::Key_1 + (i - 10));
            QTest::keyClick(&w, key, i < 10 ? Qt::ControlModifier : Qt::AltModifier);
            QCOMPARE(w.currentLab(), w.lab(i));
        }
    }

    void startPageShortcutAndFirstStart()
    {
        {
            MainWindow w;
            QVERIFY(w.isFirstStart());
            w.show();
            w.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&w));
            QTest::keyClick(&w, Qt::Key_F1);
            QVERIFY(w.isStartPageShown());
            w.close();
        }
        MainWindow again;
        QVERIFY(!again.isFirstStart());
    }

    // Collapsing gives the charts the room, above the charts (1024 x 768) and beside them (1920 x 1080).
    void explanationCollapsesAndChartsGetTheRoom_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("beside");
        QTest::newRow("1024x768") << QSize(1024, 768) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << true;
    }
    void explanationCollapsesAndChartsGetTheRoom()
    {
        QFETCH(QSize, size);
        QFETCH(bool, beside);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLab(labIndex(QStringLiteral("decay-bound")));
        LabView *lab = w.currentLab();
        settle();
        ExplanationPanel *panel = lab->explanation();
        auto *area = qobject_cast<ExplainedCharts *>(panel->parentWidget());
        QVERIFY(area);
        QVERIFY(panel->isVisible() && panel->isExpanded());
        QCOMPARE(area->isBeside(), beside);
        QWidget *charts = chartsOf(lab);
        const QSize open = charts->size();
        if (beside) QVERIFY(panel->geometry().left() >= charts->geometry().right());  // on the right
        else QVERIFY(panel->geometry().bottom() <= charts->geometry().top());        // above

        QTest::mouseClick(panel->toggleButton(), Qt::LeftButton);
        settle();
        QVERIFY(!panel->isExpanded());
        QVERIFY(panel->isVisible());  // one line with its toggle
        QVERIFY(!area->isBeside());
        const QSize closed = charts->size();
        if (beside) {
            QVERIFY2(closed.width() > open.width() + 250, qPrintable(QStringLiteral("%1 -> %2").arg(open.width()).arg(closed.width())));
        } else {
            QVERIFY2(closed.height() > open.height() + 40, qPrintable(QStringLiteral("%1 -> %2").arg(open.height()).arg(closed.height())));
        }
        QVERIFY(panel->height() <= panel->toggleButton()->height() + 12);
        // Every lab follows, and the menu's check mark.
        for (int i = 0; i < w.labCount(); ++i) QVERIFY(!w.lab(i)->explanation()->isExpanded());
        QVERIFY(!w.isExplanationShown());

        QTest::mouseClick(panel->toggleButton(), Qt::LeftButton);
        settle();
        QVERIFY(panel->isExpanded());
        QCOMPARE(charts->size(), open);
        for (int i = 0; i < w.labCount(); ++i) QVERIFY(w.lab(i)->explanation()->isExpanded());
    }

    void explanationStateIsRememberedAndLectureModeHidesIt()
    {
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.isExplanationShown());
            w.setExplanationShown(false);
            w.close();
        }
        {
            MainWindow w;
            QVERIFY(!w.isExplanationShown());
            QVERIFY(!w.currentLab()->explanation()->isExpanded());
            w.setExplanationShown(true);
            w.close();
        }
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.isExplanationShown());
        w.lecture()->enter();
        ExplanationPanel *panel = w.currentLab()->explanation();
        QVERIFY(!panel->isExpanded());
        QVERIFY(panel->isHidden());  // the slide is for the charts
        QTest::keyClick(&w, Qt::Key_F7);  // unless the lecturer asks for it
        QVERIFY(panel->isExpanded());
        QVERIFY(!panel->isHidden());
        QTest::keyClick(&w, Qt::Key_F7);
        QVERIFY(panel->isHidden());
        w.lecture()->leave();
        QVERIFY(panel->isExpanded());  // the choice made outside lecture mode
        QVERIFY(!panel->isHidden());
        QVERIFY(w.explanationPreference());
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
