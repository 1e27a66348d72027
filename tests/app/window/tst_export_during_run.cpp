// Export and Copy chart in the window draw what the window shows now and return at once, during a
// training or before one: a lecturer exporting a slide mid-run keeps a live projector. Only the
// command line trains to the end first. The tests assert on the run's state, never on a time:
// the export returns while the run is still running, and the progress bar moves on after it.
#include "app/window/main_window.h"
#include "views/lab/lab_view.h"
#include "views/training/training_view.h"
#include "views/training/transformer_view.h"
#include "support/test_settings.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QImage>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTest>

using namespace fb;

namespace {

constexpr int kPatienceMs = 120000;  // a passing test never waits this long

int labIndex(const MainWindow &w, const QString &name)
{
    for (int i = 0; i < w.labCount(); ++i)
        if (w.lab(i)->name() == name) return i;
    return -1;
}

QAction *copyAction(MainWindow &w)
{
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text() == QLatin1String("&Copy chart")) return a;
    return nullptr;
}

} // namespace

class TestExportDuringRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        fb::test::useFreshTestSettings(QStringLiteral("FullBandExportDuringRun"));
    }

    void exportDuringATransformerTrainingReturnsWhileItRuns()
    {
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        const int index = labIndex(w, QStringLiteral("transformer"));
        QVERIFY2(index >= 0, "the window has no transformer lab");
        w.showLab(index);
        auto *lab = qobject_cast<TransformerView *>(w.currentLab());
        QVERIFY(lab);
        ParamValues v = lab->values();
        v.numbers["steps"] = 100000;  // minutes of training: it is still running when the test ends
        QCOMPARE(lab->setValues(v), QString());
        lab->start();
        QTRY_VERIFY_WITH_TIMEOUT(lab->stepsDone() > 20 && lab->framesShown() > 0, kPatienceMs);

        QTemporaryDir dir;
        const QStringList files { QStringLiteral("maps.png"), QStringLiteral("loss.png"), QStringLiteral("loss.svg"),
                                  QStringLiteral("loss.csv") };
        for (const QString &file : files) {
            const int chart = file.startsWith(QLatin1String("maps")) ? 0 : 1;
            QCOMPARE(w.exportChart(chart, dir.filePath(file), QSize(800, 500), 1.0), QString());
            // Returned with the training still running: the export did not wait for its end.
            QCOMPARE(lab->state(), TrainingLabView::State::Running);
            QVERIFY(lab->stepsDone() < lab->stepsTotal());
            QVERIFY2(QFile(dir.filePath(file)).size() > 0, qPrintable(file));
        }
        QCOMPARE(QImage(dir.filePath(QStringLiteral("maps.png"))).size(), QSize(800, 500));
        QAction *copy = copyAction(w);
        QVERIFY(copy);
        copy->trigger();
        QCOMPARE(lab->state(), TrainingLabView::State::Running);
        QVERIFY(!QApplication::clipboard()->image().isNull());

        // The run goes on, and the window keeps drawing it: the progress bar moves after the exports.
        const int shown = lab->progressBar()->value();
        QTRY_VERIFY_WITH_TIMEOUT(lab->progressBar()->value() > shown, kPatienceMs);
        lab->reset();
    }

    void exportBeforeARunTrainsNothing()
    {
        MainWindow w;
        w.show();
        const int index = labIndex(w, QStringLiteral("training"));
        QVERIFY2(index >= 0, "the window has no training lab");
        w.showLab(index);
        auto *lab = qobject_cast<TrainingView *>(w.currentLab());
        QVERIFY(lab);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("untrained.png"));
        QCOMPARE(w.exportChart(0, path, QSize(640, 400), 1.0), QString());
        QCOMPARE(QImage(path).size(), QSize(640, 400));
        // The chart as shown (the empty axes of the run Start would train); nothing was trained.
        QCOMPARE(lab->state(), TrainingLabView::State::Idle);
        QCOMPARE(lab->stepsDone(), 0);
    }
};

QTEST_MAIN(TestExportDuringRun)
#include "tst_export_during_run.moc"
