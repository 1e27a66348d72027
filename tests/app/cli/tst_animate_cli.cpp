// fullband animate: a parameter sweep written as MP4 (H.264, yuv420p), GIF and PNG frames, decoded
// back with FFmpeg's libraries: frame count, duration, size, metadata, and first and last frames equal
// to the chart rendered at the range's ends (within the codec's error for MP4). Bad input exits 2 and
// leaves no file; a cancelled export leaves nothing either. Small sizes and few frames: cheap.
#include "app/animation/animation.h"
#include "app/registry/lab_registry.h"
#include "support/video_decoder.h"
#include "views/lab/lab_view.h"
#include "support/cli_process.h"

#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace fb;

class TestAnimateCli : public QObject {
    Q_OBJECT
private:
    using Run = fb::test::CliText;
    static Run run(const QStringList &args) { return fb::test::runFullbandText(args); }

    static constexpr int kFrames = 6;
    static constexpr int kFps = 10;
    const QSize kSize { 320, 200 };

    QStringList sweepArgs(const QString &out) const
    {
        return { "animate", "decay-bound", "--sweep", "base=100:1e6:log", "--frames", QString::number(kFrames),
                 "--fps", QString::number(kFps), "--size", "320x200", "--out", out };
    }

    // The chart as the window's Export chart renders it at frame i of the same sweep.
    QImage expectedFrame(int i)
    {
        std::unique_ptr<LabView> lab(labRegistry()[labIndex(QStringLiteral("decay-bound"))].create());
        AnimationJob job;
        job.size = kSize;
        job.fps = kFps;
        job.sweep = { "base", 100, 1e6, true, kFrames };
        lab->resize(kSize);
        lab->show();
        lab->waitForResult();
        return animationFrame(*lab, job, i);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(!qgetenv("FULLBAND_BIN").isEmpty()); }

    void sweepEndsAreLogSpaced()
    {
        const LabSpec &spec = *labSpec(QStringLiteral("decay-bound"));
        Sweep s;
        s.frames = 5;
        QVERIFY(parseSweep(spec, QStringLiteral("base=100:1e6:log"), s).isEmpty());
        const ParamSpec &base = *spec.find("base");
        QCOMPARE(s.valueAt(base, 0), 100.0);
        QCOMPARE(s.valueAt(base, 4), 1e6);
        QCOMPARE(s.valueAt(base, 2), 1e4);  // halfway in log space
        QCOMPARE(s.valueAt(base, 1), 1000.0);  // 4 significant digits inside the range
        QVERIFY(parseSweep(spec, QStringLiteral("base=100:1e6"), s).isEmpty());
        QCOMPARE(s.valueAt(base, 2), 500100.0);
    }

    void mp4()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("decay.mp4"));
        const Run r = run(sweepArgs(path));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const test::DecodedVideo v = test::decodeVideo(path);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.codec, QStringLiteral("h264"));
        QCOMPARE(v.pixelFormat, QStringLiteral("yuv420p"));
        QCOMPARE(v.size, kSize);
        QCOMPARE(v.frames.size(), kFrames);
        QVERIFY2(std::abs(v.seconds - double(kFrames) / kFps) < 1e-3, qPrintable(QString::number(v.seconds)));
        // The metadata: the first frame's scene and the sweep.
        const QJsonObject meta = QJsonDocument::fromJson(v.comment.toUtf8()).object();
        QCOMPARE(meta.value(QStringLiteral("sweep")).toObject().value(QStringLiteral("key")).toString(), QStringLiteral("base"));
        QCOMPARE(meta.value(QStringLiteral("sweep")).toObject().value(QStringLiteral("scale")).toString(), QStringLiteral("log"));
        QVERIFY(meta.value(QStringLiteral("scene")).isObject());
        // First and last frames are the chart at the ends of the range, within H.264's error
        // (yuv420p halves the colour resolution: thin coloured lines lose most).
        for (int i : { 0, kFrames - 1 }) {
            const test::ImageDifference d = test::imageDifference(v.frames[i], expectedFrame(i));
            QVERIFY2(d.mean < 3.0, qPrintable(QStringLiteral("frame %1: mean difference %2").arg(i).arg(d.mean)));
        }
        // ... and unlike each other: the sweep moved the chart.
        QVERIFY(test::imageDifference(v.frames[0], v.frames[kFrames - 1]).mean > 3 * 3.0 / 3);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temporary left
    }

    void gif()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("decay.gif"));
        const Run r = run(sweepArgs(path));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const test::DecodedVideo v = test::decodeVideo(path);
        QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
        QCOMPARE(v.codec, QStringLiteral("gif"));
        QCOMPARE(v.size, kSize);
        QCOMPARE(v.frames.size(), kFrames);
        QVERIFY2(std::abs(v.seconds - double(kFrames) / kFps) < 1e-3, qPrintable(QString::number(v.seconds)));
        // A palette per frame from its own colours: the chart's flat colours come out exact; only
        // antialiased edges beyond 256 colours map to their nearest palette entry.
        for (int i : { 0, kFrames - 1 }) {
            const test::ImageDifference d = test::imageDifference(v.frames[i], expectedFrame(i));
            QVERIFY2(d.exactFraction > 0.95 && d.mean < 0.1,
                     qPrintable(QStringLiteral("frame %1: %2 exact, mean %3").arg(i).arg(d.exactFraction).arg(d.mean)));
        }
        // The GIF comment extension carries the sweep and the scene.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("\x21\xFE"));
        QVERIFY(bytes.contains("\"fullband-animation\""));
        QVERIFY(bytes.contains("\"key\":\"base\""));
    }

    void pngFrames()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("frames/"));
        const Run r = run(sweepArgs(out));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), kFrames);
        QCOMPARE(files.first(), QStringLiteral("frame_0001.png"));
        for (int i : { 0, kFrames - 1 }) {
            const QImage png(QDir(out).filePath(files[i]));
            QCOMPARE(png.size(), kSize);
            QCOMPARE(test::imageDifference(png, expectedFrame(i)).max, 0);  // exact
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 1);
    }

    void badInputExits2AndWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("names");
        const QStringList base { "animate", "decay-bound", "--frames", "3", "--size", "64x40" };
        QTest::newRow("unknown key") << base + QStringList { "--sweep", "nope=1:2", "--out", "OUT/a.mp4" } << "nope";
        QTest::newRow("below range") << base + QStringList { "--sweep", "base=0.5:1e6:log", "--out", "OUT/a.mp4" } << "base";
        QTest::newRow("above range") << base + QStringList { "--sweep", "base=100:1e10", "--out", "OUT/a.gif" } << "base";
        QTest::newRow("no range") << base + QStringList { "--sweep", "base=100", "--out", "OUT/a.mp4" } << "FROM:TO";
        QTest::newRow("bad scale") << base + QStringList { "--sweep", "base=100:1000:cubic", "--out", "OUT/a.mp4" } << "log";
        QTest::newRow("equal ends") << base + QStringList { "--sweep", "base=100:100", "--out", "OUT/a.mp4" } << "differ";
        QTest::newRow("no sweep") << base + QStringList { "--out", "OUT/a.mp4" } << "--sweep";
        QTest::newRow("one frame") << QStringList { "animate", "decay-bound", "--frames", "1", "--sweep", "base=100:1e6", "--out", "OUT/a.mp4" } << "--frames";
        QTest::newRow("fps 0") << base + QStringList { "--fps", "0", "--sweep", "base=100:1e6", "--out", "OUT/a.mp4" } << "--fps";
        QTest::newRow("odd size") << QStringList { "animate", "decay-bound", "--size", "65x40", "--sweep", "base=100:1e6", "--out", "OUT/a.mp4" } << "even";
        QTest::newRow("extension") << base + QStringList { "--sweep", "base=100:1e6", "--out", "OUT/a.avi" } << "--out";
        QTest::newRow("missing folder") << base + QStringList { "--sweep", "base=100:1e6", "--out", "OUT/none/a.mp4" } << "does not exist";
        QTest::newRow("bad set") << base + QStringList { "--set", "d=3", "--sweep", "base=100:1e6", "--out", "OUT/a.mp4" } << "d";
        QTest::newRow("unknown lab") << QStringList { "animate", "nolab", "--sweep", "base=100:1e6", "--out", "OUT/a.mp4" } << "nolab";
    }
    void badInputExits2AndWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, names);
        const QString problem = fb::test::badInputWritesNothingProblem(args, names);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // Cancelling after two frames leaves nothing behind, for every output.
    void cancelLeavesNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("mp4") << QStringLiteral("a.mp4");
        QTest::newRow("gif") << QStringLiteral("a.gif");
        QTest::newRow("frames") << QStringLiteral("frames/");
    }
    void cancelLeavesNothing()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        std::unique_ptr<LabView> lab(labRegistry()[labIndex(QStringLiteral("decay-bound"))].create());
        AnimationJob job;
        job.size = QSize(64, 40);
        job.sweep = { "base", 100, 1e6, true, 5 };
        job.out = dir.filePath(name);
        lab->resize(job.size);
        lab->show();
        const ParamValues before = lab->values();
        const QString err = exportAnimation(*lab, job, [](int done, int) { return done < 2; });
        QCOMPARE(err, QStringLiteral("cancelled"));
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty());
        QCOMPARE(lab->values(), before);  // the lab is back where it was
    }
};

QTEST_MAIN(TestAnimateCli)
#include "tst_animate_cli.moc"
