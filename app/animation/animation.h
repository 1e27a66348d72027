#pragma once
// Animations of a lab's chart: a parameter swept from one value to another (linearly or in log
// space, like the parameter's slider), each frame rendered by chartImage, the same renderer as
// Export chart, and written as MP4, GIF (app/animation/video_writer.h) or a folder of numbered PNGs.
#include "app/scene/sweep.h"
#include "core/lab/param_spec.h"

#include <QFont>
#include <QImage>
#include <QRect>
#include <QSize>
#include <QString>

#include <functional>

namespace fb {

class LabView;

enum class AnimationOutput { Mp4, Gif, Frames, Unknown };
// A folder for a path ending in '/'; else .mp4 or .gif by the extension (also when a folder has that
// name: writing it is then refused); else a folder when the path is an existing directory.
AnimationOutput animationOutputOf(const QString &path);

// The step frame i of frames shows when recording a run of steps steps: round(i * steps / (frames - 1)).
int recordingStep(int steps, int frames, int i);

struct AnimationJob {
    Sweep sweep;               // the swept parameter; when recording, only sweep.frames counts
    bool recording = false;    // a training run replayed step by step (views/lab/replayable.h)
    int chart = 0;             // 0-based
    QSize size { 1600, 1000 };
    int fps = 30;
    bool caption = true;       // a strip under the chart with the swept value ("step s of S")
    bool fixedAxes = true;     // a sweep's frames share their axes (app/animation/sweep_axes.h)
    QString out;
};

// The caption strip under a frame's chart: the lead (the swept value, bold) and the lab's figures
// beside it on one line when they fit, else the figures on a second line, set smaller (to 80 %)
// before they are cut. rest is the figures' box from the strip's top.
struct CaptionStrip {
    int lineHeight = 0;
    int height = 0;  // one or two lines
    QFont leadFont, restFont;
    QRect rest;
    QString restText;  // the figures as drawn (elided only when 80 % is still too wide)
};
CaptionStrip captionStrip(const QString &lead, const QString &figures, QSize size);

// Frame i of job: lab set to the swept value, its chart rendered (with the caption strip), opaque
// RGB32, the scene embedded as in chartImage. Changes lab's values. When recording, lab must be a
// Replayable whose run has ended: its chart is shown at recordingStep (it throws otherwise).
QImage animationFrame(LabView &lab, const AnimationJob &job, int i);

// The metadata the MP4 and GIF carry: the first frame's scene and the sweep, as compact JSON.
QString animationComment(LabView &lab, const AnimationJob &job);

// Renders every frame and writes job.out whole or not at all. A recording needs the run ended first
// (waitForResult trains it); the chart is left showing the whole run. progress(done, total) is called after
// each frame; returning false cancels (nothing is left behind, the message is "cancelled").
// Returns an empty string on success. Runs on the GUI thread (rendering needs widgets).
QString exportAnimation(LabView &lab, const AnimationJob &job,
                        const std::function<bool(int, int)> &progress = {});

} // namespace fb
