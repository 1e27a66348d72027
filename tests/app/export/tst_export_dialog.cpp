// Export chart…'s dialog: on an account without a Pictures folder it proposes a path Save can
// write (the home folder), named once after the lab; a file Save cannot write is said in the
// dialog, which stays open with its settings, and the next path works.
#include "app/export/export_dialog.h"
#include "app/export/image_export.h"
#include "views/labs/decay_bound_view.h"
#include "views/widgets/exportable.h"
#include "support/test_settings.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

class TestExportDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(home_.isValid());
        // A fresh account: a home folder with nothing in it, no Pictures.
        qputenv("HOME", home_.path().toLocal8Bit());
        qunsetenv("XDG_PICTURES_DIR");
        fb::test::useFreshTestSettings(QStringLiteral("FullBandExportDialogTest"));
        QVERIFY(!QDir(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).exists());
    }

    void proposesAWritablePathWithoutPictures()
    {
        DecayBoundView lab;
        lab.waitForResult();
        int calls = 0;
        ExportDialog dialog(&lab, [&](const ExportDialog &d) {
            ++calls;
            return writePng(renderChart(*lab.exportables()[d.chartIndex()], { d.size(), d.scale() }), d.path());
        });
        const QFileInfo proposed(dialog.path());
        QCOMPARE(proposed.absolutePath(), QDir(home_.path()).absolutePath());
        QVERIFY2(proposed.fileName().startsWith(lab.name() + QLatin1Char('-')), qPrintable(proposed.fileName()));
        QVERIFY2(!proposed.fileName().contains(lab.name() + QLatin1Char('-') + lab.name()), qPrintable(proposed.fileName()));
        QVERIFY(proposed.fileName().endsWith(QLatin1String(".png")));
        dialog.save();
        QCOMPARE(calls, 1);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.error().isEmpty());
        QVERIFY(QFileInfo(dialog.path()).size() > 0);
    }

    void aFailedSaveKeepsTheDialogAndItsSettings()
    {
        DecayBoundView lab;
        lab.waitForResult();
        ExportDialog dialog(&lab, [&](const ExportDialog &d) {
            return writePng(renderChart(*lab.exportables()[d.chartIndex()], { d.size(), d.scale() }), d.path());
        });
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *width = dialog.findChildren<QSpinBox *>().value(0);
        QVERIFY(width);
        width->setValue(640);
        auto *path = dialog.findChild<QLineEdit *>();
        const QString missing = QDir(home_.path()).filePath(QStringLiteral("no-such-folder/chart.png"));
        path->setText(missing);
        dialog.save();
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        auto *error = dialog.findChild<QLabel *>(QStringLiteral("exportError"));
        QVERIFY(error && error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("no-such-folder")), qPrintable(error->text()));
        QCOMPARE(dialog.size().width(), 640);
        QCOMPARE(dialog.path(), missing);
        QVERIFY(!QFileInfo::exists(missing));
        // Another path: written, closed, the error gone.
        path->setText(QDir(home_.path()).filePath(QStringLiteral("chart.png")));
        dialog.save();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(!error->isVisible());
        QCOMPARE(QImage(dialog.path()).width(), 640);
    }

private:
    QTemporaryDir home_;
};

QTEST_MAIN(TestExportDialog)
#include "tst_export_dialog.moc"
