#pragma once
// Animations of a lab's chart: a parameter swept from one value to another (linearly or in log
// space, like the parameter's slider), each frame rendered by chartImage, the same renderer as
// Export chart, and written as MP4, GIF (app/video_writer.h) or a folder of numbered PNGs.
#include "core/param_spec.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>

namespace fb {

class LabView;

struct Sweep {
    std::string key;
    double from = 0.0;
    double to = 1.0;
    bool log = false;
    int frames = 150;
    // The parameter's value in frame i (0-based), rounded to a valid integer for integer parameters.
    double valueAt(const ParamSpec &spec, int i) const;
};

// "KEY=FROM:TO[:log]" for lab: both ends checked against the parameter's range, log needs both
// ends positive. Returns an empty string on success, otherwise one line naming the key and range.
QString parseSweep(const LabSpec &lab, const QString &text, Sweep &out);

enum class AnimationOutput { Mp4, Gif, Frames, Unknown };
// .mp4, .gif, or a folder (a path ending in '/' or an existing directory).
AnimationOutput animationOutputOf(const QString &path);

struct AnimationJob {
    Sweep sweep;
    int chart = 0;             // 0-based
    QSize size { 1600, 1000 };
    int fps = 30;
    bool caption = true;       // a strip under the chart with the swept value
    QString out;
};

// Frame i of job: lab set to the swept value, its chart rendered (with the caption strip), opaque
// RGB32, the scene embedded as in chartImage. Changes lab's values.
QImage animationFrame(LabView &lab, const AnimationJob &job, int i);

// The metadata the MP4 and GIF carry: the first frame's scene and the sweep, as compact JSON.
QString animationComment(LabView &lab, const AnimationJob &job);

// Renders every frame and writes job.out whole or not at all. progress(done, total) is called after
// each frame; returning false cancels (nothing is left behind, the message is "cancelled").
// Returns an empty string on success. Runs on the GUI thread (rendering needs widgets).
QString exportAnimation(LabView &lab, const AnimationJob &job,
                        const std::function<bool(int, int)> &progress = {});

} // namespace fb
