#pragma once
// Writing an animation as MP4 (H.264, yuv420p) or GIF (a palette per frame, chosen from the frame's
// own colours by FFmpeg's palettegen/paletteuse) with Debian's FFmpeg libraries. Qt-free: frames come
// in as 32-bit BGRA rows (QImage::Format_ARGB32 / RGB32 on little-endian machines).
//
// Whole files or nothing: the writer encodes into a temporary file in the target's folder, checks
// every write and renames it over the target in finish(). Destroying a writer that was not finished
// (cancel, error) removes the temporary file and leaves the target as it was.
#include <cstdint>
#include <memory>
#include <string>

namespace fb {

enum class VideoFormat { Mp4, Gif };

struct VideoSettings {
    VideoFormat format = VideoFormat::Mp4;
    int width = 1600;    // pixels; MP4 needs both even (yuv420p)
    int height = 1000;
    int fps = 30;        // frames per second, 1..120
    std::string comment; // metadata: MP4 "comment" tag, GIF comment extension
};

class VideoWriter {
public:
    // Opens the temporary file beside path. Null with error set when FFmpeg or the folder refuses.
    static std::unique_ptr<VideoWriter> open(const std::string &path, const VideoSettings &settings,
                                             std::string &error);
    ~VideoWriter();
    VideoWriter(const VideoWriter &) = delete;
    VideoWriter &operator=(const VideoWriter &) = delete;

    // One frame of settings' size, BGRA rows stride bytes apart. False with error set on failure.
    bool addFrame(const std::uint8_t *bgra, int stride, std::string &error);
    // Flushes the encoder, writes the trailer and renames the temporary file over the target.
    bool finish(std::string &error);

    int framesWritten() const;

    struct Impl;
private:
    explicit VideoWriter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// From then on, SIGINT, SIGTERM and SIGHUP first remove the temporary file of every writer still open
// (Ctrl-C during an export leaves no hidden ".NAME.partial-XXXXXX" behind), then end the process as
// the signal would have. Called once by main().
void removePartialFilesOnSignals();

// "mp4"/"gif" by the path's extension (case-insensitive); false for anything else.
bool videoFormatOf(const std::string &path, VideoFormat &format);

// Whether this FFmpeg can write the format (libx264 for MP4, gif + palettegen for GIF).
bool videoFormatAvailable(VideoFormat format, std::string &why);

} // namespace fb
