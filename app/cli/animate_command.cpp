// fullband animate LAB --sweep KEY=FROM:TO[:log] [--set KEY=VALUE]... --frames N --fps F
//                      [--size WxH] [--chart N] [--no-caption] [--free-axes] --out FILE.mp4|FILE.gif|DIR/
// fullband animate training [--set KEY=VALUE]... --frames N ... : the training run recorded (a lab
// that trains has no --sweep; it trains once to the end, frame i shows step round(i * S / (N - 1))).
// fullband animate transformer [--config "OVERRIDES"]... : the transformer's run recorded (its maps
// as the replay kept them, its loss curves up to the step); with --config (1 to 5, as `fullband
// compare` takes them) the comparison of those configurations, its loss chart by default.
#include "app/animation/animation.h"
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/export/image_export.h"
#include "app/registry/lab_registry.h"
#include "app/animation/video_writer.h"
#include "app/cli/progress_line.h"
#include "core/io/atomic_file.h"
#include "core/run/animation_cost.h"
#include "core/run/time_left.h"
#include "views/lab/lab_view.h"
#include "views/lab/param_panel.h"
#include "views/lab/replayable.h"
#include "views/training/transformer_view.h"

#include "core/compare/compare_config.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <cstdio>
#include <memory>

namespace fb {

namespace {
// Animations expected to take longer than this say so on stderr even when it is not a terminal.
constexpr double kAnnouncedSeconds = 30.0;

void quietPlatformNotes(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("XDG_RUNTIME_DIR")) || message.contains(QLatin1String("propagateSizeHints")))
        return;
    // A painter that cannot draw (its image could not be made) says so for every frame: the export
    // reports the failure itself in one line, so Qt's painter notes are dropped, and any other note
    // is printed once, not once a frame.
    if (message.startsWith(QLatin1String("QPainter"))) return;
    static QSet<QString> seen;
    if (seen.contains(message)) return;
    seen.insert(message);
    std::fputs(qPrintable(qFormatLogMessage(type, context, message) + QLatin1Char('\n')), stderr);
}

bool parseInt(const QString &text, int lo, int hi, int &out)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) return false;
    out = v;
    return true;
}
} // namespace

int runAnimate(int argc, char **argv)
{
    qInstallMessageHandler(quietPlatformNotes);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Render a parameter sweep of one chart of a lab as MP4 (H.264), GIF or numbered PNG frames;\n"
        "for the labs that train (training, transformer), their training run step by step (no --sweep;\n"
        "transformer --config ...: a comparison).\nLabs: %1")
        .arg(labNames()));
    addCommonOptions(parser);
    parser.addOption({ QStringLiteral("sweep"), QStringLiteral("The parameter to sweep, its ends, and :log for a log sweep (required, except for training: it records its run)."), QStringLiteral("KEY=FROM:TO[:log]") });
    parser.addOption({ QStringLiteral("frames"), QStringLiteral("Number of frames, 2..3000 (default 150)."), QStringLiteral("N") });
    parser.addOption({ QStringLiteral("fps"), QStringLiteral("Frames per second, 1..60 (default 30)."), QStringLiteral("F") });
    parser.addOption({ QStringLiteral("size"), QStringLiteral("Pixel size, default 1600x1000."), QStringLiteral("WxH") });
    parser.addOption({ QStringLiteral("chart"), QStringLiteral("Which chart of the lab, from 1 (default 1)."), QStringLiteral("N") });
    parser.addOption({ QStringLiteral("no-caption"), QStringLiteral("No strip with the swept value under the chart.") });
    parser.addOption({ QStringLiteral("free-axes"), QStringLiteral("Axes that follow each frame's data (by default a sweep's "
                                                                   "frames share the axes the whole sweep needs).") });
    parser.addOption({ QStringLiteral("config"), QStringLiteral("transformer only: one configuration of a comparison "
                                                                "(1 to 5 of them; comma-separated KEY=VALUE overrides "
                                                                "of the --set values, \"\" for those values themselves)."),
                       QStringLiteral("OVERRIDES") });
    parser.addOption({ QStringLiteral("out"), QStringLiteral("FILE.mp4, FILE.gif or a folder DIR/ for PNG frames (required)."), QStringLiteral("FILE") });
    parser.addPositionalArgument(QStringLiteral("animate"), QStringLiteral("The subcommand."));
    parser.addPositionalArgument(QStringLiteral("LAB"), QStringLiteral("The lab to animate."));
    if (!parser.parse(QCoreApplication::arguments())) return failBadInput(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2)
        return failBadInput(QStringLiteral("animate needs exactly one LAB, one of: %1").arg(labNames()));
    const int index = labIndex(args[1]);
    if (index < 0) return failBadInput(QStringLiteral("unknown lab '%1'; labs: %2").arg(args[1], labNames()));
    const LabSpec &spec = *labSpec(args[1]);
    std::unique_ptr<LabView> lab(labRegistry()[index].create());
    const bool recording = dynamic_cast<Replayable *>(lab.get()) != nullptr;

    AnimationJob job;
    if (parser.isSet(QStringLiteral("frames")) && !parseInt(parser.value(QStringLiteral("frames")), 2, 3000, job.sweep.frames))
        return failBadInput(QStringLiteral("--frames must be an integer in [2, 3000], got '%1'").arg(parser.value(QStringLiteral("frames"))));
    if (parser.isSet(QStringLiteral("fps")) && !parseInt(parser.value(QStringLiteral("fps")), 1, 60, job.fps))
        return failBadInput(QStringLiteral("--fps must be an integer in [1, 60], got '%1'").arg(parser.value(QStringLiteral("fps"))));
    if (recording) {
        if (parser.isSet(QStringLiteral("sweep")))
            return failBadInput(QStringLiteral("--sweep: lab %1 records its training run instead of a sweep; leave out --sweep "
                                               "and set the run with --set (keys: %2)")
                                    .arg(args[1], QString::fromStdString(spec.keyList())));
        job.recording = true;
    } else if (!parser.isSet(QStringLiteral("sweep"))) {
        return failBadInput(QStringLiteral("--sweep KEY=FROM:TO[:log] is required; keys for %1: %2")
                                .arg(args[1], QString::fromStdString(spec.keyList())));
    } else if (QString err = parseSweep(spec, parser.value(QStringLiteral("sweep")), job.sweep); !err.isEmpty()) {
        return failBadInput(err);
    }
    job.caption = !parser.isSet(QStringLiteral("no-caption"));
    job.fixedAxes = !parser.isSet(QStringLiteral("free-axes"));

    job.out = parser.value(QStringLiteral("out"));
    if (job.out.isEmpty()) return failBadInput(QStringLiteral("--out FILE.mp4|FILE.gif|DIR/ is required"));
    const AnimationOutput kind = animationOutputOf(job.out);
    if (kind == AnimationOutput::Unknown)
        return failBadInput(QStringLiteral("--out must name a .mp4 or .gif file or a folder ending in '/', got '%1'").arg(job.out));
    QString outPath = job.out;
    while (outPath.size() > 1 && outPath.endsWith(QLatin1Char('/'))) outPath.chop(1);
    const QFileInfo outInfo(outPath);
    if (!outInfo.absoluteDir().exists())
        return failBadInput(QStringLiteral("--out: folder '%1' does not exist").arg(outInfo.absolutePath()));
    if (kind != AnimationOutput::Frames && outInfo.isDir())
        return failBadInput(QStringLiteral("--out: '%1' is a folder, not a %2 file (a folder of PNG frames is named "
                                           "with a trailing '/')")
                                .arg(outInfo.absoluteFilePath(), kind == AnimationOutput::Mp4 ? QStringLiteral("MP4")
                                                                                              : QStringLiteral("GIF")));
    if (kind != AnimationOutput::Frames)
        if (const std::string why = checkReplaceable(QFile::encodeName(outPath).toStdString()); !why.empty())
            return failBadInput(QString::fromStdString(why));
    if (parser.isSet(QStringLiteral("size")) && !parseSize(parser.value(QStringLiteral("size")), job.size))
        return failBadInput(QStringLiteral("--size must be WxH with both in [16, 8192], got '%1'")
                                .arg(parser.value(QStringLiteral("size"))));
    if (kind == AnimationOutput::Mp4 && (job.size.width() % 2 || job.size.height() % 2))
        return failBadInput(QStringLiteral("--size must be even in both directions for MP4 (yuv420p), got '%1x%2'")
                                .arg(job.size.width()).arg(job.size.height()));
    if (kind != AnimationOutput::Frames) {
        std::string why;
        if (!videoFormatAvailable(kind == AnimationOutput::Mp4 ? VideoFormat::Mp4 : VideoFormat::Gif, why))
            return failBadInput(QString::fromStdString(why));
    }

    // The one work and memory budget of the trainers: refused before anything is drawn.
    const AnimationFormat format = kind == AnimationOutput::Mp4   ? AnimationFormat::Mp4
                                   : kind == AnimationOutput::Gif ? AnimationFormat::Gif
                                                                  : AnimationFormat::PngFrames;
    if (const std::string err = checkAnimationBudget(job.size.width(), job.size.height(), job.sweep.frames, format,
                                                     "lower --size or --frames");
        !err.empty())
        return failBadInput(QString::fromStdString(err));

    ParamValues values = lab->values();
    if (QString err = applySets(lab->panel()->spec(), values, parser.values(kSetOption)); !err.isEmpty())
        return failBadInput(err);
    if (QString err = lab->setValues(values); !err.isEmpty()) return failBadInput(err);
    if (parser.isSet(QStringLiteral("config"))) {
        auto *transformer = qobject_cast<TransformerView *>(lab.get());
        if (!transformer)
            return failBadInput(QStringLiteral("--config: only the transformer lab compares configurations, not %1").arg(args[1]));
        const QStringList configs = parser.values(QStringLiteral("config"));
        if (configs.size() > kMaxCompareConfigs)
            return failBadInput(QStringLiteral("--config must be given 1 to %1 times, got %2").arg(kMaxCompareConfigs).arg(configs.size()));
        QJsonArray lines;
        for (const QString &c : configs) lines.append(c.trimmed().isEmpty() ? QStringLiteral("base") : c);
        if (QString err = lab->setExtraState(QJsonObject { { QStringLiteral("compare"), lines } }); !err.isEmpty())
            return failBadInput(QStringLiteral("--config: %1").arg(err));
    }
    if (recording) job.chart = dynamic_cast<Replayable *>(lab.get())->recordedChart();
    if (parser.isSet(QStringLiteral("chart"))) {
        if (!parseInt(parser.value(QStringLiteral("chart")), 1, int(lab->exportables().size()), job.chart))
            return failBadInput(QStringLiteral("--chart must be an integer in [1, %1], got '%2'")
                                    .arg(lab->exportables().size()).arg(parser.value(QStringLiteral("chart"))));
        job.chart -= 1;
    }
    lab->resize(job.size);
    lab->show();
    if (recording) {
        auto *r = dynamic_cast<Replayable *>(lab.get());
        if (QString err = r->startTraining(); !err.isEmpty()) return failBadInput(err);
        // A lab whose replay keeps the frames it pulled pulls its run on its own timer, as in the
        // window (a wait for the end would see only the last one).
        QEventLoop loop;
        QTimer poll;
        poll.setInterval(50);
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] { if (r->isTrained()) loop.quit(); });
        poll.start();
        if (r->recordsLivePulls()) loop.exec();
    }
    lab->waitForResult();
    QString err;
    try {
        // Once the first frame is out, its time tells the whole animation's: a long one says so (on a
        // terminal, every one does, and a progress line follows).
        ProgressLine progressLine("rendering", "frame");
        QElapsedTimer clock;
        clock.start();
        const auto progress = [&](int done, int total) {
            if (done == 1 && total > 1) {
                const double expected = clock.nsecsElapsed() * 1e-9 * total;
                if (progressLine.enabled() || expected >= kAnnouncedSeconds)
                    std::fprintf(stderr, "fullband: %d frames of %dx%d, expected to take %s\n", total, job.size.width(),
                                 job.size.height(), aboutText(expected).c_str());
            }
            progressLine.update(done, total);
            return true;
        };
        err = exportAnimation(*lab, job, progress);
    } catch (const std::exception &e) {
        err = QString::fromStdString(e.what());
    }
    if (!err.isEmpty()) return failBadInput(err);
    std::printf("%s\n", qPrintable(QFileInfo(outPath).absoluteFilePath()));
    return 0;
}

} // namespace fb
