#include "core/run/animation_cost.h"

namespace fb {

namespace {
constexpr double kRendererBytesPerPixel = 3 * 4.0;        // frame, chart image, widget, RGB32 each
constexpr double kMp4BytesPerPixel = 24 * 1.5 + 4 * 3.0;  // x264's frames (yuv420p), reference planes
constexpr double kGifBytesPerPixel = 3 * 4.0 + 2 * 1.0;   // BGRA copies in the filters, pal8 frames
constexpr double kOperationsPerPixel = 500.0;
} // namespace

Cost animationCost(int width, int height, int frames, AnimationFormat format)
{
    const double pixels = double(width) * double(height);
    const double encoder = format == AnimationFormat::Mp4   ? kMp4BytesPerPixel
                           : format == AnimationFormat::Gif ? kGifBytesPerPixel
                                                            : 0.0;
    Cost c;
    c.bytes = pixels * (kRendererBytesPerPixel + encoder);
    c.flops = pixels * double(frames) * kOperationsPerPixel;
    return c;
}

std::string checkAnimationBudget(int width, int height, int frames, AnimationFormat format, const std::string &hint)
{
    const char *as = format == AnimationFormat::Mp4 ? " as MP4" : format == AnimationFormat::Gif ? " as GIF" : " as PNG";
    const std::string what = std::to_string(frames) + " frames of " + std::to_string(width) + "x" + std::to_string(height) + as;
    std::string err = checkBudget(what, animationCost(width, height, frames, format), hint);
    // "frames ... need", not "needs": the sentence's subject is plural.
    if (const auto at = err.find(" needs "); at != std::string::npos) err.replace(at, 7, " need ");
    return err;
}

} // namespace fb
