// A training run recorded as an animation (`fullband animate training`, and AnimationRun as the
// window's File → Export animation… "Record the training run" uses it): trained once to the end,
// frame i shows the chart at step round(i * S / (N - 1)). Decoded back: frame count, size, the last
// frame equals the finished run's chart (exact for PNG frames, within H.264's error for MP4), the
// first shows no curve yet. Bad input exits 2 and leaves no file. A short run (30 steps) keeps it fast.
#include "app/animation/animation.h"
#include "app/animation/animation_dialog.h"
#include "app/animation/animation_run.h"
#include "app/export/lab_image.h"
#include "app/registry/lab_registry.h"
#include "support/video_decoder.h"
#include "views/lab/lab_view.h"
#include "views/training/loss_curve_chart.h"
#include "views/training/training_view.h"
#include "support/cli_process.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace fb;

class TestAnimateTraining : public QObject {
    Q_OBJECT
private:
    using Run = fb::test::CliText;
    static Run run(const QStringList &args) { return fb::test::runFullbandText(args); }

    static constexpr int kSteps = 30;
    static constexpr int kFrames = 7;
    static constexpr int kFps = 10;
    const QSize kSize { 320, 200 };
    const QStringList kSets { "--set", "steps=30", "--set", "batch=32" };

    QStringList recordArgs(const QString &out, const QStringList &more = {}) const
    {
        return QStringList { "animate", "training" } + kSets
            + QStringList { "--frames", QString::number(kFrames), "--fps", QString::number(kFps), "--size", "320x200",
                            "--out", out } + more;
    }

    // The training lab with the same values, trained to its end in this process.
    static std::unique_ptr<TrainingView> trainedLab(QSize size)
    {
        auto lab = std::make_unique<TrainingView>();
        ParamValues v = lab->values();
        v.numbers["steps"] = kSteps;
        v.numbers["batch"] = 32;
        if (!lab->setValues(v).isEmpty()) return {};
        lab->resize(size);
        lab->show();
        lab->waitForResult();
        return lab;
    }

    AnimationJob recordJob() const
    {
        AnimationJob job;
        job.recording = true;
        job.size = kSize;
        job.fps = kFps;
        job.sweep.frames = kFrames;
        return job;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!qgetenv("FULLBAND_BIN").isEmpty());
        QStandardPaths::setTestModeEnabled(true);
    }

    void stepsOfTheFrames()
    {
        QCOMPARE(recordingStep(220, 5, 0), 0);
        QCOMPARE(recordingStep(220, 5, 1), 55);
        QCOMPARE(recordingStep(220, 5, 4), 220);
        QCOMPARE(recordingStep(30, 7, 3), 15);
        QCOMPARE(recordingStep(10, 4, 1), 3);  // 3.33 rounds down
        QCOMPARE(recordingStep(10, 4, 2), 7);  // 6.67 rounds up
    }

    // In the lab: step s shows s losses per arm; the end shows the whole run again.
    void showStepRevealsTheCurves()
    {
        std::unique_ptr<TrainingView> lab = trainedLab(kSize);
        QVERIFY(lab && lab->isTrained());
        QCOMPARE(lab->replaySteps(), kSteps);
        const std::vector<double> full = lab->chart()->losses(LossCurveChart::kLatent);
        QCOMPARE(int(full.size()), kSteps);
        lab->showStep(12);
        QCOMPARE(int(lab->chart()->losses(LossCurveChart::kLatent).size()), 12);
        QCOMPARE(int(lab->chart()->losses(LossCurveChart::kTokenOnly).size()), 12);
        lab->showStep(0);
        QVERIFY(lab->chart()->losses(LossCurveChart::kLatent).empty());
        lab->showStep(kSteps);
        QCOMPARE(lab->chart()->losses(LossCurveChart::kLatent), full);
    }

    void pngFramesEndOnTheFinishedChart()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("frames/"));
        QElapsedTimer clock;
        clock.start();
        const Run r = run(recordArgs(out, { "--no-caption" }));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        qInfo("recorded %d steps as %d PNG frames in %lld ms", kSteps, kFrames, clock.elapsed());
        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), kFrames);
        std::unique_ptr<TrainingView> lab = trainedLab(kSize);
        QVERIFY(lab);
        // The finished run's chart as Export chart draws it, never replayed: the last frame exactly.
        const QImage finished = chartImage(*lab, 0, kSize, 1.0, false);
        const QImage last(QDir(out).filePath(files.last()));
        QCOMPARE(last.size(), kSize);
        QCOMPARE(test::imageDifference(last, finished).max, 0);
        // The first frame is step 0 (no curve yet), an inner one the run's middle.
        const QImage first(QDir(out).filePath(files.first()));
        QVERIFY(test::imageDifference(first, finished).mean > 0.05);
        AnimationJob job = recordJob();
        job.caption = false;
        QCOMPARE(test::imageDifference(first, animationFrame(*lab, job, 0)).max, 0);
        QCOMPARE(test::imageDifference(QImage(QDir(out).filePath(files[3])), animationFrame(*lab, job, 3)).max, 0);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 1);
    }

    void mp4()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.mp4"));
        const Run r = run(recordArgs(path));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const test::DecodedVideo v = test::decodeVideo(path);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.codec, QStringLiteral("h264"));
        QCOMPARE(v.size, kSize);
        QCOMPARE(v.frames.size(), kFrames);
        QVERIFY2(std::abs(v.seconds - double(kFrames) / kFps) < 1e-3, qPrintable(QString::number(v.seconds)));
        const QJsonObject meta = QJsonDocument::fromJson(v.comment.toUtf8()).object();
        QCOMPARE(meta.value(QStringLiteral("recording")).toObject().value(QStringLiteral("steps")).toInt(), kSteps);
        QCOMPARE(meta.value(QStringLiteral("scene")).toObject().value(QStringLiteral("lab")).toString(), QStringLiteral("training"));
        std::unique_ptr<TrainingView> lab = trainedLab(kSize);
        QVERIFY(lab);
        for (int i : { 0, kFrames / 2, kFrames - 1 }) {
            const test::ImageDifference d = test::imageDifference(v.frames[i], animationFrame(*lab, recordJob(), i));
            QVERIFY2(d.mean < 3.0, qPrintable(QStringLiteral("frame %1: mean difference %2").arg(i).arg(d.mean)));
        }
        QVERIFY(test::imageDifference(v.frames[0], v.frames[kFrames - 1]).mean > 1.0);  // the curves grew
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void badInputExits2AndWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        const QStringList base { "animate", "training", "--frames", "3", "--size", "64x40" };
        QTest::newRow("steps 0") << base + QStringList { "--set", "steps=0", "--out", "OUT/a.mp4" } << "steps";
        QTest::newRow("steps too many") << base + QStringList { "--set", "steps=200001", "--out", "OUT/a.mp4" } << "100000";
        QTest::newRow("unknown key") << base + QStringList { "--set", "nope=1", "--out", "OUT/a.mp4" } << "nope";
        QTest::newRow("bad arm") << base + QStringList { "--set", "arm=all", "--out", "OUT/a.gif" } << "arm";
        QTest::newRow("passes over seq_len") << base + QStringList { "--set", "seq_len=4", "--set", "passes=5", "--out", "OUT/a.mp4" } << "passes";
        QTest::newRow("a sweep") << base + QStringList { "--sweep", "lr=0.001:0.01", "--out", "OUT/a.mp4" } << "--sweep";
        QTest::newRow("one frame") << QStringList { "animate", "training", "--frames", "1", "--out", "OUT/a.mp4" } << "--frames";
        QTest::newRow("fps 61") << base + QStringList { "--fps", "61", "--out", "OUT/a.mp4" } << "--fps";
        QTest::newRow("odd size") << QStringList { "animate", "training", "--size", "65x40", "--out", "OUT/a.mp4" } << "even";
        QTest::newRow("extension") << base + QStringList { "--out", "OUT/a.avi" } << "--out";
        QTest::newRow("missing folder") << base + QStringList { "--out", "OUT/none/a.mp4" } << "does not exist";
        QTest::newRow("chart 2") << base + QStringList { "--chart", "2", "--out", "OUT/a.mp4" } << "[1, 1]";
        const QStringList transformer { "animate", "transformer", "--frames", "3", "--size", "64x40", "--set", "steps=5" };
        QTest::newRow("config of a lab without one") << QStringList { "animate", "decay-bound", "--sweep", "base=100:1000",
                                                                      "--config", "kv_heads=1", "--out", "OUT/a.gif" } << "--config";
        QTest::newRow("bad config") << transformer + QStringList { "--config", "kv_heads=3", "--out", "OUT/a.gif" }
                                    << "configuration 1 (kv_heads=3): kv_heads";
        QTest::newRow("six configs") << transformer + QStringList { "--config", "a=1", "--config", "b=1", "--config", "c=1",
                                                                    "--config", "d=1", "--config", "e=1", "--config", "f=1",
                                                                    "--out", "OUT/a.gif" }
                                     << "1 to 5";
        QTest::newRow("transformer sweep") << transformer + QStringList { "--sweep", "lr=0.001:0.01", "--out", "OUT/a.gif" } << "--sweep";
    }
    void badInputExits2AndWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        const QString problem = fb::test::badInputWritesNothingProblem(args, names);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The transformer lab records its run too, and with --config a comparison: its loss chart, the
    // curves growing from the first frame (no held-out point yet past step 0) to the last.
    void transformerComparisonRecorded()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("frames/"));
        const Run r = run({ "animate", "transformer", "--set", "steps=20", "--set", "eval_every=10", "--set", "d_model=16",
                            "--set", "layers=1", "--set", "seq_len=12", "--set", "batch=8", "--config", "",
                            "--config", "kv_heads=1", "--frames", "3", "--size", "320x200", "--no-caption", "--out", out });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 3);
        const QImage first(QDir(out).filePath(files.first())), last(QDir(out).filePath(files.last()));
        QCOMPARE(last.size(), kSize);
        QVERIFY(test::imageDifference(first, last).mean > 0.05);  // the curves grew
    }

    // The window's path: AnimationRun trains a hidden copy of the lab (reporting its steps), then
    // renders and encodes; the visible lab is left alone.
    void windowRecordsOnAHiddenCopy()
    {
        TrainingView visible;
        ParamValues v = visible.values();
        v.numbers["steps"] = kSteps;
        v.numbers["batch"] = 32;
        QCOMPARE(visible.setValues(v), QString());
        QTemporaryDir dir;
        AnimationJob job = recordJob();
        job.out = dir.filePath(QStringLiteral("run.gif"));
        AnimationRun runner(visible.name(), visible.values(), job);
        QSignalSpy training(&runner, &AnimationRun::training);
        QSignalSpy finished(&runner, &AnimationRun::finished);
        runner.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QCOMPARE(finished.first().first().toString(), QString());
        QVERIFY(!training.isEmpty());
        QCOMPARE(training.last().at(0).toInt(), 2 * kSteps);  // both arms, all steps
        QCOMPARE(visible.state(), TrainingView::State::Idle);
        const test::DecodedVideo d = test::decodeVideo(job.out);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QCOMPARE(d.frames.size(), kFrames);
    }

    void cancelWhileTrainingLeavesNothing()
    {
        QTemporaryDir dir;
        AnimationJob job = recordJob();
        job.out = dir.filePath(QStringLiteral("run.mp4"));
        ParamValues v = labSpec(QStringLiteral("training"))->defaults();
        v.numbers["steps"] = 5000;  // long: cancelled long before its end
        AnimationRun runner(QStringLiteral("training"), v, job);
        QSignalSpy training(&runner, &AnimationRun::training);
        QSignalSpy finished(&runner, &AnimationRun::finished);
        runner.start();
        QTRY_VERIFY_WITH_TIMEOUT(!training.isEmpty(), 60000);
        runner.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(finished.first().first().toString(), QStringLiteral("cancelled"));
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
    }

    // File → Export animation… offers the recording for the training lab (chosen) and not for a lab
    // without a run.
    void dialogOffersTheRecording()
    {
        TrainingView training;
        AnimationDialog dialog(&training);
        auto *mode = dialog.findChild<QComboBox *>(QStringLiteral("animationMode"));
        QVERIFY(mode);
        QVERIFY(dialog.isRecording());
        QCOMPARE(mode->currentText(), QStringLiteral("Record the training run"));
        // The sweep is listed but greyed out: a training lab trains once, whatever the value.
        auto *items = qobject_cast<QStandardItemModel *>(mode->model());
        QVERIFY(items && !items->item(1)->isEnabled());
        std::unique_ptr<LabView> decay(labRegistry()[labIndex(QStringLiteral("decay-bound"))].create());
        AnimationDialog plain(decay.get());
        QVERIFY(!plain.findChild<QComboBox *>(QStringLiteral("animationMode")));
        QVERIFY(!plain.isRecording());
    }
};

QTEST_MAIN(TestAnimateTraining)
#include "tst_animate_training.moc"
