#pragma once
// Colour-blind-safe colours for every FullBand chart.
#include <QColor>
#include <QList>

namespace fb {

// Viridis colour map: t in [0, 1] (clamped) to a colour; perceptually uniform, colour-blind safe.
QColor viridis(double t);

// Okabe-Ito categorical colours, distinguishable for the common colour-vision deficiencies.
// index wraps around.
QColor seriesColor(int index);

} // namespace fb
