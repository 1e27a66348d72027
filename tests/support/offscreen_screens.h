#pragma once
// Runs a Qt Test object on the offscreen platform configured with the given screens (named,
// left to right from x = 0), for the tests of lecture mode on a projector and of two screens.
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QList>
#include <QPair>
#include <QSize>
#include <QString>
#include <QTest>

namespace fb::test {

template <class TestObject>
int execOnScreens(int argc, char **argv, const QList<QPair<QString, QSize>> &screens)
{
    const QString config = QDir::temp().filePath(QStringLiteral("fullband-screens-%1.json").arg(QCoreApplication::applicationPid()));
    QString list;
    int x = 0;
    for (const auto &[name, size] : screens) {
        if (!list.isEmpty()) list += QStringLiteral(",\n");
        list += QStringLiteral(R"({ "name": "%1", "x": %2, "y": 0, "width": %3, "height": %4, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1 })")
                    .arg(name).arg(x).arg(size.width()).arg(size.height());
        x += size.width();
    }
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly)) return 1;
    f.write(QStringLiteral(R"({ "synthesized": true, "windowFrameMargins": false, "screens": [ %1 ] })").arg(list).toUtf8());
    f.close();
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + QFile::encodeName(config));
    int rc = 0;
    {
        QApplication app(argc, argv);
        TestObject test;
        rc = QTest::qExec(&test, argc, argv);
    }
    QFile::remove(config);
    return rc;
}

} // namespace fb::test
