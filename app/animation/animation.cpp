#include "app/animation/animation.h"

#include "app/export/image_export.h"
#include "app/export/lab_image.h"
#include "app/registry/lab_registry.h"
#include "app/animation/sweep_axes.h"
#include "app/animation/video_writer.h"
#include "views/lab/lab_view.h"
#include "views/lab/replayable.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFontMetricsF>
#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace fb {

int recordingStep(int steps, int frames, int i)
{
    if (frames <= 1) return steps;
    return int(std::llround(double(i) * double(steps) / double(frames - 1)));
}

AnimationOutput animationOutputOf(const QString &path)
{
    if (path.endsWith(QLatin1Char('/'))) return AnimationOutput::Frames;
    // A name ending in .mp4 or .gif means that file, even where a folder has the name (it is refused
    // there, rather than filled with PNG frames).
    VideoFormat f;
    if (videoFormatOf(path.toStdString(), f)) return f == VideoFormat::Mp4 ? AnimationOutput::Mp4 : AnimationOutput::Gif;
    return QFileInfo(path).isDir() ? AnimationOutput::Frames : AnimationOutput::Unknown;
}

namespace {
const ParamSpec &sweptSpec(LabView &lab, const AnimationJob &job)
{
    const ParamSpec *spec = labSpec(lab.name())->find(job.sweep.key);
    if (!spec) throw std::invalid_argument("unknown sweep key " + job.sweep.key);
    return *spec;
}

QString valueText(const ParamSpec &spec, double v)
{
    QString text = QString::fromStdString(spec.label) + QStringLiteral(" = ");
    if (spec.kind == ParamKind::Integer) text += QString::number(qint64(v));
    else text += QString::number(v, 'g', 4);
    if (!spec.unit.empty()) text += QLatin1Char(' ') + QString::fromStdString(spec.unit);
    return text;
}
} // namespace

CaptionStrip captionStrip(const QString &lead, const QString &figures, QSize size)
{
    CaptionStrip c;
    c.lineHeight = std::max(28, size.height() / 20);
    c.leadFont.setPixelSize(std::max(11, int(c.lineHeight * 0.5)));
    c.leadFont.setBold(true);
    c.restFont = c.leadFont;
    c.restFont.setBold(false);
    const int width = size.width() - 24;
    const int used = int(std::ceil(QFontMetricsF(c.leadFont).horizontalAdvance(lead))) + 24;
    if (QFontMetricsF(c.restFont).horizontalAdvance(figures) <= width - used) {
        c.height = c.lineHeight;
        c.rest = QRect(12 + used, 0, std::max(0, width - used), c.lineHeight);
        c.restText = figures;
        return c;
    }
    c.height = 2 * c.lineHeight;
    c.rest = QRect(12, c.lineHeight, width, c.lineHeight);
    const int full = c.restFont.pixelSize();
    for (int px = full; px >= std::max(9, full * 4 / 5); --px) {
        c.restFont.setPixelSize(px);
        if (QFontMetricsF(c.restFont).horizontalAdvance(figures) <= width) break;
    }
    c.restText = QFontMetrics(c.restFont).elidedText(figures, Qt::ElideRight, width);
    return c;
}

namespace {
Replayable &replayableOf(LabView &lab)
{
    auto *r = dynamic_cast<Replayable *>(&lab);
    if (!r) throw std::invalid_argument(lab.name().toStdString() + " has no training run to record");
    if (!r->isTrained()) throw std::invalid_argument("the training run has not ended");
    return *r;
}
} // namespace

QImage animationFrame(LabView &lab, const AnimationJob &job, int i)
{
    QString lead;
    if (job.recording) {
        Replayable &r = replayableOf(lab);
        const int steps = r.replaySteps();
        const int step = recordingStep(steps, job.sweep.frames, i);
        r.showStep(step);
        lead = QStringLiteral("step %1 of %2").arg(step).arg(steps);
    } else {
        const ParamSpec &spec = sweptSpec(lab, job);
        const double v = job.sweep.valueAt(spec, i);
        ParamValues values = lab.values();
        values.numbers[job.sweep.key] = v;
        if (QString err = lab.setValues(values, false); !err.isEmpty()) throw std::invalid_argument(err.toStdString());
        lab.waitForResult();  // the frame shows this value's result
        lead = valueText(spec, v);
    }
    if (!job.caption) return chartImage(lab, job.chart, job.size, 1.0, false).convertToFormat(QImage::Format_RGB32);
    // The chart above, the swept value (bold) and the lab's key figures below: on one line when
    // they fit, else the figures on a second line (set smaller, down to 80 %, before any is cut).
    const CaptionStrip strip = captionStrip(lead, lab.caption(), job.size);
    const QImage top = chartImage(lab, job.chart, QSize(job.size.width(), job.size.height() - strip.height), 1.0, false);
    QImage image(job.size, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.drawImage(QPointF(0, 0), top);
        p.setFont(strip.leadFont);
        p.setPen(QColor(30, 30, 30));
        const int y0 = job.size.height() - strip.height;
        p.drawText(QRect(12, y0, job.size.width() - 24, strip.lineHeight), Qt::AlignVCenter | Qt::AlignLeft, lead);
        p.setFont(strip.restFont);
        p.setPen(QColor(90, 90, 90));
        p.drawText(strip.rest.translated(0, y0), Qt::AlignVCenter | Qt::AlignLeft, strip.restText);
    }
    image.setText(kSceneTextKey, top.text(kSceneTextKey));
    return image;
}

QString animationComment(LabView &lab, const AnimationJob &job)
{
    const LabSpec *spec = labSpec(lab.name());
    Scene s = sceneOf(lab);
    if (job.recording) {
        auto *r = dynamic_cast<Replayable *>(&lab);
        QJsonObject recording { { QStringLiteral("steps"), r ? r->replaySteps() : 0 },
                                { QStringLiteral("frames"), job.sweep.frames },
                                { QStringLiteral("fps"), job.fps } };
        QJsonObject root { { QStringLiteral("fullband-animation"), 1 }, { QStringLiteral("recording"), recording } };
        if (spec) root.insert(QStringLiteral("scene"), sceneToJson(s, *spec));
        return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact));
    }
    ParamValues first = lab.values();
    first.numbers[job.sweep.key] = job.sweep.valueAt(sweptSpec(lab, job), 0);
    s.values = first;
    QJsonObject sweep { { QStringLiteral("key"), QString::fromStdString(job.sweep.key) },
                        { QStringLiteral("from"), job.sweep.from },
                        { QStringLiteral("to"), job.sweep.to },
                        { QStringLiteral("scale"), job.sweep.log ? QStringLiteral("log") : QStringLiteral("lin") },
                        { QStringLiteral("frames"), job.sweep.frames },
                        { QStringLiteral("fps"), job.fps } };
    QJsonObject root { { QStringLiteral("fullband-animation"), 1 }, { QStringLiteral("sweep"), sweep } };
    if (spec) root.insert(QStringLiteral("scene"), sceneToJson(s, *spec));
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact));
}

namespace {
QString exportFrames(LabView &lab, const AnimationJob &job, const std::function<bool(int, int)> &progress)
{
    // Frames go to a hidden folder beside the target and move in only when all are written.
    QString target = job.out;
    while (target.size() > 1 && target.endsWith(QLatin1Char('/'))) target.chop(1);
    const QFileInfo info(target);
    if (!info.absoluteDir().exists())
        return QStringLiteral("--out: folder '%1' does not exist").arg(info.absolutePath());
    QTemporaryDir tmp(info.absolutePath() + QStringLiteral("/.") + info.fileName() + QStringLiteral(".partial-XXXXXX"));
    if (!tmp.isValid()) return QStringLiteral("cannot create a folder in '%1'").arg(info.absolutePath());
    const int digits = std::max(4, int(QString::number(job.sweep.frames).size()));
    QStringList names;
    for (int i = 0; i < job.sweep.frames; ++i) {
        const QString name = QStringLiteral("frame_%1.png").arg(i + 1, digits, 10, QLatin1Char('0'));
        if (QString err = writePng(animationFrame(lab, job, i), tmp.filePath(name)); !err.isEmpty()) return err;
        names << name;
        if (progress && !progress(i + 1, job.sweep.frames)) return QStringLiteral("cancelled");
    }
    QDir dir(info.absoluteFilePath());
    if (!dir.exists()) {
        if (!QDir().rename(tmp.path(), info.absoluteFilePath()))
            return QStringLiteral("cannot create the folder '%1'").arg(info.absoluteFilePath());
        tmp.setAutoRemove(false);
        return {};
    }
    for (const QString &name : names) {
        QFile::remove(dir.filePath(name));
        if (!QFile::rename(tmp.filePath(name), dir.filePath(name)))
            return QStringLiteral("cannot move frames into '%1'").arg(dir.path());
    }
    return {};
}
} // namespace

QString exportAnimation(LabView &lab, const AnimationJob &job, const std::function<bool(int, int)> &progress)
{
    const AnimationOutput kind = animationOutputOf(job.out);
    if (kind == AnimationOutput::Unknown)
        return QStringLiteral("--out must name a .mp4 or .gif file or a folder ending in '/', got '%1'").arg(job.out);
    const ParamValues before = lab.values();
    if (job.recording) {
        lab.waitForResult();  // trains the run to its end (headless export)
        replayableOf(lab);    // throws unless there is an ended run
    }
    SweepAxes axes(lab, job);
    axes.recordAll();
    QString err;
    if (kind == AnimationOutput::Frames) {
        err = exportFrames(lab, job, progress);
    } else {
        VideoSettings settings;
        settings.format = kind == AnimationOutput::Mp4 ? VideoFormat::Mp4 : VideoFormat::Gif;
        settings.width = job.size.width();
        settings.height = job.size.height();
        settings.fps = job.fps;
        settings.comment = animationComment(lab, job).toStdString();
        std::string error;
        std::unique_ptr<VideoWriter> writer = VideoWriter::open(job.out.toStdString(), settings, error);
        if (!writer) return QString::fromStdString(error);
        for (int i = 0; i < job.sweep.frames && err.isEmpty(); ++i) {
            const QImage frame = animationFrame(lab, job, i);
            if (!writer->addFrame(frame.constBits(), int(frame.bytesPerLine()), error)) err = QString::fromStdString(error);
            else if (progress && !progress(i + 1, job.sweep.frames)) err = QStringLiteral("cancelled");
        }
        if (err.isEmpty() && !writer->finish(error)) err = QString::fromStdString(error);
    }
    if (job.recording) {
        if (auto *r = dynamic_cast<Replayable *>(&lab)) r->showStep(r->replaySteps());
    } else {
        lab.setValues(before, false);
    }
    return err;
}

} // namespace fb
