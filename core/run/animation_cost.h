#pragma once
// What rendering and encoding an animation costs, for the one work and memory budget of
// core/run/budget.h: a run over it is refused before the first frame, with the figure and the limit.
//   memory: the frames the renderer holds (the frame, the chart's image, the widget it draws, 4 bytes a
//     pixel each) and those the encoder keeps: libx264 (veryfast, 2 B-frames) about 24 frames of
//     yuv420p and the interpolated planes of its reference frames; the GIF palette filters a few BGRA
//     copies and the palettised frame; PNG frames only the renderer's. At 8192x8192 an MP4 needs about 3.2 GiB, a GIF about 1.7 GiB.
//   work: about 500 operations a pixel a frame (drawing the antialiased chart, converting, encoding):
//     3,000 frames at 8192x8192 are over it, 150 frames at 1600x1000 use a five-hundredth of it.
#include "core/run/budget.h"

#include <string>

namespace fb {

enum class AnimationFormat { Mp4, Gif, PngFrames };

Cost animationCost(int width, int height, int frames, AnimationFormat format);

// Empty when the animation fits the budget, otherwise one sentence:
//   "150 frames of 8192x8192 as MP4 need 3.2 GiB of memory, at most 2 GiB; <hint>"
std::string checkAnimationBudget(int width, int height, int frames, AnimationFormat format, const std::string &hint);

} // namespace fb
