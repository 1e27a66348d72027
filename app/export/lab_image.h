#pragma once
// A lab's chart as an exported image: the chart at the requested size, an optional caption strip
// with the lab's key parameters, and the lab's scene embedded as a PNG text chunk, so that opening
// the PNG in FullBand restores the lab. The window's Export chart, Copy chart and Export all charts
// and the headless `fullband export` all go through chartImage, so every PNG carries its scene.
#include "app/scene/scene.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <cstddef>

namespace fb {

class LabView;

// The PNG text key that holds the scene.
inline const QString kSceneTextKey = QStringLiteral("fullband-scene");

// The lab's whole state as a scene (its name, title, parameter values and extras).
Scene sceneOf(const LabView &lab);

// Chart chartIndex of lab as it is drawn now (it waits for nothing: the command line calls
// LabView::waitForResult first). Null for a bad index.
QImage chartImage(LabView &lab, int chartIndex, QSize size, qreal scale, bool captionStrip);

// PNGs FullBand opens are at most this large (a 16384 x 16384 chart compresses far below it).
constexpr std::size_t kMaxPngBytes = std::size_t(256) << 20;

// The scene text embedded in a PNG exported by FullBand; empty if it has none. A path that is not a
// regular file, a file over kMaxPngBytes, or one whose chunk structure is unsound (a chunk longer
// than the file, a damaged CRC) is refused before any decoder reads it, with the reason in *error.
QString embeddedSceneText(const QString &pngPath, QString *error = nullptr);

} // namespace fb
