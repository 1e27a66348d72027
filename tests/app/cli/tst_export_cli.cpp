// fullband export: headless PNGs of the requested size, carrying their scene like the window's;
// bad input exits 2 and writes nothing.
#include "app/export/lab_image.h"
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"
#include "support/cli_process.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestExportCli : public QObject {
    Q_OBJECT
private:
    using Run = fb::test::CliText;
    static Run run(const QStringList &args) { return fb::test::runFullbandText(args); }
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!qgetenv("FULLBAND_BIN").isEmpty());
        QStandardPaths::setTestModeEnabled(true);  // the window below keeps its settings apart
        QCoreApplication::setOrganizationName(QStringLiteral("FullBandTest"));
        QCoreApplication::setApplicationName(QStringLiteral("FullBandExportTest"));
    }

    void writesRequestedSize_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QSize>("pixels");
        QTest::newRow("default") << QStringList {} << QSize(1600, 1000);
        QTest::newRow("size") << QStringList { "--size", "800x600" } << QSize(800, 600);
        QTest::newRow("2x") << QStringList { "--size", "800x500", "--scale", "2" } << QSize(1600, 1000);
        QTest::newRow("second chart") << QStringList { "--chart", "2", "--size", "640x400" } << QSize(640, 400);
    }
    void writesRequestedSize()
    {
        QFETCH(QStringList, extra);
        QFETCH(QSize, pixels);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("decay.png"));
        const Run r = run(QStringList { "export", "decay-bound", "--set", "base=500000", "--out", path } + extra);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QImage img(path);
        QCOMPARE(img.size(), pixels);
    }

    // A headless export embeds the same scene as the window's Export chart, and opening it in the
    // window restores the lab.
    void headlessPngCarriesItsScene()
    {
        QTemporaryDir dir;
        const QString headless = dir.filePath(QStringLiteral("headless.png"));
        const Run r = run({ "export", "decay-bound", "--set", "base=500000", "--set", "scaling=ntk", "--set", "factor=4",
                            "--size", "640x400", "--out", headless });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString text = fb::embeddedSceneText(headless);
        QVERIFY2(text.contains(QLatin1String("\"decay-bound\"")), qPrintable(text));

        fb::MainWindow w;
        w.show();
        QCOMPARE(w.openPath(headless), QString());
        QCOMPARE(w.currentLab()->name(), QStringLiteral("decay-bound"));
        QCOMPARE(w.currentLab()->values().number("base"), 500000.0);
        QCOMPARE(w.currentLab()->values().text("scaling"), std::string("ntk"));
        QCOMPARE(w.currentLab()->values().number("factor"), 4.0);
        const QString windowPng = dir.filePath(QStringLiteral("window.png"));
        w.currentLab()->waitForResult();  // export draws what is shown: the result first
        QCOMPARE(w.exportChart(0, windowPng, QSize(640, 400), 1.0), QString());
        QCOMPARE(fb::embeddedSceneText(windowPng), text);
    }

    void writesSvgAndCsv_data()
    {
        QTest::addColumn<QString>("lab");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("startsWith");
        QTest::newRow("decay svg") << "decay-bound" << "d.svg" << "<?xml";
        QTest::newRow("decay csv") << "decay-bound" << "d.csv" << "\"plain RoPE, b = 10,000 x\",\"plain RoPE, b = 10,000 y\"";
        QTest::newRow("attention csv") << "attention" << "a.csv" << "head,query,key,weight";
        QTest::newRow("attention svg") << "attention" << "a.svg" << "<?xml";
    }
    void writesSvgAndCsv()
    {
        QFETCH(QString, lab);
        QFETCH(QString, file);
        QFETCH(QString, startsWith);
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        const Run r = run({ "export", lab, "--out", path });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(bytes.startsWith(startsWith.toUtf8()), bytes.left(80).constData());
        if (file.endsWith(QLatin1String(".svg"))) QVERIFY(bytes.contains("<svg"));
        if (file.endsWith(QLatin1String(".csv"))) QVERIFY(bytes.count('\n') > 10);
    }

    void badInputExits2AndWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no lab") << QStringList { "export", "--out", "OUT" } << "LAB";
        QTest::newRow("unknown lab") << QStringList { "export", "nope", "--out", "OUT" } << "unknown lab 'nope'";
        QTest::newRow("unknown key") << QStringList { "export", "decay-bound", "--set", "dd=3", "--out", "OUT" } << "unknown key 'dd'";
        QTest::newRow("odd d") << QStringList { "export", "decay-bound", "--set", "d=63", "--out", "OUT" } << "d must be";
        QTest::newRow("no out") << QStringList { "export", "decay-bound" } << "--out";
        QTest::newRow("not png") << QStringList { "export", "decay-bound", "--out", "OUT.jpg" } << ".png";
        QTest::newRow("bad size") << QStringList { "export", "decay-bound", "--size", "10x10", "--out", "OUT" } << "--size";
        QTest::newRow("bad scale") << QStringList { "export", "decay-bound", "--scale", "9", "--out", "OUT" } << "--scale";
        QTest::newRow("bad chart") << QStringList { "export", "decay-bound", "--chart", "7", "--out", "OUT" } << "--chart";
        QTest::newRow("missing folder") << QStringList { "export", "decay-bound", "--out", "MISSING" } << "does not exist";
    }
    void badInputExits2AndWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.png"));
        for (QString &a : args) {
            if (a == QLatin1String("OUT")) a = out;
            else if (a == QLatin1String("OUT.jpg")) a = dir.filePath(QStringLiteral("out.jpg"));
            else if (a == QLatin1String("MISSING")) a = dir.filePath(QStringLiteral("no/such/out.png"));
        }
        const Run r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        // One line of ours (Qt may add its own environment warnings on lines of their own).
        QCOMPARE(r.err.count(QStringLiteral("fullband:")), 1);
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_MAIN(TestExportCli)
#include "tst_export_cli.moc"
