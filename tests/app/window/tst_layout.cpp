// Every lab at classroom resolutions, its explanation shown and collapsed, and the start page: no
// text cut (a label, button or check box narrower or lower than its text needs), no widget sticking
// out of its parent (a chart cut in half), no two visible siblings on top of each other, and the
// side columns leave most of the width to the charts.
// With FULLBAND_SHOTS=folder it also writes a screenshot of every lab at every size there.
#include "app/registry/lab_registry.h"
#include "app/lecture/lecture_mode.h"
#include "app/window/main_window.h"
#include "views/widgets/chart_panel.h"
#include "app/window/start_page.h"
#include "views/lab/explanation_panel.h"
#include "views/lab/lab_view.h"
#include "views/interpret/head_ablation_panel.h"
#include "views/interpret/interpret_tabs.h"
#include "support/layout_walk.h"
#include "support/sanitized.h"
#include "support/test_settings.h"
#include "support/text_run.h"
#include "views/writing/writing_tabs.h"
#include "views/compare/compare_panel.h"
#include "views/compare/compare_table.h"
#include "views/training/transformer_view.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

using namespace fb::layoutwalk;

class TestLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Apart from the device-pixel-ratio 2 run of this test, which CTest may run alongside.
        fb::test::useFreshTestSettings(QStringLiteral("FullBandLayoutTest-scale%1").arg(qEnvironmentVariable("QT_SCALE_FACTOR", QStringLiteral("1"))));
    }

    void everyLabFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        // Under the sanitizers one size walks every widget of every lab: the geometry is the
        // Release build's to check, the memory this build's.
        if (sanitizedBuild()) return;
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("2560x1440") << QSize(2560, 1440);
    }
    void everyLabFits()
    {
        QFETCH(QSize, size);
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList problems;
        for (int i = 0; i < w.labCount(); ++i) {
            QElapsedTimer timer;
            timer.start();
            w.showLab(i);
            LabView *lab = w.currentLab();
            // The training labs train in waitForResult: a short run shows the same layout.
            if (ParamValues v = lab->values(); v.numbers.count("steps")) {
                v.numbers["steps"] = 20;
                QCOMPARE(lab->setValues(v), QString());
            }
            lab->waitForResult();
            // The results' texts change widths and wrap labels, and each change queues a layout
            // request of its own: let them all run before looking (one round raced under a loaded CI).
            for (int k = 0; k < 10; ++k) QCoreApplication::processEvents();
            qInfo("%s at %dx%d: %lld ms", qPrintable(lab->name()), size.width(), size.height(), qint64(timer.elapsed()));
            // The offscreen platform does not hold a window to its minimum size; xcb does, and a
            // window whose minimum is taller than the screen runs off its bottom edge.
            const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
            // The stack of labs is as large as its largest page: name the page that sets it.
            QString largest;
            int largestHeight = 0;
            for (int k = 0; k < w.labCount(); ++k)
                if (const int h = w.lab(k)->minimumSizeHint().height(); h > largestHeight) {
                    largestHeight = h;
                    largest = w.lab(k)->name();
                }
            QVERIFY2(least.width() <= size.width() && least.height() <= size.height(),
                     qPrintable(QStringLiteral("%1: the window needs at least %2x%3, more than the %4x%5 screen "
                                               "(the tallest lab: %6, %7 px)")
                                    .arg(lab->name()).arg(least.width()).arg(least.height())
                                    .arg(size.width()).arg(size.height()).arg(largest).arg(largestHeight)));
            QVERIFY2(w.size() == size, qPrintable(QStringLiteral("%1: the window grew to %2x%3 (its minimum: %4x%5)")
                                                      .arg(lab->name()).arg(w.width()).arg(w.height())
                                                      .arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
            QStringList found;
            if (!lab->explanation()->isVisible() || !lab->explanation()->isExpanded())
                found << QStringLiteral("the explanation is not shown");
            walk(&w, found);
            if (auto *side = lab->findChild<QScrollArea *>(QStringLiteral("labSide")))
                walkPanel(side->widget(), found);
            // Inside the charts: titles, axis titles, tick labels and legends whole, plots readable.
            found << chartProblems(lab);
            // Collapsed, the explanation is one line above the charts, which take the rest.
            w.setExplanationShown(false);
            for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
            if (w.size() != size) found << QStringLiteral("the window grew with the explanation collapsed");
            QStringList collapsed;
            walk(&w, collapsed);
            collapsed << chartProblems(lab);
            for (const QString &p : collapsed) found << QStringLiteral("explanation collapsed: ") + p;
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("%1-%2x%3-collapsed.png").arg(lab->name())
                                                       .arg(size.width()).arg(size.height())));
            w.setExplanationShown(true);
            for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
            // The lab list and the parameter column together leave the charts most of the width.
            const auto *list = w.findChild<QListWidget *>(QStringLiteral("labList"));
            const auto *side = lab->findChild<QScrollArea *>(QStringLiteral("labSide"));
            const int columns = (list->isVisible() ? list->width() : 0) + (side && side->isVisible() ? side->width() : 0);
            if (columns > 0.42 * size.width())
                found << QStringLiteral("side columns take %1 of %2 px").arg(columns).arg(size.width());
            for (const QString &p : found) problems << lab->name() + QStringLiteral(": ") + p;
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("%1-%2x%3.png").arg(lab->name())
                                                       .arg(size.width()).arg(size.height())));
            // The transformer taken apart after its short run: every page beside the maps, a head off.
            if (auto *tabs = lab->findChild<InterpretTabs *>()) {
                tabs->ablation()->toggleHead(0, 0);
                tabs->ablation()->waitForWorker();
                for (int page = 1; page < tabs->count(); ++page) {
                    tabs->setCurrentIndex(page);
                    for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
                    QStringList inPage;
                    walk(&w, inPage);
                    inPage << chartProblems(lab);
                    for (const QString &p : inPage)
                        problems << QStringLiteral("%1, page %2: %3").arg(lab->name(), tabs->tabText(page), p);
                    if (!shots.isEmpty())
                        w.grab().save(QDir(shots).filePath(QStringLiteral("%1-%2x%3-page%4.png").arg(lab->name())
                                                               .arg(size.width()).arg(size.height()).arg(page)));
                }
                tabs->ablation()->restoreAll();
                tabs->setCurrentIndex(0);
            }
        }
        problems.removeDuplicates();
        for (const QString &p : problems) qWarning("%s", qPrintable(p));  // every one, not the first few
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The transformer lab on the text task after a short run, the writing panel written with and a
    // sentence probed: the panel, its 16 cache strips and the maps fit at the smallest sizes.
    void textLabFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        if (!sanitizedBuild()) QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void textLabFits()
    {
        QFETCH(QSize, size);
        QTemporaryDir dir;
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLab(labIndex(QStringLiteral("transformer")));
        auto *view = qobject_cast<TransformerView *>(w.currentLab());
        QVERIFY(view);
        QCOMPARE(view->setValues(fb::test::tinyTextValues(view->values(), fb::test::writeLabText(dir.path()))), QString());
        QVERIFY(fb::test::trainWriteAndProbe(view));
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        QStringList found;
        // The sentence's maps (the probe brought them forward), then the writing tab, then the maps
        // again (the writing tab leaves the explanation its height: the curves below the maps were cut)
        for (const QString &tab : { QStringLiteral("maps"), QStringLiteral("writing"), QStringLiteral("maps") }) {
            view->tabs()->setCurrentIndex(tab == QLatin1String("maps") ? 0 : 1);
            for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
            QStringList here;
            walk(&w, here);
            if (auto *side = view->findChild<QScrollArea *>(QStringLiteral("labSide"))) walkPanel(side->widget(), here);
            here << chartProblems(view);
            for (const QString &p : here) found << tab + QStringLiteral(": ") + p;
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("transformer-text-%1-%2x%3.png").arg(tab)
                                                       .arg(size.width()).arg(size.height())));
        }
        const QWidget *strips = view->writing()->strips();
        if (strips->height() < 16 * 4) found << QStringLiteral("the 16 cache strips get %1 px").arg(strips->height());
        found.removeDuplicates();
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // The transformer lab's comparison mode (issue 29) after a short comparison of three
    // configurations: the lines, the two charts and the filled table fit, explanation shown and
    // collapsed.
    void compareModeFits_data() { textLabFits_data(); }
    void compareModeFits()
    {
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showLab(labIndex(QStringLiteral("transformer")));
        auto *view = qobject_cast<TransformerView *>(w.currentLab());
        QVERIFY(view);
        ParamValues v = view->values();
        v.numbers["steps"] = 20;
        v.numbers["eval_every"] = 10;
        v.numbers["seq_len"] = 16;  // small and quick: the layout is the same
        v.numbers["batch"] = 8;
        v.numbers["d_model"] = 32;
        QCOMPARE(view->setValues(v), QString());
        view->setCompareMode(true);
        ComparePanel *panel = view->comparePanel();
        view->start();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() == TrainingLabView::State::Done, 120000);
        QCOMPARE(panel->table()->rowCount(), 3);
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        QStringList found;
        for (bool shown : { true, false }) {
            w.setExplanationShown(shown);
            for (int k = 0; k < 3; ++k) QCoreApplication::processEvents();
            if (w.size() != size) found << QStringLiteral("the window grew");
            QStringList here;
            walk(&w, here);
            here << chartProblems(view);
            for (const QString &p : here) found << (shown ? QString() : QStringLiteral("explanation collapsed: ")) + p;
            if (!shots.isEmpty())
                w.grab().save(QDir(shots).filePath(QStringLiteral("transformer-compare-%1x%2%3.png")
                                                       .arg(size.width()).arg(size.height())
                                                       .arg(shown ? QString() : QStringLiteral("-collapsed"))));
        }
        w.setExplanationShown(true);
        view->setCompareMode(false);
        found.removeDuplicates();
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // The start page at the same sizes: the window keeps its size, the page scrolls only
    // vertically, and inside it nothing is cut, sticks out or overlaps.
    void startPageFits_data() { everyLabFits_data(); }
    void startPageFits()
    {
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showStartPage();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QVERIFY(w.isStartPageShown());
        QCOMPARE(w.size(), size);
        QStringList problems;
        walk(&w, problems);
        StartPage *page = w.startPage();
        QWidget *content = page->widget();
        walk(content, problems, content);
        if (content->width() > page->viewport()->width())
            problems << QStringLiteral("the page is %1 px wide in a %2 px view").arg(content->width()).arg(page->viewport()->width());
        if (page->horizontalScrollBar()->isVisible()) problems << QStringLiteral("the page scrolls sideways");
        if (size.width() >= 1024 && page->columns() != 2)
            problems << QStringLiteral("%1 column(s) at %2 px").arg(page->columns()).arg(size.width());
        const QString shots = qEnvironmentVariable("FULLBAND_SHOTS");
        if (!shots.isEmpty())
            w.grab().save(QDir(shots).filePath(QStringLiteral("start-%1x%2.png").arg(size.width()).arg(size.height())));
        problems.removeDuplicates();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
