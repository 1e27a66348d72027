// Animation speed at 1600x1000 for the decay-bound sweep (base 100 -> 1e6, log): where a frame's
// time goes (setting the value and computing, rendering the chart, encoding), and all together.
// Run: build/tests/bench_animate (QT_QPA_PLATFORM=offscreen). Each function does 30 frames per
// iteration; frames per second = 30 / (msecs per iteration / 1000).
#include "app/animation/animation.h"
#include "app/registry/lab_registry.h"
#include "app/export/lab_image.h"
#include "app/animation/video_writer.h"
#include "views/lab/lab_view.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace fb;

class BenchAnimate : public QObject {
    Q_OBJECT
private:
    static constexpr int kFrames = 30;
    std::unique_ptr<LabView> lab_;
    AnimationJob job_;
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase()
    {
        lab_.reset(labRegistry()[labIndex(QStringLiteral("decay-bound"))].create());
        job_.size = QSize(1600, 1000);
        job_.fps = 30;
        job_.sweep = { "base", 100, 1e6, true, kFrames };
        lab_->resize(job_.size);
        lab_->show();
        lab_->waitForResult();
    }

    // Setting the swept value and waiting for the worker's result to be drawn (no rendering).
    void computeOnly()
    {
        const ParamSpec &spec = *labSpec(lab_->name())->find("base");
        QBENCHMARK {
            for (int i = 0; i < kFrames; ++i) {
                ParamValues v = lab_->values();
                v.numbers["base"] = job_.sweep.valueAt(spec, i);
                lab_->setValues(v);
                lab_->waitForResult();
            }
        }
    }

    // The whole frame: value, result, chart rendered with the caption strip.
    void renderFrames()
    {
        QBENCHMARK {
            for (int i = 0; i < kFrames; ++i) animationFrame(*lab_, job_, i);
        }
    }

    // Encoding alone, one prepared frame 30 times (MP4 and GIF).
    void encodeOnly_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("mp4") << QStringLiteral("a.mp4");
        QTest::newRow("gif") << QStringLiteral("a.gif");
    }
    void encodeOnly()
    {
        QFETCH(QString, name);
        QList<QImage> frames;
        for (int i = 0; i < kFrames; ++i) frames << animationFrame(*lab_, job_, i);
        VideoSettings s;
        s.format = name.endsWith(QLatin1String("mp4")) ? VideoFormat::Mp4 : VideoFormat::Gif;
        QBENCHMARK {
            std::string err;
            auto writer = VideoWriter::open(dir_.filePath(name).toStdString(), s, err);
            QVERIFY2(writer, err.c_str());
            for (const QImage &f : frames) QVERIFY2(writer->addFrame(f.constBits(), int(f.bytesPerLine()), err), err.c_str());
            QVERIFY2(writer->finish(err), err.c_str());
        }
    }

    // Everything, as fullband animate does it.
    void renderAndEncode_data() { encodeOnly_data(); }
    void renderAndEncode()
    {
        QFETCH(QString, name);
        job_.out = dir_.filePath(name);
        QBENCHMARK {
            const QString err = exportAnimation(*lab_, job_);
            QVERIFY2(err.isEmpty(), qPrintable(err));
        }
    }
};

QTEST_MAIN(BenchAnimate)
#include "bench_animate.moc"
