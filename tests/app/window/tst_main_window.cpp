// The main window: labs listed and switchable, export writes complete PNGs or nothing,
// the last lab and geometry come back, closing is clean.
#include "app/registry/lab_registry.h"
#include "app/window/main_window.h"
#include "core/lab/lab.h"
#include "views/widgets/exportable.h"
#include "views/lab/lab_view.h"
#include "support/test_settings.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

namespace {
// Fraction of pixels that are not (near) white: a blank export scores ~0.
double inkFraction(const QImage &image)
{
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    qint64 ink = 0;
    for (int y = 0; y < img.height(); y += 2) {
        const QRgb *row = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); x += 2)
            if (qRed(row[x]) < 230 || qGreen(row[x]) < 230 || qBlue(row[x]) < 230) ++ink;
    }
    return double(ink) / (double(img.width() / 2) * double(img.height() / 2));
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        fb::test::useFreshTestSettings(QStringLiteral("FullBandTest"));
    }

    void listsEveryLab()
    {
        // Core's list of the window's labs, in its order: the registry under test is not the reference.
        std::vector<const LabSpec *> expected;
        for (const LabDefinition &def : labDefinitions())
            if (def.inWindow) expected.push_back(&def.spec());
        QVERIFY(expected.size() >= 10);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *list = w.findChild<QListWidget *>(QStringLiteral("labList"));
        QVERIFY(list);
        QCOMPARE(list->count(), int(expected.size()));
        QCOMPARE(w.labCount(), int(expected.size()));
        for (int i = 0; i < list->count(); ++i) {
            const QString title = QString::fromStdString(expected[std::size_t(i)]->title);
            // The title is the tooltip always, and the text unless the list is narrowed to icons (below 1200 px).
            QCOMPARE(list->item(i)->toolTip(), title);
            QVERIFY(list->item(i)->text().isEmpty() || list->item(i)->text() == title);
            w.showLab(i);
            QCOMPARE(w.currentLab(), w.lab(i));
            QCOMPARE(w.currentLab()->name(), QString::fromStdString(expected[std::size_t(i)]->name));
        }
    }

    void exportsCompleteNonBlankPngs()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        for (int i = 0; i < w.labCount(); ++i) {
            // the training labs train first; their own tests export them
            if (w.lab(i)->name() == QLatin1String("training") || w.lab(i)->name() == QLatin1String("transformer")) continue;
            w.showLab(i);
            const QString path = dir.filePath(QStringLiteral("lab%1.png").arg(i));
            w.currentLab()->waitForResult();  // export draws what is shown: the result first
            QCOMPARE(w.exportChart(0, path, QSize(800, 500), 2.0), QString());
            QImage img(path);
            QCOMPARE(img.size(), QSize(1600, 1000));
            const double ink = inkFraction(img);
            QVERIFY2(ink > 0.01, qPrintable(QStringLiteral("%1: ink %2").arg(w.lab(i)->name()).arg(ink)));
        }
    }

    void exportAllWritesOneFilePerChart()
    {
        MainWindow w;
        w.show();
        QTemporaryDir dir;
        w.showLab(labIndex(QStringLiteral("decay-bound")));
        w.currentLab()->waitForResult();  // export draws what is shown: the result first
        QCOMPARE(w.exportAllCharts(dir.path(), QSize(640, 400), 1.0), QString());
        QCOMPARE(QDir(dir.path()).entryList({ QStringLiteral("*.png") }).size(),
                 w.currentLab()->exportables().size());
    }

    void failedExportLeavesNothing()
    {
        MainWindow w;
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/x.png"));
        QVERIFY(!w.exportChart(0, missing, QSize(640, 400), 1.0).isEmpty());
        QVERIFY(!QFile::exists(missing));
        QVERIFY(!w.exportChart(99, dir.filePath(QStringLiteral("y.png")), QSize(640, 400), 1.0).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("y.png"))));
    }

    void restoresLastLab()
    {
        const int target = labRegistry().size() - 1;
        {
            MainWindow w;
            w.show();
            w.showLab(target);
            w.close();
        }
        MainWindow again;
        QCOMPARE(again.currentLab()->name(), labRegistry()[target].name);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
